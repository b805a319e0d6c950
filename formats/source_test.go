package formats

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/models"
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
			src := &models.DAGSource{DOT: tc.file}
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			g, _, err := LoadDAG(ctx, src, "problem.dag.from", dir, budget.Default())
			if !errors.Is(err, context.Canceled) || g != nil {
				t.Errorf("cancelled: %v; want no graph and an error wrapping context.Canceled", err)
			}
			g, _, err = LoadDAG(context.Background(), src, "problem.dag.from", dir, budget.Default())
			if err != nil || len(g.Tasks) != tc.tasks {
				t.Fatalf("live context: %v; want %d tasks", err, tc.tasks)
			}
		})
	}
}

// TestPlatformResolve builds a platform from a file and names the field of
// each mistake.
func TestPlatformResolve(t *testing.T) {
	dir := t.TempDir()
	doc, err := os.ReadFile(filepath.Join("wfcommons", "testdata", "tiny15.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tiny.json"), doc, 0o644); err != nil {
		t.Fatal(err)
	}
	p := models.Platform{From: &models.PlatformSource{WfCommons: "tiny.json", Bandwidth: 10}}
	if err := ResolvePlatform(&p, dir, budget.Default()); err != nil || p.MultiCluster == nil || p.From != nil || p.MultiCluster.NumProcessors() != 9 ||
		p.MultiCluster.Clusters[0].Beta != 1/models.DefaultMemoryBandwidth {
		t.Fatalf("%v %+v", err, p)
	}
	for _, tc := range []struct {
		p     models.Platform
		field string
	}{
		{models.Platform{From: &models.PlatformSource{WfCommons: "tiny.json"}}, "platform.from.bandwidth"},
		{models.Platform{From: &models.PlatformSource{Bandwidth: 1}}, "platform.from.wfcommons"},
		{models.Platform{From: &models.PlatformSource{WfCommons: "none.json", Bandwidth: 1}}, "platform.from.wfcommons"},
		{models.Platform{From: &models.PlatformSource{WfCommons: "tiny.json", Bandwidth: 1, Alpha: -1}}, "platform.from.alpha"},
		{models.Platform{From: &models.PlatformSource{WfCommons: "tiny.json", Bandwidth: 1, Memory: new(0.0)}}, "platform.from.memory"},
		{models.Platform{From: &models.PlatformSource{WfCommons: "tiny.json", Bandwidth: 1}, Delay: &models.Delay{}}, "platform.from"},
	} {
		err := ResolvePlatform(&tc.p, dir, budget.Default())
		var fe *models.FieldError
		if !errors.As(err, &fe) || fe.Path != tc.field {
			t.Errorf("%+v: %v, want an error at %s", tc.p.From, err, tc.field)
		}
	}
	if err := (&models.Platform{From: &models.PlatformSource{}}).Validate(); err == nil {
		t.Error("an unresolved platform validates")
	}
}
