// Command hardrun runs the optimal broadcast search on the hard families of
// issue 21 with a time budget and prints one CSV row per search: the
// family, its participants and seed, the budget, the wall-clock time the
// call took (start-up included), whether the optimum was proven, the best
// makespan, the lower bound, the root bound and the nodes searched.
//
// It uses only the API the search had before the bounds of issue 21 (main
// at 8f5fd80), so the same file, copied into an older checkout, builds
// the "before" binary of results/benchmarks.md:
//
//	go run ./policies/broadcast/internal/hardrun -budget 10s > after.csv
//	go run ./policies/broadcast/internal/hardrun -budget 10s -only random-32/3,smp-64
//	go run ./policies/broadcast/internal/hardrun -nodes 20000 > nodes.csv
//
// The families: random heterogeneous trees with relays (trees.RandomTree
// with its default configuration, parts/4 relays, a message of 1 from
// participant 0) at 16, 24 and 32 participants, seeds 0–9 (or, with
// -seed N, N to N+9: trees the search was not tuned on); the
// three-level heterogeneous SMP tree at 32 to 64 by 8; paper 004's Fig. 13
// (cluster of clusters) and Fig. 14 (unequal clusters) shapes at 64 and
// 128. With -yaml DIR (made if missing) it writes each instance as a
// scenario instead of searching; with -progress the searches write their
// progress lines (and the SAT prover's answers) to stderr. The searches
// run with DefaultOptions, the SAT prover included where cadical is
// installed; it runs alongside the search, on the second core.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast"
	"github.com/netsched/netsched/trees"
)

func main() {
	budget := flag.Duration("budget", 10*time.Second, "time budget of every search")
	nodes := flag.Int64("nodes", 0, "a node budget instead of the time budget: the same result on every run and machine")
	only := flag.String("only", "", "comma-separated instance names (family-parts/seed); empty: all")
	progress := flag.Bool("progress", false, "write the searches' progress lines to stderr")
	yamlDir := flag.String("yaml", "", "write each instance as a scenario file into this directory instead of searching")
	seed := flag.Uint64("seed", 0, "the first seed of the random trees: they take seeds seed to seed+9")
	flag.Parse()
	if err := run(*budget, *nodes, *only, *yamlDir, *progress, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "hardrun:", err)
		os.Exit(2)
	}
}

// instance is a named tree of the benchmark.
type instance struct {
	name string
	tree *models.Tree
	size float64
}

func run(budget time.Duration, nodes int64, only, yamlDir string, progress bool, seed uint64) error {
	ins, err := instances(seed)
	if err != nil {
		return err
	}
	if only != "" {
		want := strings.Split(only, ",")
		ins = slices.DeleteFunc(ins, func(in instance) bool { return !slices.Contains(want, in.name) })
		if len(ins) == 0 {
			return fmt.Errorf("-only %q names no instance", only)
		}
	}
	if yamlDir != "" {
		return writeScenarios(ins, yamlDir, budget)
	}
	if _, err := exec.LookPath("cadical"); err != nil && nodes == 0 {
		fmt.Fprintln(os.Stderr, "hardrun: cadical is not installed (Debian package cadical): the searches run without the SAT prover")
	}
	fmt.Println("instance,budget_s,elapsed_s,proven,best,bound,root_bound,nodes")
	for _, in := range ins {
		opt := broadcast.DefaultOptions()
		opt.MaxTime = budget
		if progress {
			opt.Progress = policies.Labelled(os.Stderr, "optimal")
		}
		if nodes > 0 {
			opt.MaxTime, opt.MaxNodes = 0, nodes
		}
		begin := time.Now()
		res, err := broadcast.Optimal(context.Background(), instanceOf(in), opt)
		elapsed := time.Since(begin)
		if err != nil {
			return fmt.Errorf("%s: %w", in.name, err)
		}
		fmt.Printf("%s,%g,%.3f,%v,%.9g,%.9g,%.9g,%d\n", in.name, budget.Seconds(), elapsed.Seconds(),
			res.Proven, res.Schedule.Claimed, res.LowerBound, res.RootBound, res.Nodes)
	}
	return nil
}

func instanceOf(in instance) policies.Instance {
	return policies.Instance{
		Platform: &models.Platform{Tree: in.tree},
		Problem:  &models.Problem{Broadcast: &models.Broadcast{Roots: []string{"0"}, Size: in.size}},
	}
}

