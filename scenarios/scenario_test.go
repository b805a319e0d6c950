package scenarios_test

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	_ "github.com/netsched/netsched/policies/all"
	"github.com/netsched/netsched/scenarios"
)

// TestBadInput loads each broken scenario of testdata and checks that the
// error names the file, the line and the field.
func TestBadInput(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string // substrings of the error, in any order
	}{
		{"unknown-key", []string{"line 6: platform.crossbar.bta: unknown field", "known here: beta, alpha, duplex, processors"}},
		{"unknown-edge-key", []string{"line 7: platform.tree.edges[0].bandwith: unknown field; did you mean bandwidth? (known here: a, b, bandwidth, latency, reverse, duplex)"}},
		{"beta-negative", []string{"line 7: platform.crossbar.beta: must be a finite number > 0, got -1"}},
		{"beta-zero", []string{"line 7: platform.multicluster.clusters[1].beta: must be a finite number > 0, got 0"}},
		{"tree-cycle", []string{"line 8: platform.tree.edges[2]: edge h2–h0 closes a cycle"}},
		{"unknown-policy", []string{"line 9: policies[1]: no policy is named \"no-such-policy\"", "sequential"}},
		{"wrong-family", []string{"line 6: policies[1]: policy direct schedules divisible problems, not dag"}},
		{"wrong-platform", []string{"line 7: policies[0]: policy unclustered runs on delay platforms, not crossbar"}},
		{"two-platforms", []string{"line 1: platform: must set exactly one of crossbar, multicluster, tree, delay"}},
		{"platform-twice", []string{"line 6: mapping key \"platform\" already defined at line 1"}},
		{"empty", []string{"the file is empty"}},
		{"two-documents", []string{"line 6: a second YAML document starts here"}},
		{"syntax-error", []string{"line 2: did not find expected ',' or '}'"}},
		{"bad-indent", []string{"line 3: did not find expected key"}},
		{"scanner-error", []string{"line 4: mapping values are not allowed in this context"}},
		{"not-a-mapping", []string{"line 1: a scenario is a mapping with platform, problem and policies, got a list"}},
		{"bad-root", []string{"line 12: problem.broadcast.roots[1]: \"sw\" is a relay"}},
		{"duplicate-label", []string{"line 8: policies[2].label: \"cross-k5\" already names the policy at line 6"}},
		{"duplicate-policy", []string{"line 7: policies[1]: cross is already listed at line 6; give one of them a label"}},
		{"bad-label", []string{"line 6: policies[0].label: \"cross.k5\": a label has letters, digits, '-' and '_' only"}},
		{"bad-option", []string{"line 7: policies[0].k: want a single value"}},
		{"option-unknown", []string{"line 9: policies[1].kk: unknown option \"kk\"; did you mean k? (cross takes k, runs, select"}},
		{"option-type", []string{"line 6: policies[0].runs: want a whole number >= 1, got 2.5"}},
		{"option-range", []string{"line 7: policies[0].k: want a whole number >= 1, got 0"}},
		{"option-choice", []string{"line 7: policies[0].select: want one of cp, random, largest, got \"best\""}},
		{"option-none", []string{"line 6: policies[0].k: unknown option \"k\": dsc takes no options"}},
		{"no-policies", []string{"line 1: policies: must name at least one policy"}},
		{"seeds-zero", []string{"line 6: seeds: must be a whole number >= 1, got 0"}},
		{"bad-type", []string{`line 5: problem.dag.tasks[0].weight: want a number, got "heavy"`}},
		{"bad-type-long", []string{`line 4: platform.crossbar.processors[1]: want a mapping, got "a very long processor description"`}},
		{"bad-rounds", []string{"line 5: problem.divisible.rounds: must be a whole number >= 1 or \"auto\", got \"many\""}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file+".yaml")
			s, err := scenarios.Load(path)
			if err == nil {
				t.Fatalf("Load(%s) = %+v, want an error", path, s)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "scenario "+path+": ") {
				t.Errorf("error does not start with the file name:\n%s", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("error lacks %q:\n%s", w, msg)
				}
			}
		})
	}
}

// TestFieldErrorUnwraps checks that a validation error keeps its
// *models.FieldError and its line for callers such as the CLI.
func TestFieldErrorUnwraps(t *testing.T) {
	_, err := scenarios.Load("testdata/beta-negative.yaml")
	var se *scenarios.Error
	var fe *models.FieldError
	if !errors.As(err, &se) || !errors.As(err, &fe) {
		t.Fatalf("error %v is not a *scenarios.Error wrapping a *models.FieldError", err)
	}
	if se.Line != 7 || fe.Path != "platform.crossbar.beta" {
		t.Errorf("line %d, path %q; want 7, platform.crossbar.beta", se.Line, fe.Path)
	}
}

