package replay

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// checkSchedule rejects a schedule that cannot be replayed at all, and
// counts its compute actions. Errors are *models.FieldError with paths
// "actions[i].field".
func checkSchedule(m Platform, s *sim.Schedule, mode sim.Mode) (computes int, err error) {
	backward := true // every action follows only earlier ones
	for i := range s.Actions {
		a := &s.Actions[i]
		switch a.Kind {
		case sim.Compute:
			computes++
		case sim.Transfer:
		default:
			return 0, actionErr(i, "kind", "must be %q or %q, got %q", sim.Compute, sim.Transfer, a.Kind)
		}
		if err := checkAction(m, s, i, mode); err != nil {
			return 0, err
		}
		for _, p := range a.After {
			backward = backward && p < i
		}
	}
	if backward {
		return computes, nil // the list order is a topological order
	}
	return computes, checkAcyclic(s)
}

// checkAction checks action i, whose kind is known.
func checkAction(m Platform, s *sim.Schedule, i int, mode sim.Mode) error {
	a := &s.Actions[i]
	if !finite(a.Amount) {
		return actionErr(i, "amount", "must be a finite number >= 0, got %v", a.Amount)
	}
	if !finite(a.Offset) {
		return actionErr(i, "offset", "must be a finite number >= 0 (the first unit of the message the transfer carries), got %v", a.Offset)
	}
	if err := m.CheckAction(i, a); err != nil {
		return err
	}
	switch {
	case a.Start == nil && mode == sim.Timed:
		return actionErr(i, "start", "timed replay needs a planned start for every action")
	case a.Start != nil && !finite(*a.Start):
		return actionErr(i, "start", "must be a finite time >= 0, got %v", *a.Start)
	case a.End != nil && !finite(*a.End):
		return actionErr(i, "end", "must be a finite time >= 0, got %v", *a.End)
	}
	for k, p := range a.After {
		switch {
		case p < 0 || p >= len(s.Actions):
			return actionErr(i, fmt.Sprintf("after[%d]", k), "action %d does not exist (schedule has %d actions)", p, len(s.Actions))
		case p == i:
			return actionErr(i, fmt.Sprintf("after[%d]", k), "an action cannot follow itself")
		}
	}
	return nil
}

// finite reports whether x is a finite number >= 0.
func finite(x float64) bool { return x >= 0 && x <= math.MaxFloat64 }

// checkAcyclic rejects After lists that form a cycle, naming one.
func checkAcyclic(s *sim.Schedule) error {
	n := len(s.Actions)
	indeg := make([]int, n)
	succs := make([][]int, n)
	for j, a := range s.Actions {
		for _, i := range a.After {
			succs[i] = append(succs[i], j)
			indeg[j]++
		}
	}
	queue := make([]int, 0, n)
	for j, d := range indeg {
		if d == 0 {
			queue = append(queue, j)
		}
	}
	for k := 0; k < len(queue); k++ {
		for _, j := range succs[queue[k]] {
			if indeg[j]--; indeg[j] == 0 {
				queue = append(queue, j)
			}
		}
	}
	if len(queue) == n {
		return nil
	}
	// Every action left has a predecessor left: walk back until one repeats.
	j := slices.IndexFunc(indeg, func(d int) bool { return d > 0 })
	var walk []int
	for !slices.Contains(walk, j) {
		walk = append(walk, j)
		j = s.Actions[j].After[slices.IndexFunc(s.Actions[j].After, func(i int) bool { return indeg[i] > 0 })]
	}
	cycle := walk[slices.Index(walk, j):]
	names := make([]string, 0, len(cycle)+1)
	for _, c := range cycle {
		names = append(names, fmt.Sprint(c))
	}
	names = append(names, fmt.Sprint(j))
	return actionErr(cycle[0], "after", "the After lists form a cycle: %s (each follows the next)", strings.Join(names, " → "))
}

func actionErr(i int, field, format string, args ...any) error {
	return &models.FieldError{Path: fmt.Sprintf("actions[%d].%s", i, field), Msg: fmt.Sprintf(format, args...)}
}

// checkNode checks that node is one of n nodes; field names it.
func checkNode(i int, field string, node, n int) error {
	if node < 0 || node >= n {
		return actionErr(i, field, "node %d does not exist (platform has %d nodes)", node, n)
	}
	return nil
}

// checkOnNodes checks an action on a platform of n nodes where every node
// computes and any two exchange transfers: its node, or its two ends.
func checkOnNodes(i int, a *sim.Action, n int) error {
	if a.Kind == sim.Compute {
		return checkNode(i, "node", a.Node, n)
	}
	return checkTransferEnds(i, a, n)
}

// checkTransferEnds checks a transfer's From and To on a platform of n
// nodes.
func checkTransferEnds(i int, a *sim.Action, n int) error {
	if err := checkNode(i, "from", a.From, n); err != nil {
		return err
	}
	if err := checkNode(i, "to", a.To, n); err != nil {
		return err
	}
	if a.From == a.To {
		return actionErr(i, "to", "a transfer from node %d to itself", a.To)
	}
	return nil
}
