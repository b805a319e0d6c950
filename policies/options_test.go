package policies

import (
	"context"
	"strings"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

var testOptions = []Option{
	{Name: "k", Type: TypeInt, Default: 10, Min: 1, Doc: "k"},
	{Name: "unit", Type: TypeFloat, Default: 1e6, Min: 0, MinOpen: true, Doc: "unit"},
	{Name: "budget", Type: TypeFloat, Default: 0.0, Min: 0, Doc: "budget"},
	{Name: "on", Type: TypeBool, Default: true, Doc: "on"},
	{Name: "rule", Type: TypeChoice, Default: "current", Choices: []string{"2004", "current"}, Doc: "rule"},
}

func testEntry() Entry {
	return Entry{Name: "p", Family: models.FamilyDAG, Platforms: []string{models.KindDelay}, Options: testOptions,
		Planner: PlannerFunc(func(context.Context, Instance) (*sim.Schedule, error) { return &sim.Schedule{}, nil })}
}

// TestCheckOption: values of each type, in and out of range.
func TestCheckOption(t *testing.T) {
	e := testEntry()
	for _, tc := range []struct {
		name string
		v    any
		want string // "" for no error
	}{
		{"k", 3, ""},
		{"k", 3.0, ""}, // a sweep's value
		{"k", 1, ""},
		{"k", 0, "option k: want a whole number >= 1, got 0"},
		{"k", 2.5, "option k: want a whole number >= 1, got 2.5"},
		{"k", "ten", `option k: want a whole number >= 1, got "ten"`},
		{"unit", 1, ""},
		{"unit", 0.0, "option unit: want a finite number > 0, got 0"},
		{"budget", 0, ""},
		{"budget", -1e-9, "want a finite number >= 0"},
		{"on", false, ""},
		{"on", "yes", `option on: want true or false, got "yes"`},
		{"rule", 2004, ""}, // YAML reads 2004 as a number
		{"rule", "1999", `option rule: want one of 2004, current, got "1999"`},
		{"kk", 1, `unknown option "kk": p takes k, unit, budget, on, rule`},
	} {
		err := e.CheckOption(tc.name, tc.v)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s = %v: %v", tc.name, tc.v, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s = %v: error %v, want %q", tc.name, tc.v, err, tc.want)
		}
	}
	e.Options = nil
	if err := e.CheckOption("k", 1); err == nil || !strings.Contains(err.Error(), "p takes no options") {
		t.Errorf("no options: %v", err)
	}
}

// TestReadOptions: values given are read converted, others from the
// declaration's default.
func TestReadOptions(t *testing.T) {
	k, unit, budget, on, rule := testOptions[0], testOptions[1], testOptions[2], testOptions[3], testOptions[4]
	o := Options{"k": 4.0, "on": false, "rule": 2004, "budget": 2}
	if got := k.Int(o); got != 4 {
		t.Errorf("k = %d, want 4", got)
	}
	if got := unit.Float(o); got != 1e6 {
		t.Errorf("unit = %v, want the default 1e6", got)
	}
	if got := budget.Float(o); got != 2 {
		t.Errorf("budget = %v, want 2", got)
	}
	if on.Bool(o) || rule.String(o) != "2004" {
		t.Errorf("on = %v, rule = %q", on.Bool(o), rule.String(o))
	}
	if got := k.Int(nil); got != 10 {
		t.Errorf("k of no options = %d, want the default 10", got)
	}
}

// TestRegisterChecksDeclarations: Register refuses what would make the
// registry disagree with itself.
func TestRegisterChecksDeclarations(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Entry)
	}{
		{"no platform", func(e *Entry) { e.Platforms = nil }},
		{"no family", func(e *Entry) { e.Family = "" }},
		{"default of another type", func(e *Entry) { e.Options = []Option{{Name: "k", Type: TypeInt, Default: 1.5}} }},
		{"default out of range", func(e *Entry) { e.Options = []Option{{Name: "k", Type: TypeInt, Default: 0, Min: 1}} }},
		{"default not a choice", func(e *Entry) {
			e.Options = []Option{{Name: "c", Type: TypeChoice, Default: "x", Choices: []string{"y"}}}
		}},
		{"twice", func(e *Entry) { e.Options = []Option{testOptions[0], testOptions[0]} }},
	} {
		e := testEntry()
		tc.edit(&e)
		if err := e.declared(); err == nil {
			t.Errorf("%s: declared() accepts it", tc.name)
		}
	}
	if err := testEntry().declared(); err != nil {
		t.Errorf("a good entry: %v", err)
	}
}

// TestAdmit: the registry's planner refuses what the entry does not
// support, and validates only an instance not marked Valid.
func TestAdmit(t *testing.T) {
	e := testEntry()
	p := admitting{e: e, p: e.Planner}
	delay := &models.Platform{Delay: &models.Delay{Rho: 1}}
	bad := &models.Platform{Delay: &models.Delay{Rho: -1}}
	dag := &models.Problem{DAG: &models.DAG{Tasks: []models.Task{{Weight: 1}}}}
	div := &models.Problem{Divisible: &models.Divisible{}}
	for _, tc := range []struct {
		name string
		in   Instance
		want string
	}{
		{"good", Instance{Platform: delay, Problem: dag, Options: Options{"k": 2}}, ""},
		{"nil", Instance{Platform: delay}, "needs a platform and a problem"},
		{"invalid", Instance{Platform: bad, Problem: dag}, "platform.delay.rho"},
		{"trusted", Instance{Platform: bad, Problem: dag, Valid: true}, ""},
		{"family", Instance{Platform: delay, Problem: div, Valid: true}, "policy p schedules dag problems, not divisible"},
		{"kind", Instance{Platform: &models.Platform{Tree: &models.Tree{}}, Problem: dag, Valid: true}, "policy p runs on delay platforms, not tree"},
		{"option", Instance{Platform: delay, Problem: dag, Options: Options{"k": 0}}, "p: option k"},
	} {
		_, err := p.Plan(context.Background(), tc.in)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
