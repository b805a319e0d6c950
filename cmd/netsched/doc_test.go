package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/scenarios"
)

// repoRoot is the repository's root from this package's directory.
const repoRoot = "../.."

// TestReferenceCommitted requires docs/scenarios.md to be what `netsched
// doc` prints, so the committed reference follows the declarations.
func TestReferenceCommitted(t *testing.T) {
	code, out, errs := netsched(t, "doc")
	if code != 0 || errs != "" {
		t.Fatalf("netsched doc: exit %d\n%s", code, errs)
	}
	committed, err := os.ReadFile(filepath.Join(repoRoot, referenceFile))
	if err != nil {
		t.Fatalf("%v\nregenerate it: go run ./cmd/netsched doc > %s", err, referenceFile)
	}
	if !bytes.Equal(committed, []byte(out)) {
		a, b := strings.Split(string(committed), "\n"), strings.Split(out, "\n")
		line := 0
		for line < min(len(a), len(b)) && a[line] == b[line] {
			line++
		}
		t.Fatalf("%s differs from `netsched doc` from line %d on:\ncommitted: %q\ngenerated: %q\n"+
			"regenerate it: go run ./cmd/netsched doc > %s",
			referenceFile, line+1, at(a, line), at(b, line), referenceFile)
	}
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end of file)"
}

// TestReferenceComplete requires the reference to name every declared
// field (scenarios.Fields, which TestFieldsDeclared holds to what the
// loader accepts), every registered policy and each of its options.
func TestReferenceComplete(t *testing.T) {
	var b bytes.Buffer
	if err := writeReference(&b); err != nil {
		t.Fatal(err)
	}
	ref := b.String()
	for _, f := range scenarios.Fields() {
		if !strings.Contains(ref, "| `"+f.Path+"` |") {
			t.Errorf("field %s is not in the reference", f.Path)
		}
	}
	for _, e := range policies.All() {
		i := strings.Index(ref, "#### "+e.Name+"\n")
		if i < 0 {
			t.Errorf("policy %s is not in the reference", e.Name)
			continue
		}
		section, _, _ := strings.Cut(ref[i+1:], "\n#")
		if !strings.Contains(section, "Platforms: "+strings.Join(e.Platforms, ", ")+".") {
			t.Errorf("policy %s: its platforms are not in its section:\n%s", e.Name, section)
		}
		for _, o := range e.Options {
			if !strings.Contains(section, "| `"+o.Name+"` | "+string(o.Type)+" | ") {
				t.Errorf("policy %s: option %s is not in its section", e.Name, o.Name)
			}
		}
	}
}

// TestDocArgs: doc takes no arguments.
func TestDocArgs(t *testing.T) {
	if code, out, _ := netsched(t, "doc", "extra"); code != 2 || out != "" {
		t.Errorf("doc extra: exit %d, stdout %q; want 2 and nothing", code, out)
	}
}

// TestExamples runs every example of docs/examples, one per platform kind
// and problem family the registry pairs: each loads, every schedule of
// every policy is verified, and its sweep section sweeps.
func TestExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(repoRoot, "docs/examples/*.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, pair := range kindPairs(policies.All()) {
		want = append(want, filepath.Join(repoRoot, examplePath(pair[0], pair[1])))
	}
	slices.Sort(want)
	if !slices.Equal(files, want) {
		t.Errorf("docs/examples holds %v, want one per platform kind and problem family: %v", files, want)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			sc, err := scenarios.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			if len(sc.Sweep) == 0 {
				t.Errorf("%s has no sweep section", file)
			}
			code, out, errs := netsched(t, "run", file)
			if code != 0 || !strings.Contains(out, "verified") || regexp.MustCompile(`(?m) (NO|ERROR)$`).MatchString(out) {
				t.Fatalf("run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
			}
			if testing.Short() {
				return
			}
			csv := filepath.Join(t.TempDir(), "out.csv")
			if code, _, errs := netsched(t, "sweep", file, "-q", "-o", csv); code != 0 {
				t.Fatalf("sweep: exit %d\n%s", code, errs)
			}
		})
	}
}

// TestDefaultsSourced: every option of every policy says where its default
// comes from (policies.Option.Source), and every assumption its source,
// for the reference.
func TestDefaultsSourced(t *testing.T) {
	for _, e := range policies.All() {
		for _, o := range e.Options {
			if o.Source == "" {
				t.Errorf("%s: option %s does not say where its default comes from (Source)", e.Name, o.Name)
			}
		}
		for _, a := range e.Assumes {
			if a.Source == "" || a.Doc == "" {
				t.Errorf("%s: assumption %q has no source or doc", e.Name, a.Name)
			}
		}
	}
}

// TestRelaysLeftOut: the Gantt charts of a tree leave out its relays'
// lanes, which stay empty (they forward; the links have lanes), and those
// of other platforms keep their idle lanes.
func TestRelaysLeftOut(t *testing.T) {
	for name, want := range map[string]bool{"tree-small": true, "crossbar-hetero": false, "delay-small": false} {
		sc, err := scenarios.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := relaysIdle(sc); got != want {
			t.Errorf("%s: relaysIdle %v, want %v", name, got, want)
		}
	}
}
