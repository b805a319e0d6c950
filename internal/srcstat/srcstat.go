// Package srcstat lets a test that builds a binary with the go command
// (the netsched CLI, the out-of-tree example) be rerun when that binary's
// sources change: go test caches a passing test by the files the test
// itself looked at, and a build in a child process is not among them.
package srcstat

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Stat stats every file under root whose extension is one of exts (".go",
// ".mod", ...), skipping hidden and testdata folders, so that go test's
// cache records them as inputs of the calling test.
func Stat(root string, exts ...string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name := d.Name(); d.IsDir() && (strings.HasPrefix(name, ".") && name != "." && name != ".." || name == "testdata") {
			return filepath.SkipDir
		}
		if slices.Contains(exts, filepath.Ext(path)) {
			_, err = os.Stat(path)
		}
		return err
	})
}
