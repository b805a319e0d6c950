package broadcast

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/netsched/netsched/check/checktest"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/policies/broadcast/treenet"
	"github.com/netsched/netsched/sim"
	"github.com/netsched/netsched/trees"
)

// family is one of the network families of paper 004 §6.
type family struct {
	name  string
	build func(k int) (*models.Tree, error)
}

func families() []family {
	p := trees.DefaultNetParams()
	return []family{
		{"star", func(k int) (*models.Tree, error) { return trees.StarTree(2*k, p.Gigabit) }},
		{"dual-cpu", func(k int) (*models.Tree, error) { return trees.DualCPUTree(k, p) }},
		{"cluster-of-clusters", func(k int) (*models.Tree, error) { return trees.ClusterOfClustersTree(k, p) }},
		{"unequal-clusters", func(k int) (*models.Tree, error) { return trees.UnequalClustersTree(k, p) }},
	}
}

// piecePolicies move parts of the message; the rest move it whole.
var piecePolicies = []policies.Options{
	{"rule": "2004"}, {"rule": "current"}, {"allgather": "ring"}, {"allgather": "recursive-doubling"},
}

// TestPoliciesOnFamilies replays every policy on the paper's networks
// from roots 0 and 1: no violation, the claimed time, and no whole-message
// policy beats optimal.
func TestPoliciesOnFamilies(t *testing.T) {
	for _, f := range families() {
		for _, k := range []int{2, 3, 4} {
			tr, err := f.build(k)
			if err != nil {
				t.Fatal(err)
			}
			for _, root := range []string{"0", "1"} {
				in := instanceOf(tr, trees.DefaultMessageSize, root)
				name := fmt.Sprintf("%s/%d/root%s", f.name, k, root)
				opt := mustPlan(t, "optimal", in)
				checktest.Verify(t, in.Platform, in.Problem, opt, sim.Timed)
				checkBroadcast(t, in, opt)
				if opt.Metrics["proven"] != 1 || !approx(opt.Metrics["lower_bound"], opt.Claimed) {
					t.Errorf("%s: optimal not proven: %v", name, opt.Metrics)
				}
				for _, p := range wholeMessage {
					s := mustPlan(t, p, in)
					checktest.Verify(t, in.Platform, in.Problem, s, sim.Timed)
					checkBroadcast(t, in, s)
					if s.Claimed < opt.Claimed*(1-1e-9) {
						t.Errorf("%s: %s %.9g beats optimal %.9g", name, p, s.Claimed, opt.Claimed)
					}
				}
				for _, o := range piecePolicies {
					for _, p := range []string{"mpich", "mpich-scatter-allgather"} {
						if _, ok := o["allgather"]; ok && p == "mpich" {
							continue
						}
						s := mustPlan(t, p, withOptions(in, o))
						checktest.Verify(t, in.Platform, in.Problem, s, sim.Timed)
						checkAfter(t, s)
					}
				}
			}
		}
	}
}

