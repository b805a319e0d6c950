package scenarios_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/netsched/netsched/policies/external"
	"github.com/netsched/netsched/scenarios"
)

// execScenario is a scenario whose policies list is policies.
func execScenario(policies string) string {
	return "platform: {delay: {rho: 1}}\nproblem: {dag: {tasks: [{weight: 1}]}}\npolicies:\n" + policies
}

func TestExecPolicy(t *testing.T) {
	src := filepath.Join("some", "dir", "s.yaml")
	s, err := scenarios.Parse(src, []byte(execScenario(`  - sequential
  - {exec: [sh, sched.sh, --fast], label: mine, options: {k: 3, how: greedy}}
  - {exec: [sh], label: p, timeout: 2m, persistent: true}
  - {exec: [sh], label: q, timeout: 1.5}
`)))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		id      string
		command string
		timeout time.Duration
		persist bool
	}{{"sequential", "", 0, false}, {"mine", "sh sched.sh --fast", external.DefaultTimeout, false},
		{"p", "sh", 2 * time.Minute, true}, {"q", "sh", 1500 * time.Millisecond, false}}
	for i, w := range want {
		spec := s.Policies[i]
		if spec.ID() != w.id {
			t.Errorf("policy %d is %s, want %s", i, spec.ID(), w.id)
		}
		if w.command == "" {
			if spec.Exec != nil {
				t.Errorf("%s: an exec spec for a registered policy", w.id)
			}
			continue
		}
		if spec.Exec == nil {
			t.Fatalf("%s: no exec spec", w.id)
		}
		e := spec.Exec
		if strings.Join(e.Command, " ") != w.command || e.Timeout != w.timeout || e.Persistent != w.persist ||
			e.Dir != filepath.Join("some", "dir") || spec.Name != "" {
			t.Errorf("%s: read as %+v, name %q", w.id, *e, spec.Name)
		}
	}
	if o := s.Policies[1].Options; o["k"] != 3 || o["how"] != "greedy" {
		t.Errorf("options %v", o)
	}
}

func TestExecPolicyErrors(t *testing.T) {
	for _, tc := range []struct{ policies, want string }{
		{"  - {exec: [sh]}\n", "line 4: policies[0]: an exec policy needs a label"},
		{"  - {exec: [sh], label: a, name: x}\n", "line 4: policies[0].name: unknown key; an exec policy takes exec, label, timeout, persistent, options"},
		{"  - {exec: [sh], label: a, k: 3}\n", "policies[0].k: unknown key"},
		{"  - {exec: [], label: a}\n", "line 4: policies[0].exec: want a list of at least the program"},
		{"  - {exec: sh, label: a}\n", "policies[0].exec: want a list"},
		{"  - {exec: [no-such-program-here], label: a}\n", "line 4: policies[0].exec[0]: cannot run no-such-program-here: executable file not found"},
		{"  - {exec: [./missing.py], label: a}\n", "policies[0].exec[0]: cannot run ./missing.py: stat ./missing.py: no such file or directory"},
		{"  - {exec: [testdata/dot/../missing.py], label: a}\n", "policies[0].exec[0]: cannot run testdata/dot/../missing.py: stat"},
		{"  - {exec: [sh], label: a, timeout: -1s}\n", "policies[0].timeout: want a positive duration"},
		{"  - {exec: [sh], label: a, timeout: soon}\n", "policies[0].timeout: want a positive duration"},
		{"  - {exec: [sh], label: a, persistent: yes please}\n", "policies[0].persistent: want true or false"},
		{"  - {exec: [sh], label: a, options: [1]}\n", "policies[0].options: want a mapping"},
		{"  - {exec: [sh], label: a, options: {k: [1]}}\n", "policies[0].options.k: want a single value"},
		{"  - {exec: [sh], label: a.b}\n", "policies[0].label: \"a.b\": a label has letters"},
		{"  - {exec: [sh], label: a}\n  - {exec: [sh], label: a}\n", "line 5: policies[1].label: \"a\" already names the policy at line 4"},
		{"  - sequential\n  - {exec: [sh], label: sequential}\n", "policies[1].label: \"sequential\" already names"},
	} {
		_, err := scenarios.Parse("x.yaml", []byte(execScenario(tc.policies)))
		var se *scenarios.Error
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want a scenario error with %q", tc.policies, err, tc.want)
		}
	}
}