// instances lists the benchmark's trees in the order they run, the random
// ones with seeds first to first+9.
func instances(first uint64) ([]instance, error) {
	var out []instance
	for _, parts := range []int{16, 24, 32} {
		for seed := first; seed < first+10; seed++ {
			tr, err := trees.RandomTree(seed, trees.DefaultRandomTreeConfig(parts, parts/4))
			if err != nil {
				return nil, fmt.Errorf("random tree %d/%d: %w", parts, seed, err)
			}
			out = append(out, instance{fmt.Sprintf("random-%d/%d", parts, seed), tr, 1})
		}
	}
	for _, parts := range []int{32, 40, 48, 56, 64} {
		tr, err := smpTree(parts)
		if err != nil {
			return nil, err
		}
		out = append(out, instance{fmt.Sprintf("smp-%d", parts), tr, trees.DefaultMessageSize})
	}
	p := trees.DefaultNetParams()
	for _, parts := range []int{64, 128} {
		tr, err := trees.ClusterOfClustersTree(parts/4, p)
		if err != nil {
			return nil, err
		}
		out = append(out, instance{fmt.Sprintf("fig13-%d", parts), tr, trees.DefaultMessageSize})
		if tr, err = trees.UnequalClustersTree(parts/4, p); err != nil {
			return nil, err
		}
		out = append(out, instance{fmt.Sprintf("fig14-%d", parts), tr, trees.DefaultMessageSize})
	}
	return out, nil
}

// smpTree is the three-level heterogeneous SMP tree of issue 21, as
// treegen.SMP builds it for the wing's tests (kept here so that this file
// builds against checkouts older than those tests): a backbone switch
// joined by Gigabit to a Gigabit cluster switch and by Fast Ethernet to a
// Fast Ethernet one; half of the CPUs on dual-CPU SMP nodes under the
// first, half on quad-CPU nodes under the second, every CPU on shared
// memory; participant 0 is the first CPU under the Gigabit switch.
func smpTree(parts int) (*models.Tree, error) {
	if parts < 8 || parts%8 != 0 {
		return nil, fmt.Errorf("SMP tree: participants must be a positive multiple of 8, got %d", parts)
	}
	p := trees.DefaultNetParams()
	tr := &models.Tree{}
	node := func(name string, relay bool) string {
		tr.Nodes = append(tr.Nodes, models.TreeNode{Name: name, Relay: relay})
		return name
	}
	edge := func(a, b string, l models.LinkParams) {
		tr.Edges = append(tr.Edges, models.TreeEdge{A: a, B: b, LinkParams: l, Duplex: models.FullDuplex})
	}
	bb, ge, fe := node("bb", true), node("ge", true), node("fe", true)
	edge(bb, ge, p.Gigabit)
	edge(bb, fe, p.FastEthernet)
	rank := 0
	for _, c := range []struct {
		sw   string
		cpus int
		link models.LinkParams
	}{{ge, 2, p.Gigabit}, {fe, 4, p.FastEthernet}} {
		for k := range parts / 2 / c.cpus {
			smp := node(c.sw+"-smp"+strconv.Itoa(k), true)
			edge(c.sw, smp, c.link)
			for range c.cpus {
				edge(smp, node(strconv.Itoa(rank), false), p.SharedMemory)
				rank++
			}
		}
	}
	return tr, nil
}

// writeScenarios writes every instance as a scenario running the optimal
// search with the budget, named after the instance (a slash becomes "-").
func writeScenarios(ins []instance, dir string, budget time.Duration) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, in := range ins {
		name := strings.ReplaceAll(in.name, "/", "-")
		sc := map[string]any{
			"name":        name,
			"description": "issue 21 benchmark instance " + in.name,
			"platform":    map[string]any{"tree": in.tree},
			"problem":     map[string]any{"broadcast": map[string]any{"roots": []string{"0"}, "size": in.size}},
			"policies":    []any{map[string]any{"name": "optimal", "max_seconds": budget.Seconds()}},
		}
		b, err := yaml.Marshal(sc)
		if err != nil {
			return fmt.Errorf("%s: %w", in.name, err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), b, 0o666); err != nil {
			return err
		}
	}
	return nil
}
