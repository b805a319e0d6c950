package models

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/budget"
)

// TestLoadCancelled: a task graph's file is read until the context is
// done, and then the error wraps its cause; with a live context the same
// source loads in full. The DOT file is read by the one-pass reader, and,
// with a subgraph, by the full parser.
func TestLoadCancelled(t *testing.T) {
	dir := t.TempDir()
	chain := func(extra string) string {
		var b strings.Builder
		b.WriteString("digraph g {\n" + extra)
		for i := range 5000 {
			fmt.Fprintf(&b, "  t%d [weight=%d];\n  t%d -> t%d [data=1];\n", i, 1+i%3, i, i+1)
		}
		b.WriteString("  t5000 [weight=1];\n}\n")
		return b.String()
	}
	for name, text := range map[string]string{"plain.dot": chain(""), "full.dot": chain("  subgraph s { x0 }\n  x0 [weight=1];\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		file  string
		tasks int
	}{{"plain.dot", 5001}, {"full.dot", 5002}} {
		t.Run(tc.file, func(t *testing.T) {
			src := &DAGSource{DOT: tc.file}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			g, _, err := src.Load(ctx, "problem.dag.from", dir, budget.Default())
			if !errors.Is(err, context.Canceled) || g != nil {
				t.Errorf("cancelled: %v; want no graph and an error wrapping context.Canceled", err)
			}
			g, _, err = src.Load(context.Background(), "problem.dag.from", dir, budget.Default())
			if err != nil || len(g.Tasks) != tc.tasks {
				t.Fatalf("live context: %v; want %d tasks", err, tc.tasks)
			}
		})
	}
}
