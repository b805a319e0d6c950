package policies_test

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/netsched/netsched/policies"
)

// TestLabelled: every line, however the writes split it, starts with the
// label once.
func TestLabelled(t *testing.T) {
	var buf bytes.Buffer
	w := policies.Labelled(&buf, "opt-b")
	for _, s := range []string{"1.0 s, best 3\n2.0", " s, best 2\n", "\n", "3.0 s\n4.0 s\n"} {
		if _, err := fmt.Fprint(w, s); err != nil {
			t.Fatal(err)
		}
	}
	want := "opt-b: 1.0 s, best 3\nopt-b: 2.0 s, best 2\nopt-b: \nopt-b: 3.0 s\nopt-b: 4.0 s\n"
	if buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

// TestProgressTo: a context carries the writer WithProgress gave it.
func TestProgressTo(t *testing.T) {
	if w := policies.ProgressTo(context.Background()); w != nil {
		t.Errorf("background context: writer %v, want none", w)
	}
	var buf bytes.Buffer
	if w := policies.ProgressTo(policies.WithProgress(context.Background(), &buf)); w != &buf {
		t.Errorf("writer %v, want the one given", w)
	}
}
