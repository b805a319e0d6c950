package models

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWorkflowCrossbar builds the crossbar of the tiny instance: n1's
// eight cores at its 2400 MHz (the first speed recorded, so γ = 1), n2's
// one core of unknown speed (γ = 1), links at 50 bytes/s.
func TestWorkflowCrossbar(t *testing.T) {
	w, err := ReadWfCommons(strings.NewReader(wfDoc15), "tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	w.Machines = append(w.Machines, WorkflowMachine{Name: "n3", Cores: 2, SpeedMHz: 1200})
	c, err := WorkflowCrossbar(w, 50, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if c.Beta != 0.02 || c.Alpha != 0.5 || c.Duplex != FullDuplex || len(c.Processors) != 11 {
		t.Fatalf("crossbar %+v", c)
	}
	for i, want := range map[int]struct {
		name  string
		gamma float64
	}{0: {"n1/0", 1}, 7: {"n1/7", 1}, 8: {"n2/0", 1}, 9: {"n3/0", 2}, 10: {"n3/1", 2}} {
		p := c.Processors[i]
		if p.Name != want.name || p.Gamma != want.gamma || p.Rate([]string{KindSend, KindRecv}) != 1/want.gamma {
			t.Errorf("processor %d: %+v, want %s at γ %g computing while it communicates", i, p, want.name, want.gamma)
		}
	}
	if got := MachineCores(w)["n3"]; len(got) != 2 || got[0] != 9 || got[1] != 10 {
		t.Errorf("cores of n3: %v", got)
	}
	if err := (&Platform{Crossbar: c}).Validate(); err != nil {
		t.Error(err)
	}
}

// TestPlatformResolve builds a platform from a file and names the field of
// each mistake.
func TestPlatformResolve(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tiny.json"), []byte(wfDoc15), 0o644); err != nil {
		t.Fatal(err)
	}
	p := Platform{From: &PlatformSource{WfCommons: "tiny.json", Bandwidth: 10}}
	if err := p.Resolve(dir); err != nil || p.Crossbar == nil || p.From != nil || len(p.Crossbar.Processors) != 9 {
		t.Fatalf("%v %+v", err, p)
	}
	for _, tc := range []struct {
		p     Platform
		field string
	}{
		{Platform{From: &PlatformSource{WfCommons: "tiny.json"}}, "platform.from.bandwidth"},
		{Platform{From: &PlatformSource{Bandwidth: 1}}, "platform.from.wfcommons"},
		{Platform{From: &PlatformSource{WfCommons: "none.json", Bandwidth: 1}}, "platform.from.wfcommons"},
		{Platform{From: &PlatformSource{WfCommons: "tiny.json", Bandwidth: 1, Alpha: -1}}, "platform.from.alpha"},
		{Platform{From: &PlatformSource{WfCommons: "tiny.json", Bandwidth: 1}, Delay: &Delay{}}, "platform.from"},
	} {
		err := tc.p.Resolve(dir)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Path != tc.field {
			t.Errorf("%+v: %v, want an error at %s", tc.p.From, err, tc.field)
		}
	}
	if err := (&Platform{From: &PlatformSource{}}).Validate(); err == nil {
		t.Error("an unresolved platform validates")
	}
}
