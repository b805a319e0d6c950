package all_test

import (
	"testing"

	"github.com/netsched/netsched/reproduce"
	_ "github.com/netsched/netsched/reproduce/all"
)

// TestRegistry: every paper is registered once, in paper order, and found
// by number or folder.
func TestRegistry(t *testing.T) {
	want := []string{"000 mmdl", "001 multicluster", "002 clustering", "003 loadbalance", "004 broadcast"}
	papers := reproduce.Papers()
	if len(papers) != len(want) {
		t.Fatalf("%d papers, want %d", len(papers), len(want))
	}
	for i, p := range papers {
		if got := p.ID + " " + p.Dir; got != want[i] || p.Title == "" {
			t.Errorf("paper %d: %s (%q), want %s", i, got, p.Title, want[i])
		}
		if q, ok := reproduce.Lookup(p.Dir); !ok || q.ID != p.ID {
			t.Errorf("Lookup(%q) = %s, %v", p.Dir, q.ID, ok)
		}
	}
	if _, ok := reproduce.Lookup("005"); ok {
		t.Error("Lookup(005) found a paper")
	}
}
