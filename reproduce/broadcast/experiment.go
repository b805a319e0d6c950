package broadcast

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	bc "github.com/netsched/netsched/policies/broadcast"
	"github.com/netsched/netsched/policies/broadcast/mpi"
	"github.com/netsched/netsched/reproduce"
	"github.com/netsched/netsched/trees"
)

// Network is one network of paper 004 §6: its figure, the label the
// paper's tables give it, and the tree.
type Network struct {
	Figure int    // 11–14
	Label  string // "8", "2×4", "2×3×2", "2×4×(1+1)"
	SMPs   string // SMP nodes, as Tables 5–6 write them ("4", "2+2"); "" for a star
	Tree   *models.Tree
}

// Participants counts the CPUs of the network.
func (n Network) Participants() int {
	c := 0
	for _, v := range n.Tree.Nodes {
		if !v.Relay {
			c++
		}
	}
	return c
}

// SearchNetworks are the networks of Tables 1–4 (Figs. 11–14).
func SearchNetworks(p trees.NetParams) ([]Network, error) {
	var out []Network
	add := func(fig int, label, smps string, tr *models.Tree, err error) error {
		if err != nil {
			return err
		}
		out = append(out, Network{Figure: fig, Label: label, SMPs: smps, Tree: tr})
		return nil
	}
	for _, n := range []int{8, 10, 12, 14, 16} {
		tr, err := trees.StarTree(n, p.Gigabit)
		if err := add(11, fmt.Sprint(n), "", tr, err); err != nil {
			return nil, err
		}
	}
	for _, k := range []int{4, 5, 6, 7, 8} {
		tr, err := trees.DualCPUTree(k, p)
		if err := add(12, fmt.Sprintf("2×%d", k), fmt.Sprint(k), tr, err); err != nil {
			return nil, err
		}
	}
	for _, k := range []int{2, 3, 4} {
		tr, err := trees.ClusterOfClustersTree(k, p)
		if err := add(13, fmt.Sprintf("2×%d×2", k), fmt.Sprint(2*k), tr, err); err != nil {
			return nil, err
		}
	}
	for _, k := range []int{2, 3, 4} {
		tr, err := trees.UnequalClustersTree(k, p)
		if err := add(14, fmt.Sprintf("2×%d×(1+1)", k), fmt.Sprintf("%d+%d", k, k), tr, err); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// TimeNetworks are the networks of Tables 5–6.
func TimeNetworks(p trees.NetParams) ([]Network, error) {
	var out []Network
	for _, k := range []int{2, 3, 4} {
		tr, err := trees.DualCPUTree(k, p)
		if err != nil {
			return nil, err
		}
		out = append(out, Network{Figure: 12, Label: fmt.Sprintf("2×%d", k), SMPs: fmt.Sprint(k), Tree: tr})
	}
	for _, k := range []int{2, 3, 4} {
		tr, err := trees.ClusterOfClustersTree(k, p)
		if err != nil {
			return nil, err
		}
		out = append(out, Network{Figure: 13, Label: fmt.Sprintf("2×%d×2", k), SMPs: fmt.Sprint(2 * k), Tree: tr})
	}
	for _, k := range []int{2, 3, 4} {
		tr, err := trees.UnequalClustersTree(k, p)
		if err != nil {
			return nil, err
		}
		out = append(out, Network{Figure: 14, Label: fmt.Sprintf("2×%d×(1+1)", k), SMPs: fmt.Sprintf("%d+%d", k, k), Tree: tr})
	}
	return out, nil
}

// Pruning is one column of Tables 1–4.
type Pruning struct{ SCut, RCut bool }

// Prunings are the columns of Tables 1–4, in the paper's order.
func Prunings() [4]Pruning {
	return [4]Pruning{{false, false}, {true, false}, {false, true}, {true, true}}
}

func (p Pruning) String() string {
	onOff := func(b bool) string {
		if b {
			return "on"
		}
		return "off"
	}
	return "SCut " + onOff(p.SCut) + ", RCut " + onOff(p.RCut)
}

// SearchCell is one cell of Tables 1–4: the optimal search on one network
// with one pruning setting.
type SearchCell struct {
	Network  Network
	Pruning  Pruning
	Result   *bc.Result
	Paper    float64 // the paper's seconds, +Inf for "> 1 hour"
	Budgeted bool    // the budget stopped the search
}

// paperSearchSeconds are Tables 1–4 of paper 004 (Xeon 2.4 GHz), by
// network label and column; +Inf is "> 1 hour".
var paperSearchSeconds = map[string][4]float64{
	"8": {0.7176, 0.1675, 0.0008, 0.0005}, "10": {124.0832, 13.8438, 0.0016, 0.0007},
	"12": {2890.3923, 307.8589, 0.0019, 0.0009}, "14": {math.Inf(1), math.Inf(1), 0.0111, 0.0010},
	"16":  {math.Inf(1), math.Inf(1), 0.1094, 0.0012},
	"2×4": {0.0858, 0.1287, 0.0056, 0.0075}, "2×5": {43.7440, 41.5854, 0.2105, 0.1990},
	"2×6": {426.8857, 224.3249, 0.2975, 0.1819}, "2×7": {2577.0724, 1468.8743, 0.2674, 0.1602},
	"2×8":   {math.Inf(1), math.Inf(1), 1.8953, 0.7604},
	"2×2×2": {0.1002, 0.1474, 0.0152, 0.0196}, "2×3×2": {199.6090, 136.8981, 1.0716, 0.7729},
	"2×4×2":     {math.Inf(1), math.Inf(1), 8.4765, 4.0481},
	"2×2×(1+1)": {0.1463, 0.1818, 0.0229, 0.0267}, "2×3×(1+1)": {79.3955, 16.0693, 0.9041, 0.2406},
	"2×4×(1+1)": {math.Inf(1), math.Inf(1), 5546.7, 146.1595},
}

// SearchExperiment runs Tables 1–4: the optimal search from participant 0
// on every network of SearchNetworks with every pruning of Prunings; base
// sets everything else (bound, ties, ecef, dive, budgets; its RCut and SCut
// are overridden). A cell whose budget runs out reports the best schedule
// found and its lower bound. status, if not nil, is told which cell runs.
func SearchExperiment(ctx context.Context, p trees.NetParams, base bc.Options, status func(format string, args ...any)) ([]SearchCell, error) {
	nets, err := SearchNetworks(p)
	if err != nil {
		return nil, err
	}
	var cells []SearchCell
	for _, n := range nets {
		for col, pr := range Prunings() {
			if status != nil {
				status("Table %d (Fig. %d), network %s, %s", n.Figure-10, n.Figure, n.Label, pr)
			}
			opt := base
			opt.SCut, opt.RCut = pr.SCut, pr.RCut
			in := policies.Instance{
				Platform: &models.Platform{Tree: n.Tree},
				Problem:  &models.Problem{Broadcast: &models.Broadcast{Roots: []string{"0"}, Size: trees.DefaultMessageSize}},
			}
			res, err := bc.Optimal(ctx, in, opt)
			if err != nil {
				return nil, fmt.Errorf("Fig. %d %s, %s: %w", n.Figure, n.Label, pr, err)
			}
			cells = append(cells, SearchCell{Network: n, Pruning: pr, Result: res,
				Paper: paperSearchSeconds[n.Label][col], Budgeted: !res.Proven})
		}
	}
	return cells, nil
}

// TimeRow is one row of Tables 5–6: model-level broadcast times in seconds
// from participant 0 (root 1 for the *Root1 fields).
type TimeRow struct {
	Network                          Network
	MPICHRoot0, MPICHRoot1           float64 // MPICH's MPI_Bcast under Rule
	LAMRoot0, LAMRoot1               float64 // LAM/MPI 7's MPI_Bcast
	Optimal                          float64 // the optimal policy from root 0
	Proven                           bool
	PaperMPICH0, PaperMPICH1, PaperO float64 // Table 5, ms
	PaperLAM0, PaperLAM1, PaperLAMO  float64 // Table 6, ms
}

// paperTimes are Tables 5 and 6 of paper 004 in ms: MPICH root 0, root 1,
// optimised; LAM root 0, root 1, optimised.
var paperTimes = map[string][6]float64{
	"2×2": {12.8, 30.3, 12.7, 12.2, 13.0, 12.3}, "2×3": {26.5, 41.9, 26.3, 20.7, 22.2, 23.1},
	"2×4": {23.4, 34.4, 24.9, 29.2, 30.8, 21.6}, "2×2×2": {29.2, 41.8, 31.6, 29.5, 31.2, 22.0},
	"2×3×2": {43.8, 66.7, 44.3, 46.5, 48.6, 32.8}, "2×4×2": {45.9, 61.8, 45.1, 55.2, 59.4, 32.4},
	"2×2×(1+1)": {178.8, 333.8, 180.6, 259.1, 269.2, 174.5}, "2×3×(1+1)": {320.0, 463.6, 191.4, 429.4, 443.2, 185.6},
	"2×4×(1+1)": {319.6, 453.1, 270.8, 514.4, 531.7, 260.1},
}

// TimeExperiment runs Tables 5–6 at model level: on every network of
// TimeNetworks, MPICH's MPI_Bcast (rule: mpi.Rule2004 for the MPICH/SCore of
// the paper) and LAM's from roots 0 and 1, and the optimum from root 0,
// each replayed by the policies' own placement on the reservation model.
func TimeExperiment(ctx context.Context, p trees.NetParams, rule mpi.Rule, opt bc.Options) ([]TimeRow, error) {
	nets, err := TimeNetworks(p)
	if err != nil {
		return nil, err
	}
	var rows []TimeRow
	for _, n := range nets {
		row := TimeRow{Network: n}
		run := func(policy, root string, o policies.Options) (float64, error) {
			in := policies.Instance{
				Platform: &models.Platform{Tree: n.Tree}, Options: o,
				Problem: &models.Problem{Broadcast: &models.Broadcast{Roots: []string{root}, Size: trees.DefaultMessageSize}},
			}
			e, _ := policies.Lookup(policy)
			s, err := e.Planner.Plan(ctx, in)
			if err != nil {
				return 0, fmt.Errorf("Fig. %d %s, %s from %s: %w", n.Figure, n.Label, policy, root, err)
			}
			return s.Claimed, nil
		}
		mp := policies.Options{"rule": string(rule)}
		for _, c := range []struct {
			dst          *float64
			policy, root string
			o            policies.Options
		}{
			{&row.MPICHRoot0, "mpich", "0", mp}, {&row.MPICHRoot1, "mpich", "1", mp},
			{&row.LAMRoot0, "lam", "0", nil}, {&row.LAMRoot1, "lam", "1", nil},
		} {
			if *c.dst, err = run(c.policy, c.root, c.o); err != nil {
				return nil, err
			}
		}
		res, err := bc.Optimal(ctx, policies.Instance{
			Platform: &models.Platform{Tree: n.Tree},
			Problem:  &models.Problem{Broadcast: &models.Broadcast{Roots: []string{"0"}, Size: trees.DefaultMessageSize}},
		}, opt)
		if err != nil {
			return nil, fmt.Errorf("Fig. %d %s, optimal: %w", n.Figure, n.Label, err)
		}
		row.Optimal, row.Proven = res.Schedule.Claimed, res.Proven
		pt := paperTimes[n.Label]
		row.PaperMPICH0, row.PaperMPICH1, row.PaperO = pt[0], pt[1], pt[2]
		row.PaperLAM0, row.PaperLAM1, row.PaperLAMO = pt[3], pt[4], pt[5]
		rows = append(rows, row)
	}
	return rows, nil
}

// SearchTables are Tables 1–4, one per figure: a row per network and
// pruning with the nodes explored, the search time beside the paper's,
// whether the budget stopped it, and the best makespan found. name
// prefixes the tables' names ("search-full" gives "search-full-table1").
func SearchTables(name, title string, cells []SearchCell) []*reproduce.Table {
	var out []*reproduce.Table
	var t *reproduce.Table
	for _, c := range cells {
		if t == nil || !strings.HasSuffix(t.Name, fmt.Sprintf("-table%d", c.Network.Figure-10)) {
			t = &reproduce.Table{Name: fmt.Sprintf("%s-table%d", name, c.Network.Figure-10),
				Title: fmt.Sprintf("Table %d (Fig. %d), %s", c.Network.Figure-10, c.Network.Figure, title),
				Note:  "An empty paper's time: \"> 1 hour\" in the paper. Nodes explored do not depend on the machine; times do.",
				Columns: []reproduce.Column{{Name: "network"}, {Name: "CPUs"}, {Name: "SCut"}, {Name: "RCut"},
					{Name: "nodes explored"}, {Name: "search time", Unit: "s", Clock: true}, {Name: "stopped by the budget"},
					{Name: "paper's time", Unit: "s"}, {Name: "best makespan found", Unit: "ms"}, {Name: "optimum proven"}}}
			out = append(out, t)
		}
		r := c.Result
		t.Rows = append(t.Rows, []reproduce.Cell{reproduce.Text(c.Network.Label), reproduce.Int(c.Network.Participants()),
			onOff(c.Pruning.SCut), onOff(c.Pruning.RCut), reproduce.Int(r.Nodes), reproduce.Fixed(r.Elapsed.Seconds(), 4),
			reproduce.Bool(c.Budgeted), reproduce.Sig(c.Paper, 8), reproduce.Fixed(r.Schedule.Claimed*1e3, 4), reproduce.Bool(r.Proven)})
	}
	return out
}

func onOff(b bool) reproduce.Cell {
	if b {
		return reproduce.Text("on")
	}
	return reproduce.Text("off")
}

// TimeTable is Table 5 (mpi "mpich") or Table 6 (mpi "lam") at model
// level, in ms: the MPI library's broadcast from roots 0 and 1 and the
// optimum from root 0, beside the paper's measurements of the same.
func TimeTable(name, title, mpi string, rows []TimeRow) *reproduce.Table {
	ms := func(name string) reproduce.Column { return reproduce.Column{Name: name, Unit: "ms"} }
	t := &reproduce.Table{Name: name, Title: title,
		Note: "Model: the schedule's broadcast time on the reservation model; paper: the paper's measurement " +
			"(optimised: the optimal schedule run with MPI_Send/Recv).",
		Columns: []reproduce.Column{{Name: "Fig."}, {Name: "network"}, {Name: "CPUs"}, {Name: "SMPs"},
			ms("model, root 0"), ms("model, root 1"), ms("model, optimal"), {Name: "optimum proven"},
			ms("paper, root 0"), ms("paper, root 1"), ms("paper, optimised")}}
	for _, r := range rows {
		root0, root1, paper := r.MPICHRoot0, r.MPICHRoot1, [3]float64{r.PaperMPICH0, r.PaperMPICH1, r.PaperO}
		if mpi == "lam" {
			root0, root1, paper = r.LAMRoot0, r.LAMRoot1, [3]float64{r.PaperLAM0, r.PaperLAM1, r.PaperLAMO}
		}
		c := func(s float64) reproduce.Cell { return reproduce.Fixed(s*1e3, 2) }
		p := func(v float64) reproduce.Cell { return reproduce.Sig(v, 6) }
		t.Rows = append(t.Rows, []reproduce.Cell{reproduce.Int(r.Network.Figure), reproduce.Text(r.Network.Label),
			reproduce.Int(r.Network.Participants()), reproduce.Text(r.Network.SMPs),
			c(root0), c(root1), c(r.Optimal), reproduce.Bool(r.Proven), p(paper[0]), p(paper[1]), p(paper[2])})
	}
	return t
}

// CutsOnlyOptions are the settings that show what RCut and SCut do on
// their own in Tables 1–4: no lower bound, no tie order, no starting
// schedule (only a schedule already no better than the best is cut), and a
// budget of nodes (and of time, if not 0) per cell for the cells the paper
// did not finish in an hour.
func CutsOnlyOptions(nodes int64, budget time.Duration) bc.Options {
	return bc.Options{MaxNodes: nodes, MaxTime: budget}
}
