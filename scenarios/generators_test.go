package scenarios_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/netsched/netsched/internal/budget"
	"github.com/netsched/netsched/internal/cputime"
	"github.com/netsched/netsched/scenarios"
)

// generated is a crossbar scenario whose processors are the generator gen.
func generated(gen string) []byte {
	return []byte("platform:\n  crossbar:\n    beta: 0.01\n    duplex: half\n    processors: " + gen +
		"\nproblem: {divisible: {rounds: auto}}\npolicies: [no-redistribution]\n")
}

// TestProcessorGenerator draws platforms from generators: the count, the
// ranges and names asked for, the same processors for the same seed and
// others for another, and generators inside a multi-cluster.
func TestProcessorGenerator(t *testing.T) {
	load := func(gen string) *scenarios.Scenario {
		t.Helper()
		s, err := scenarios.Parse("gen.yaml", generated(gen))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := load("{count: 1000, seed: 7, name: p, gamma: {uniform: [1, 4]}, load: {choice: [0, 50, 100]}}")
	ps := s.Platform.Crossbar.Processors
	if len(ps) != 1000 || ps[0].Name != "p0" || ps[999].Name != "p999" {
		t.Fatalf("%d processors, first %+v, last %+v", len(ps), ps[0], ps[len(ps)-1])
	}
	loads := map[float64]int{}
	lo, hi := 4.0, 1.0
	for _, p := range ps {
		if p.Gamma < 1 || p.Gamma >= 4 {
			t.Fatalf("gamma %v outside [1, 4)", p.Gamma)
		}
		lo, hi = min(lo, p.Gamma), max(hi, p.Gamma)
		loads[p.Load]++
	}
	if lo > 1.05 || hi < 3.95 || len(loads) != 3 || loads[0] < 250 || loads[100] < 250 {
		t.Errorf("draws do not cover their ranges: gamma in [%v, %v], loads %v", lo, hi, loads)
	}
	if again := load("{count: 1000, seed: 7, name: p, gamma: {uniform: [1, 4]}, load: {choice: [0, 50, 100]}}"); !reflect.DeepEqual(again.Platform, s.Platform) {
		t.Error("the same seed drew another platform")
	}
	if other := load("{count: 1000, seed: 8, name: p, gamma: {uniform: [1, 4]}, load: {choice: [0, 50, 100]}}"); reflect.DeepEqual(other.Platform, s.Platform) {
		t.Error("another seed drew the same platform")
	}
	fixed := load("{count: 3, gamma: 2}").Platform.Crossbar.Processors
	if len(fixed) != 3 || fixed[2].Gamma != 2 || fixed[2].Load != 0 || fixed[2].Name != "" {
		t.Errorf("fixed gamma: %+v", fixed)
	}
	mc, err := scenarios.Parse("mc.yaml", []byte("platform:\n  multicluster:\n    beta: 1\n    clusters:\n"+
		"      - {beta: 0.5, processors: [{gamma: 1, load: 10}]}\n"+
		"      - {beta: 0.5, processors: {count: 5, gamma: {choice: [1, 2]}}}\n"+
		"problem: {divisible: {rounds: auto}}\npolicies: [multicluster]\n"))
	if err != nil || mc.Platform.NumNodes() != 6 {
		t.Fatalf("multi-cluster: %v", err)
	}
}

// TestProcessorGeneratorErrors names the file, the line and the field of
// every mistake in a generator, and refuses a count above the budget
// before drawing.
func TestProcessorGeneratorErrors(t *testing.T) {
	for _, tc := range []struct{ gen, want string }{
		{"{count: 0, gamma: 1}", "line 5: platform.crossbar.processors.count: must be a whole number >= 1, got 0"},
		{"{count: 3}", "line 5: platform.crossbar.processors.gamma: missing"},
		{"{count: 3, gamma: 0}", "line 5: platform.crossbar.processors.gamma: must be a finite number > 0, got 0"},
		{"{count: 3, gamma: {uniform: [4, 1]}}", "line 5: platform.crossbar.processors.gamma.uniform: want [lo, hi] with lo <= hi"},
		{"{count: 3, gamma: {uniform: [0, 1]}}", "both finite and > 0, got [0, 1]"},
		{"{count: 3, gamma: 1, load: {choice: [1, -2]}}", "platform.crossbar.processors.load: choice[1]: must be a finite number >= 0, got -2"},
		{"{count: 3, gamma: {normal: [1, 2]}}", `line 5: platform.crossbar.processors.gamma: want a distribution uniform or choice, got "normal"`},
		{"{count: 3, gamma: {uniform: [1, 2], choice: [1]}}", "line 5: platform.crossbar.processors.gamma: want a distribution of one key, uniform or choice, got a mapping of 2 keys"},
		{"{count: 3, gamma: [1, 2]}", "line 5: platform.crossbar.processors.gamma: want a number or a distribution ({uniform: [lo, hi]} or {choice: [...]}), got a list"},
		{"{count: 3, gamma: {uniform: [1]}}", "uniform: want [lo, hi], got 1 numbers"},
		{"{count: 3, gamma: fast}", `line 5: platform.crossbar.processors.gamma: want a number, got "fast"`},
		{"{count: 3, gamma: 1, overlap: {send: gama, recv: 1}}", `line 5: platform.crossbar.processors.overlap.send: want the word gamma, a number or a distribution, got "gama"`},
		{"{count: 3, gama: 1}", "line 5: platform.crossbar.processors.gama: unknown field; did you mean gamma? (known here: count, seed, per_run, name, gamma, load, overlap, combined)"},
		{"{count: many, gamma: 1}", `platform.crossbar.processors.count: want a whole number, got "many"`},
	} {
		_, err := scenarios.Parse("gen.yaml", generated(tc.gen))
		if err == nil || !strings.Contains(err.Error(), "scenario gen.yaml: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error saying %q", tc.gen, err, tc.want)
		}
	}
	_, err := scenarios.ParseWithin(context.Background(), "gen.yaml", generated("{count: 1e9, gamma: 1}"), 1<<30)
	for _, want := range []string{"line 5: platform.crossbar.processors.count: 1e+09 processors need", budget.Flag} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("count 1e9: got %v, want %q", err, want)
		}
	}
}

