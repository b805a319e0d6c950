package timeindexed

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/netsched/netsched/sim"
)

// Check evaluates every row of the MILP, as WriteLP writes it, at the
// point a schedule defines (x from its starts, s and h their partial sums,
// C its last arrival in slots), and returns the rows it violates, or why
// the schedule is not a point of the model (a transfer off the grid or
// outside the horizon). An empty result means the schedule is a solution:
// this checks, without a solver, that the schedules of the search are in
// the model, and it reads the file as a solver would.
func (m *Model) Check(s *sim.Schedule) []string {
	x, err := m.startOf(s)
	if err != nil {
		return []string{err.Error()}
	}
	arrival := map[int]int{} // node → arrival slot
	c := m.latest()
	for pi, t := range x {
		p := &m.pairs[pi]
		arrival[p.v] = t + p.arrive
		c = max(c, t+p.arrive)
	}
	value := func(name string) (float64, error) {
		if name == "C" {
			return float64(c), nil
		}
		f := strings.Split(name, "_")
		n := make([]int, len(f)-1)
		for i := range n {
			v, err := strconv.Atoi(f[i+1])
			if err != nil {
				return 0, fmt.Errorf("variable %q", name)
			}
			n[i] = v
		}
		at := func(slot, limit int) float64 { // 1 if slot ≤ limit
			if slot <= limit {
				return 1
			}
			return 0
		}
		switch {
		case f[0] == "h" && len(n) == 2:
			a, ok := arrival[n[0]]
			if !ok {
				return 0, nil
			}
			return at(a, n[1]), nil
		case (f[0] == "x" || f[0] == "s") && len(n) == 3:
			for pi, t := range x {
				if p := &m.pairs[pi]; p.u == n[0] && p.v == n[1] {
					if f[0] == "x" {
						return at(t, n[2]) * at(n[2], t), nil
					}
					return at(t, n[2]), nil
				}
			}
			return 0, nil
		}
		return 0, fmt.Errorf("variable %q", name)
	}
	var buf bytes.Buffer
	if err := m.WriteLP(&buf, false); err != nil {
		return []string{err.Error()}
	}
	var bad []string
	rows := false
	sc := bufio.NewScanner(&buf)
	var row []string // tokens of the row being read
	flush := func() {
		if len(row) == 0 {
			return
		}
		if msg := evalRow(row, value); msg != "" {
			bad = append(bad, msg)
		}
		row = row[:0]
	}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "Subject To":
			rows = true
		case line == "Bounds":
			flush()
			rows = false
		case rows && strings.HasPrefix(line, "   "): // a continuation
			row = append(row, strings.Fields(line)...)
		case rows:
			flush()
			row = append(row, strings.Fields(line)...)
		}
	}
	return bad
}

// evalRow evaluates one row "name: [±] [coef] var ... sense rhs" and
// returns a message if it is violated (or malformed).
func evalRow(tok []string, value func(string) (float64, error)) string {
	name := strings.TrimSuffix(tok[0], ":")
	if len(tok) < 4 {
		return name + ": malformed row"
	}
	sense, rhsText := tok[len(tok)-2], tok[len(tok)-1]
	rhs, err := strconv.ParseFloat(rhsText, 64)
	if err != nil {
		return name + ": right-hand side " + rhsText
	}
	lhs, sign, coef := 0.0, 1.0, 1.0
	for _, t := range tok[1 : len(tok)-2] {
		switch {
		case t == "+":
			sign, coef = 1, 1
		case t == "-":
			sign, coef = -1, 1
		default:
			if c, err := strconv.ParseFloat(t, 64); err == nil {
				coef = c
				continue
			}
			v, err := value(t)
			if err != nil {
				return name + ": " + err.Error()
			}
			lhs += sign * coef * v
		}
	}
	tol := 1e-9 * math.Max(1, math.Abs(rhs))
	ok := false
	switch sense {
	case "<=":
		ok = lhs <= rhs+tol
	case ">=":
		ok = lhs >= rhs-tol
	case "=":
		ok = math.Abs(lhs-rhs) <= tol
	default:
		return name + ": sense " + sense
	}
	if !ok {
		return fmt.Sprintf("%s: %g %s %g does not hold", name, lhs, sense, rhs)
	}
	return ""
}