func TestMissingFile(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"testdata/nope.yaml", "scenario testdata/nope.yaml: no such file or directory"},
		{"no-such-scenario", "scenario no-such-scenario: no such file, and no bundled scenario of that name (bundled: "},
		{"testdata", "scenario testdata: is a directory"},
	} {
		_, err := scenarios.Load(tc.name)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load(%q) error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

// TestBundled loads every bundled scenario by name and checks that it
// validates, names at least one policy and has a header comment.
func TestBundled(t *testing.T) {
	names := scenarios.Bundled()
	if !slices.IsSorted(names) {
		t.Errorf("Bundled() = %v, not sorted", names)
	}
	kinds := map[string]bool{}
	for _, name := range names {
		s, err := scenarios.Load(name)
		if err != nil {
			t.Errorf("bundled %s: %v", name, err)
			continue
		}
		kinds[s.Platform.Kind()] = true
		if s.Name != name || s.Source != "bundled:"+name || s.Description == "" || len(s.Policies) == 0 {
			t.Errorf("bundled %s: name %q, source %q, description %q, %d policies",
				name, s.Name, s.Source, s.Description, len(s.Policies))
		}
		data, err := os.ReadFile(filepath.Join("bundled", name+".yaml"))
		if err != nil || !strings.HasPrefix(string(data), "# "+name+":") {
			t.Errorf("bundled %s: want a header comment starting \"# %s:\"", name, name)
		}
	}
	for _, k := range []string{models.KindCrossbar, models.KindMultiCluster, models.KindTree, models.KindDelay} {
		if !kinds[k] {
			t.Errorf("no bundled scenario on a %s platform", k)
		}
	}
}

// TestSweep checks the sweep forms, their file order and lines; what
// they name and the grid are package sweep's (sweep.TestPlanPoints).
func TestSweep(t *testing.T) {
	s, err := scenarios.Load("testdata/good-sweep.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := []scenarios.Axis{
		{Path: "beta", Values: []float64{0.1, 0.2}},
		{Path: "platform.crossbar.processors[1].gamma", Values: []float64{2, 4}},
		{Path: "platform.crossbar.processors[0].overlap.send", Values: []float64{1.5}},
		{Path: "alpha", Values: []float64{0, 0.001, 0.002, 0.003}},
	}
	for i := range s.Sweep {
		if s.Sweep[i].Line == 0 || len(s.Sweep[i].Lines) != len(s.Sweep[i].Values) {
			t.Errorf("axis %s: line %d, value lines %v", s.Sweep[i].Path, s.Sweep[i].Line, s.Sweep[i].Lines)
		}
		s.Sweep[i].Line, s.Sweep[i].Lines = 0, nil
	}
	if !reflect.DeepEqual(s.Sweep, want) {
		t.Fatalf("Sweep = %v, want %v", s.Sweep, want)
	}
	if s.Seeds != 3 || s.Name != "good" || len(s.Policies) != 2 || s.Policies[1].Name != "direct" {
		t.Errorf("seeds %d, name %q, policies %v", s.Seeds, s.Name, s.Policies)
	}
}

// TestSweepRanges checks "start:stop:step" expansion and its limits.
func TestSweepRanges(t *testing.T) {
	const head = "platform: {delay: {rho: 1}}\nproblem: {dag: {tasks: [{weight: 1}]}}\npolicies: [sequential]\nsweep:\n  rho: "
	for _, tc := range []struct {
		rng  string
		want []float64
		err  string
	}{
		{`"1:3:1"`, []float64{1, 2, 3}, ""},
		{`"0:1:0.25"`, []float64{0, 0.25, 0.5, 0.75, 1}, ""},
		{`"0:0.3:0.1"`, []float64{0, 0.1, 0.2, 0.30000000000000004}, ""},
		{`"2:2:1"`, []float64{2}, ""},
		{`"3:1:1"`, nil, "line 5: sweep rho: range \"3:1:1\": want step > 0 and stop >= start"},
		{`"0:1:0"`, nil, "want step > 0"},
		{`"0:1e9:1"`, nil, "at most 10000"},
		{`"a:b:c"`, nil, "finite numbers"},
		{`[]`, nil, "want a list of 1 to 10000 numbers"},
		{`[1, .nan]`, nil, "sweep rho[1]: want a finite number"},
		{`{a: 1}`, nil, "got a mapping"},
	} {
		s, err := scenarios.Parse("r.yaml", []byte(head+tc.rng+"\n"))
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.rng, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.rng, err)
		case tc.err == "":
			got := s.Sweep[0].Values
			if len(got) != len(tc.want) {
				t.Errorf("%s: %v, want %v", tc.rng, got, tc.want)
				continue
			}
			for i := range got {
				if math.Abs(got[i]-tc.want[i]) > 1e-12 {
					t.Errorf("%s: %v, want %v", tc.rng, got, tc.want)
				}
			}
		}
	}
}

// TestPolicyOptions checks both policy forms and the decoding of options.
func TestPolicyOptions(t *testing.T) {
	data := []byte(`platform: {delay: {rho: 1}}
problem: {dag: {tasks: [{weight: 1}]}}
policies:
  - sequential
  - {name: cross, k: 10, runs: 2, select: random}
`)
	s, err := scenarios.Parse("p.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "p" {
		t.Errorf("name %q, want the file's base name p", s.Name)
	}
	in := s.Instance(1, 7)
	want := policies.Options{"k": 10, "runs": 2, "select": "random"}
	if !reflect.DeepEqual(in.Options, want) || in.Seed != 7 || in.Platform != &s.Platform || !in.Valid {
		t.Errorf("instance: options %v, seed %d", in.Options, in.Seed)
	}
	in.Options["k"] = 11
	if s.Policies[1].Options["k"] != 10 {
		t.Error("Instance shares its options map with the scenario")
	}
	if s.Instance(0, 1).Options != nil {
		t.Error("a bare policy name has options")
	}
}
