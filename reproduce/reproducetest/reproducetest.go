// Package reproducetest runs a registered paper's reproduction for the
// papers' smoke tests and checks the files it wrote.
package reproducetest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/reproduce"
)

// Run runs paper id's reproduction with opt into a temporary results
// folder, and fails unless it succeeds and writes a non-empty SUMMARY.md
// and each of files, listed in it. It returns the paper's folder.
func Run(t testing.TB, id string, opt reproduce.Options, files ...string) string {
	t.Helper()
	p, ok := reproduce.Lookup(id)
	if !ok {
		t.Fatalf("paper %s is not registered", id)
	}
	root := t.TempDir()
	if err := reproduce.Run(context.Background(), root, p, opt); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, p.Dir)
	summary := Read(t, dir, "SUMMARY.md")
	for _, f := range files {
		Read(t, dir, f)
		if !strings.Contains(summary, "("+p.Dir+"/"+f+")") {
			t.Errorf("SUMMARY.md does not list %s", f)
		}
	}
	return dir
}

// Read returns the content of dir/name, and fails unless it is non-empty.
func Read(t testing.TB, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 {
		t.Errorf("%s is empty", name)
	}
	return string(b)
}

// Committed returns the committed result file results/<dir>/<name> of the
// repository, found above the package's directory.
func Committed(t testing.TB, dir, name string) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		path := filepath.Join(wd, "results", dir, name)
		if b, err := os.ReadFile(path); err == nil {
			return string(b)
		}
		parent := filepath.Dir(wd)
		if parent == wd {
			t.Fatalf("no results/%s/%s above the package directory", dir, name)
		}
		wd = parent
	}
}