// processorList is a crossbar scenario listing n processors, one a line,
// as a script would write them.
func processorList(n int) []byte {
	var b strings.Builder
	b.WriteString("platform:\n  crossbar:\n    beta: 0.01\n    duplex: half\n    processors:\n")
	for i := range n {
		fmt.Fprintf(&b, "      - {name: p%d, gamma: %g, load: %d}\n", i, 0.05+float64(i%997)/6647, i%4/3*100)
	}
	b.WriteString("problem: {divisible: {rounds: auto}}\npolicies: [no-redistribution]\n")
	return []byte(b.String())
}

// BenchmarkParseProcessors loads a crossbar of 10^5 processors written as
// a YAML list and as a generator.
func BenchmarkParseProcessors(b *testing.B) {
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"list/1e5", processorList(100_000)},
		{"generator/1e5", generated("{count: 100000, gamma: {uniform: [0.05, 0.2]}, load: {choice: [0, 0, 0, 100]}}")},
		{"generator/1e6", generated("{count: 1000000, gamma: {uniform: [0.05, 0.2]}, load: {choice: [0, 0, 0, 100]}}")},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu0 := cputime.Process()
			for b.Loop() {
				if _, err := scenarios.Parse("bench.yaml", tc.data); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric((cputime.Process()-cpu0)*1e9/float64(b.N), "cpu-ns/op")
		})
	}
}

// TestProcessorGeneratorPerRun: a generator takes a listed processor's
// overlap (the word gamma: its own γ) and combined rates, and with per_run
// draws other processors for every run's seed, the same for the same seed,
// the processors of seed + run seed; without it every seed sees one
// platform.
func TestProcessorGeneratorPerRun(t *testing.T) {
	const gen = "{count: 20, seed: 3, gamma: {uniform: [1, 4]}, overlap: {send: gamma, recv: {uniform: [5, 6]}}, combined: [{active: [send, recv], gamma: 9}]%s}"
	fixed, err := scenarios.Parse("gen.yaml", generated(fmt.Sprintf(gen, "")))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range fixed.Platform.Crossbar.Processors {
		if p.Overlap["send"] != p.Gamma || p.Overlap["recv"] < 5 || p.Overlap["recv"] >= 6 || len(p.Combined) != 1 || p.Combined[0].Gamma != 9 {
			t.Fatalf("processor %+v: want overlap.send = gamma, overlap.recv in [5, 6), combined gamma 9", p)
		}
	}
	if c, err := fixed.ForSeed(2); err != nil || c != fixed {
		t.Errorf("without per_run, ForSeed(2) = %p, %v; want the scenario itself", c, err)
	}
	perRun, err := scenarios.Parse("gen.yaml", generated(fmt.Sprintf(gen, ", per_run: true")))
	if err != nil {
		t.Fatal(err)
	}
	gammas := func(s *scenarios.Scenario, seed uint64) []float64 {
		t.Helper()
		c, err := s.ForSeed(seed)
		if err != nil {
			t.Fatal(err)
		}
		var out []float64
		for _, p := range c.Platform.Crossbar.Processors {
			out = append(out, p.Gamma)
		}
		return out
	}
	one, two := gammas(perRun, 1), gammas(perRun, 2)
	if reflect.DeepEqual(one, two) {
		t.Error("per_run: seeds 1 and 2 drew the same processors")
	}
	if !reflect.DeepEqual(one, gammas(perRun, 1)) {
		t.Error("per_run: seed 1 drew other processors the second time")
	}
	seed4, err := scenarios.Parse("gen.yaml", generated(strings.Replace(fmt.Sprintf(gen, ""), "seed: 3", "seed: 4", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, gammas(seed4, 9)) {
		t.Error("per_run with seed 3, run seed 1: want the processors of seed 4")
	}
	if reflect.DeepEqual(gammas(perRun, 0), gammas(perRun, 1)) || !reflect.DeepEqual(perRun.Platform.Crossbar.Processors, mustSeed(t, perRun, 0)) {
		t.Error("per_run: the loaded platform is not the one of a run of seed 0")
	}
}

// mustSeed is s.ForSeed(seed)'s processors.
func mustSeed(t *testing.T, s *scenarios.Scenario, seed uint64) any {
	t.Helper()
	c, err := s.ForSeed(seed)
	if err != nil {
		t.Fatal(err)
	}
	return c.Platform.Crossbar.Processors
}