// TestStarClosedForm: n participants on one switch, no latency, every link
// of bandwidth B: the optimum doubles the holders every D/B, ⌈log2 n⌉·D/B.
func TestStarClosedForm(t *testing.T) {
	const bw, size = 125.0, 1.0
	for _, n := range []int{2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 64} {
		tr, err := trees.StarTree(n, models.LinkParams{Bandwidth: bw})
		if err != nil {
			t.Fatal(err)
		}
		in := instanceOf(tr, size, "0")
		want := math.Ceil(math.Log2(float64(n))) * size / bw
		res, err := Optimal(context.Background(), in, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		if !approx(res.Schedule.Claimed, want) || !res.Proven {
			t.Errorf("star of %d: optimal %.12g (proven %v), want ⌈log2 n⌉·D/B = %.12g", n, res.Schedule.Claimed, res.Proven, want)
		}
		checktest.Verify(t, in.Platform, in.Problem, res.Schedule, sim.Timed)
		if b := mustPlan(t, "mpich-binomial", in); !approx(b.Claimed, want) {
			t.Errorf("star of %d: binomial %.12g, want %.12g", n, b.Claimed, want)
		}
	}
}

// fig14Schedule is the optimal 12-node schedule paper 004 §6.1 lists for
// Fig. 14.
var fig14Schedule = [][2]string{
	{"0", "6"}, {"0", "2"}, {"6", "8"}, {"6", "4"}, {"8", "10"}, {"8", "9"},
	{"10", "11"}, {"8", "7"}, {"0", "1"}, {"2", "3"}, {"4", "5"},
}

// TestFig14PaperSchedule replays the paper's schedule on the 12-node
// network of Fig. 14; optimal matches or beats it.
func TestFig14PaperSchedule(t *testing.T) {
	tr, err := trees.UnequalClustersTree(3, trees.DefaultNetParams())
	if err != nil {
		t.Fatal(err)
	}
	in := instanceOf(tr, trees.DefaultMessageSize, "0")
	paper, err := treenet.PlaceSequence(context.Background(), in, fig14Schedule)
	if err != nil {
		t.Fatal(err)
	}
	checktest.Verify(t, in.Platform, in.Problem, paper, sim.Timed)
	checkBroadcast(t, in, paper)
	opt := mustPlan(t, "optimal", in)
	checktest.Verify(t, in.Platform, in.Problem, opt, sim.Timed)
	if opt.Claimed > paper.Claimed*(1+1e-9) {
		t.Errorf("optimal %.9g is worse than the paper's schedule %.9g", opt.Claimed, paper.Claimed)
	}
	t.Logf("Fig. 14, 12 nodes: paper's schedule %.4f ms, optimal %.4f ms", paper.Claimed*1e3, opt.Claimed*1e3)
}

// partitionTree is the reduction of paper 004 §3 (Fig. 4): holders 1..m
// joined to a switch by links of bandwidth B, receivers m+1..4m by links
// of bandwidth a_i, no latency, a message of size 1.
func partitionTree(a []int) (*models.Tree, []string) {
	m := len(a) / 3
	sum := 0
	for _, x := range a {
		sum += x
	}
	tr := &models.Tree{Nodes: []models.TreeNode{{Name: "sw", Relay: true}}}
	var roots []string
	for i := 1; i <= 4*m; i++ {
		name := fmt.Sprint(i)
		tr.Nodes = append(tr.Nodes, models.TreeNode{Name: name})
		bw := float64(sum / m)
		if i > m {
			bw = float64(a[i-m-1])
		} else {
			roots = append(roots, name)
		}
		tr.Edges = append(tr.Edges, models.TreeEdge{A: "sw", B: name, LinkParams: models.LinkParams{Bandwidth: bw}})
	}
	return tr, roots
}

// Test3Partition: the broadcast reaches 1/min a_i exactly when A splits
// into m triples of sum B.
func Test3Partition(t *testing.T) {
	tests := []struct {
		a   []int
		yes bool
	}{
		{[]int{26, 33, 41, 30, 35, 35}, true},
		{[]int{26, 26, 26, 40, 41, 41}, false},
		{[]int{26, 33, 41, 27, 36, 37, 30, 30, 40}, true},
		{[]int{26, 26, 26, 26, 44, 44, 44, 32, 32}, false},
		{[]int{34, 33, 33, 27, 27, 46}, true},
	}
	for _, tt := range tests {
		tr, roots := partitionTree(tt.a)
		in := instanceOf(tr, 1, roots...)
		res, err := Optimal(context.Background(), in, DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		checktest.Verify(t, in.Platform, in.Problem, res.Schedule, sim.Timed)
		target := 1 / float64(slices.Min(tt.a))
		reached := approx(res.Schedule.Claimed, target)
		if reached != tt.yes || res.Schedule.Claimed < target*(1-1e-9) || !res.Proven {
			t.Errorf("A = %v (partition exists: %v): optimal %.12g, 1/min a_i = %.12g", tt.a, tt.yes, res.Schedule.Claimed, target)
		}
	}
}

// TestBadInput: malformed instances are errors that say what is wrong.
func TestBadInput(t *testing.T) {
	good := func() policies.Instance {
		tr, _ := trees.StarTree(3, models.LinkParams{Bandwidth: 1})
		return instanceOf(tr, 1, "0")
	}
	tests := []struct {
		name   string
		policy string
		edit   func(in *policies.Instance)
		want   string
	}{
		{"cycle", "optimal", func(in *policies.Instance) {
			in.Platform.Tree.Edges[2] = models.TreeEdge{A: "0", B: "1", LinkParams: models.LinkParams{Bandwidth: 1}}
		}, "cycle"},
		{"relay root", "optimal", func(in *policies.Instance) { in.Problem.Broadcast.Roots = []string{"sw"} }, "relay"},
		{"zero bandwidth", "ecef", func(in *policies.Instance) { in.Platform.Tree.Edges[1].Bandwidth = 0 }, "edges[1].bandwidth"},
		{"negative reverse bandwidth", "lam", func(in *policies.Instance) {
			in.Platform.Tree.Edges[0].Reverse = &models.LinkParams{Bandwidth: -1}
		}, "reverse.bandwidth"},
		{"unknown root", "fnf", func(in *policies.Instance) { in.Problem.Broadcast.Roots = []string{"x"} }, "roots[0]"},
		{"twice the same root", "optimal", func(in *policies.Instance) { in.Problem.Broadcast.Roots = []string{"1", "1"} }, "roots[1]"},
		{"no root", "optimal", func(in *policies.Instance) { in.Problem.Broadcast.Roots = nil }, "roots"},
		{"zero size", "optimal", func(in *policies.Instance) { in.Problem.Broadcast.Size = 0 }, "size"},
		{"two roots for MPI", "mpich-binomial", func(in *policies.Instance) { in.Problem.Broadcast.Roots = []string{"0", "1"} }, "one root"},
		{"crossbar", "optimal", func(in *policies.Instance) {
			in.Platform = &models.Platform{Crossbar: &models.Crossbar{Beta: 1, Duplex: models.FullDuplex, Processors: []models.Processor{{Gamma: 1}}}}
		}, "tree platform"},
		{"unknown option", "optimal", func(in *policies.Instance) { in.Options = policies.Options{"rcutt": true} }, "rcutt"},
		{"option type", "optimal", func(in *policies.Instance) { in.Options = policies.Options{"scut": "yes"} }, "scut"},
		{"negative budget", "optimal", func(in *policies.Instance) { in.Options = policies.Options{"max_nodes": -1} }, "max_nodes"},
		{"bad rule", "mpich", func(in *policies.Instance) { in.Options = policies.Options{"rule": "1999"} }, "rule"},
		{"bad allgather", "mpich-scatter-allgather", func(in *policies.Instance) { in.Options = policies.Options{"allgather": "tree"} }, "allgather"},
		{"allgather for mpich", "mpich", func(in *policies.Instance) { in.Options = policies.Options{"allgather": "ring"} }, "allgather"},
		{"bad unit", "mpich", func(in *policies.Instance) { in.Options = policies.Options{"unit_bytes": 0.0} }, "unit_bytes"},
		{"options for a baseline", "binary-tree", func(in *policies.Instance) { in.Options = policies.Options{"k": 1} }, "no options"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := good()
			tt.edit(&in)
			e, _ := policies.Lookup(tt.policy)
			_, err := e.Planner.Plan(context.Background(), in)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s: error %v, want one mentioning %q", tt.policy, err, tt.want)
			}
		})
	}
	var fe *models.FieldError
	in := good()
	in.Platform.Tree.Edges[1].Bandwidth = -3
	if _, err := Optimal(context.Background(), in, DefaultOptions()); !errors.As(err, &fe) || fe.Path != "platform.tree.edges[1].bandwidth" {
		t.Errorf("bandwidth ≤ 0: error %v, want a *models.FieldError at platform.tree.edges[1].bandwidth", err)
	}
}

// TestPlaceSequenceErrors: a sequence must be a broadcast.
func TestPlaceSequenceErrors(t *testing.T) {
	tr, _ := trees.StarTree(3, models.LinkParams{Bandwidth: 1})
	in := instanceOf(tr, 1, "0")
	for _, seq := range [][][2]string{
		{{"1", "2"}, {"0", "1"}},
		{{"0", "1"}, {"0", "1"}, {"0", "2"}},
		{{"0", "sw"}, {"0", "1"}, {"0", "2"}},
		{{"0", "1"}},
	} {
		if _, err := treenet.PlaceSequence(context.Background(), in, seq); err == nil {
			t.Errorf("sequence %v: no error", seq)
		}
	}
}

// TestOptimalBudgetAndCancel: a budget returns the best schedule found with
// a lower bound below it; a cancelled context stops the search.
func TestOptimalBudgetAndCancel(t *testing.T) {
	tr, _ := trees.UnequalClustersTree(3, trees.DefaultNetParams())
	in := instanceOf(tr, 1, "0")
	full, err := Optimal(context.Background(), in, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{MaxNodes: 50}
	res, err := Optimal(context.Background(), in, opt)
	if err != nil {
		t.Fatal(err)
	}
	checktest.Verify(t, in.Platform, in.Problem, res.Schedule, sim.Timed)
	if res.Proven || res.Nodes > 51 || res.LowerBound > full.Schedule.Claimed*(1+1e-9) || res.LowerBound > res.Schedule.Claimed {
		t.Errorf("node budget: proven %v after %d nodes, bound %g, best %g, optimum %g",
			res.Proven, res.Nodes, res.LowerBound, res.Schedule.Claimed, full.Schedule.Claimed)
	}
	if res.Schedule.Metrics["proven"] != 0 || len(res.Schedule.Warnings) == 0 {
		t.Errorf("node budget: metrics %v, warnings %v", res.Schedule.Metrics, res.Schedule.Warnings)
	}
	res, err = Optimal(context.Background(), in, Options{Bound: true, MaxTime: time.Nanosecond})
	if err != nil || res.Proven && !approx(res.Schedule.Claimed, full.Schedule.Claimed) {
		t.Errorf("time budget: %v, proven %v", err, res != nil && res.Proven)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Optimal(ctx, in, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: error %v", err)
	}
}

// TestPruningsOnFamilies: on the paper's networks, every combination of
// RCut, SCut and ties finds the same optimum (the bound stays on).
func TestPruningsOnFamilies(t *testing.T) {
	for _, f := range families() {
		tr, _ := f.build(3)
		in := instanceOf(tr, 1, "1")
		var want float64
		for mask := range 8 {
			opt := Options{RCut: mask&1 != 0, SCut: mask&2 != 0, Ties: mask&4 != 0, Bound: true}
			res, err := Optimal(context.Background(), in, opt)
			if err != nil {
				t.Fatal(err)
			}
			if mask == 0 {
				want = res.Schedule.Claimed
			}
			if !res.Proven || !approx(res.Schedule.Claimed, want) {
				t.Errorf("%s options %+v: %.12g (proven %v), want %.12g", f.name, opt, res.Schedule.Claimed, res.Proven, want)
			}
		}
	}
}

// TestTrivialBroadcasts: a lone participant, or every participant a root:
// nothing to send.
func TestTrivialBroadcasts(t *testing.T) {
	lone, _ := trees.StarTree(1, models.LinkParams{Bandwidth: 1})
	pair, _ := trees.StarTree(2, models.LinkParams{Bandwidth: 1})
	for _, in := range []policies.Instance{instanceOf(lone, 1, "0"), instanceOf(pair, 1, "1", "0")} {
		for _, e := range policies.All() {
			if e.Family != models.FamilyBroadcast || e.Name == "flat-sequential" {
				continue
			}
			if len(in.Problem.Broadcast.Roots) > 1 && (strings.HasPrefix(e.Name, "mpich") || e.Name == "lam" || e.Name == "binary-tree") {
				continue
			}
			s := mustPlan(t, e.Name, in)
			if len(s.Actions) != 0 || s.Claimed != 0 {
				t.Errorf("%s: %d actions, claim %g, want none", e.Name, len(s.Actions), s.Claimed)
			}
			checktest.Verify(t, in.Platform, in.Problem, s, sim.Timed)
		}
	}
}
