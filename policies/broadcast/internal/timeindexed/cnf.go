package timeindexed

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/netsched/netsched/sim"
)

// CNF is the decision "is there a schedule of the model", that is a
// feasible grid schedule whose makespan is at most the horizon, as a
// propositional formula in conjunctive normal form (see Model.CNF).
type CNF struct {
	m       *Model
	vars    int32
	clauses []int32 // literals, each clause ended by 0
	count   int
	started [][]int32 // per pair, per start slot t − lo: "p has started by t"
	holds   [][]int32 // per node: A_u,θ for θ − e_u, nil for roots
	least   float64   // the least rate: the unit of the capacity counters
	flip    []bool    // per variable: written negated (see Prefer); nil when none is
}

// The constant literals: a clause holding tru is dropped, fls is left out
// of a clause.
const (
	tru int32 = math.MaxInt32
	fls int32 = -tru
)

// CNF encodes the model as a formula that is satisfiable exactly when the
// model has a 0/1 solution, that is a feasible grid schedule whose makespan
// is at most the horizon; every model of the formula is one (read by
// Schedule). Variables:
//
//   - S_p,t: p has started by slot t (t ∈ [lo_p, hi_p]; S_p,t → S_p,t+1;
//     read as false before lo_p and as S_p,hi after hi_p), so that p
//     starts at the first t with S_p,t, if any;
//   - A_u,θ ↔ ∨_w S_{w→u},θ−c: u holds the message by slot θ (non-root u,
//     θ ∈ [e_u, H]);
//   - Y_p,θ ⇐ S_p,θ ∧ ¬S_p,θ−τ: p started within the τ slots up to θ, so
//     that it reserves channel i of its route on slot θ + ω_i;
//   - Z_v,ℓ,σ,b ⇐ Y_p,σ−ω for every transfer p into v of rate b whose
//     channel ℓ of its route can be reserved on slot σ, where there are
//     several (else the one Y serves);
//   - the registers R of sequential weighted counters (Hölldobler, Manthey
//     and Steinke, 2012): R_i,j ⇐ the first i groups weigh at least j.
//
// Clauses: receipt (exactly one of the S_{u→v},hi per non-root v, the
// "at most" by a counter); holding S_p,t → A_u,t; capacity per channel ℓ
// and slot σ, Σ b_p Y_p,σ−ω ≤ cap_ℓ in units of the least rate (an error
// when a rate is not a multiple of it), left out where the rates that can
// meet there fit anyway. Its counter adds, per receiver v, the largest b
// with Z_v,ℓ,σ,b true: v receives one transfer, so in a schedule at most
// one of its Z is true, and the sum is the rate reserved. (A counter over
// the transfers, with registers per transfer, made the formula of
// random-32/6 at 3.9 2.6 times larger, 533,687 variables and 1,245,671
// clauses against 205,258 and 576,085, and CaDiCaL took 66 s on it
// against 13 s.) Y, Z and R are only forced true, never false: a model
// may set one true with nothing behind it, which only weighs more against
// the capacity, so its schedule still keeps every capacity, and every
// schedule of the model gives a model with Y, Z and R exact. (Clauses
// making them exact, and clauses keeping only left-justified schedules,
// made the proofs on random trees of 32 participants slower, up to three
// times.)
func (m *Model) CNF() (*CNF, error) {
	f := &CNF{m: m}
	f.started = make([][]int32, len(m.pairs))
	for pi := range m.pairs {
		p := &m.pairs[pi]
		f.started[pi] = make([]int32, p.hi-p.lo+1)
		for t := range f.started[pi] {
			f.started[pi][t] = f.newVar()
			if t > 0 {
				f.add(-f.started[pi][t-1], f.started[pi][t])
			}
		}
	}
	f.receipt()
	f.holding()
	if err := f.capacity(); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *CNF) newVar() int32 { f.vars++; return f.vars }

// add adds a clause: none if it holds tru, without its fls literals.
func (f *CNF) add(lits ...int32) {
	n := len(f.clauses)
	for _, l := range lits {
		switch l {
		case tru:
			f.clauses = f.clauses[:n]
			return
		case fls:
			continue
		}
		f.clauses = append(f.clauses, l)
	}
	f.clauses = append(f.clauses, 0)
	f.count++
}

// s is S_p,t as a literal (fls before lo, S_p,hi after hi).
func (f *CNF) s(pi, t int) int32 {
	p := &f.m.pairs[pi]
	switch {
	case t < p.lo:
		return fls
	case t > p.hi:
		t = p.hi
	}
	return f.started[pi][t-p.lo]
}

// a is A_u,θ as a literal (tru at a root, fls before e_u, A_u,H after H).
func (f *CNF) a(u, th int) int32 {
	switch {
	case f.m.root[u]:
		return tru
	case th < f.m.early[u]:
		return fls
	}
	return f.holds[u][min(th, f.m.slots)-f.m.early[u]]
}

// receipt: every non-root participant receives exactly once.
func (f *CNF) receipt() {
	for _, v := range f.m.parts {
		if f.m.root[v] {
			continue
		}
		var lits []int32
		var groups [][]term
		for _, pi := range f.m.into[v] {
			l := f.s(pi, f.m.pairs[pi].hi)
			lits = append(lits, l)
			groups = append(groups, []term{{l, 1}})
		}
		f.add(lits...)
		f.counter(groups, 1)
	}
}

// holding: a transfer of u starts only once u holds the message, with
// A_u,θ defined by the transfers into u.
func (f *CNF) holding() {
	m := f.m
	f.holds = make([][]int32, len(m.tree.Nodes))
	for _, u := range m.parts {
		if m.root[u] {
			continue
		}
		lo := m.early[u]
		a := make([]int32, m.slots-lo+1)
		for th := range a {
			a[th] = f.newVar()
			if th > 0 {
				f.add(-a[th-1], a[th])
			}
			cl := []int32{-a[th]}
			for _, pi := range m.into[u] {
				l := f.s(pi, lo+th-m.pairs[pi].arrive)
				cl = append(cl, l)
				f.add(-l, a[th])
			}
			f.add(cl...)
		}
		f.holds[u] = a
		for _, pi := range m.from[u] {
			p := &m.pairs[pi]
			for t := p.lo; t <= p.hi; t++ {
				f.add(-f.s(pi, t), f.a(u, t))
			}
		}
	}
}

// capacity: on every channel and slot (Model.capacityRows), the rates of
// the active transfers sum to at most the capacity.
func (f *CNF) capacity() error {
	m := f.m
	f.least = math.Inf(1)
	for _, p := range m.pairs {
		f.least = math.Min(f.least, p.route.Bandwidth)
	}
	for _, p := range m.pairs {
		if n := float64(f.units(p.route.Bandwidth, math.Round)); math.Abs(p.route.Bandwidth/f.least-n) > gridTol*n {
			return fmt.Errorf("CNF: rate %g is not a multiple of the least rate %g", p.route.Bandwidth, f.least)
		}
	}
	active := make([]map[int]int32, len(m.pairs)) // per pair: own slot → Y
	m.capacityRows(func(ch int, th int, us []use) {
		f.counter(f.receivers(active, th, us), f.units(m.cap[ch], math.Floor))
	})
	return nil
}

// term is a literal of a counter, weighing w.
type term struct {
	lit int32
	w   int
}

// receivers groups the reservations of a capacity row on slot θ by
// receiver, each group's terms mutually exclusive (a receiver gets one
// transfer), with one literal per receiver and rate: the Y of the only
// transfer, or a Z ⇐ Y for each of several.
func (f *CNF) receivers(active []map[int]int32, th int, us []use) [][]term {
	type key struct{ v, w int }
	var keys []key
	lits := map[key][]int32{}
	group := map[int]int{}
	for _, x := range us {
		p := &f.m.pairs[x.p]
		k := key{p.v, f.units(p.route.Bandwidth, math.Round)}
		if lits[k] == nil {
			keys = append(keys, k)
		}
		lits[k] = append(lits[k], f.y(active, x.p, th-p.offsets[x.i]))
	}
	var groups [][]term
	for _, k := range keys {
		z := lits[k][0]
		if len(lits[k]) > 1 {
			z = f.newVar()
			for _, y := range lits[k] {
				f.add(-y, z)
			}
		}
		g, ok := group[k.v]
		if !ok {
			g = len(groups)
			group[k.v] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], term{z, k.w})
	}
	return groups
}

// units is x in units of the least rate, rounded by round.
func (f *CNF) units(x float64, round func(float64) float64) int {
	return int(round(x/f.least + gridTol))
}

// y is Y_p,θ, made on first use.
func (f *CNF) y(active []map[int]int32, pi, th int) int32 {
	if active[pi] == nil {
		active[pi] = map[int]int32{}
	}
	if l, ok := active[pi][th]; ok {
		return l
	}
	l := f.newVar()
	active[pi][th] = l
	s, prev := f.s(pi, th), f.s(pi, th-f.m.pairs[pi].dur)
	f.add(-s, prev, l)
	return l
}

// counter adds Σ_g max {w : (l, w) ∈ g, l true} ≤ k over the groups g,
// as a sequential weighted counter (registers R_i,j ⇐ the first i groups
// weigh at least j); when the terms of each group are mutually exclusive
// in every schedule, this is Σ w·l ≤ k, with k registers per group
// instead of per term.
func (f *CNF) counter(groups [][]term, k int) {
	prev := make([]int32, k+1) // R_{i−1},j; R_0,j is fls
	for j := range prev {
		prev[j] = fls
	}
	at := func(r []int32, j int) int32 { // R_·,j with R_·,≤0 tru
		if j <= 0 {
			return tru
		}
		return r[j]
	}
	for i, g := range groups {
		last := i == len(groups)-1
		cur := make([]int32, k+1)
		for j := 1; j <= k && !last; j++ {
			cur[j] = f.newVar()
			f.add(-prev[j], cur[j])
		}
		for _, x := range g {
			if x.w > k {
				f.add(-x.lit)
				continue
			}
			f.add(-x.lit, -at(prev, k+1-x.w)) // overflow
			for j := 1; j <= k && !last; j++ {
				f.add(-x.lit, -at(prev, j-x.w), cur[j])
			}
		}
		prev = cur
	}
}

// Write writes the formula in DIMACS format.
func (f *CNF) Write(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	fmt.Fprintf(bw, "p cnf %d %d\n", f.vars, f.count)
	var num []byte
	for _, l := range f.clauses {
		if l == 0 {
			bw.WriteString("0\n")
			continue
		}
		if f.flip != nil && f.flip[abs(l)] {
			l = -l
		}
		num = strconv.AppendInt(num[:0], int64(l), 10)
		bw.Write(append(num, ' '))
	}
	return bw.Flush()
}

// Prefer makes the solver try the schedule s first. CaDiCaL first gives
// every variable it decides the value true (its initial phase, to which it
// also goes back when it rephases); Prefer has Write write each variable
// that s sets (the S and A of its receivers) negated where s sets it
// false, so that the solver's first try is s, and Solve reads its answer
// back through the renaming: the formula and its models are the same.
// Transfers of s that are not of the model (off its grid, outside its
// horizon, not of the whole message) set nothing. (On random-32/6 at 3.9,
// with the schedule of 3.95 the search had found, CaDiCaL found a
// schedule in 1.8 s against 11.7 s without.)
func (f *CNF) Prefer(s *sim.Schedule) {
	m := f.m
	f.flip = make([]bool, f.vars+1)
	prefer := func(l int32, value bool) { f.flip[abs(l)] = !value }
	for _, a := range s.Actions {
		if a.Kind != sim.Transfer || a.Start == nil || a.Amount != m.size || a.To < 0 || a.To >= len(m.into) || m.root[a.To] {
			continue
		}
		t, ok := m.slot(*a.Start)
		if !ok {
			continue
		}
		for _, pi := range m.into[a.To] {
			p := &m.pairs[pi]
			for i, l := range f.started[pi] {
				prefer(l, p.u == a.From && p.lo+i >= t)
			}
			if p.u == a.From {
				for th, l := range f.holds[a.To] {
					prefer(l, m.early[a.To]+th >= t+p.arrive)
				}
			}
		}
	}
}

// abs is a literal's variable.
func abs(l int32) int32 {
	if l < 0 {
		return -l
	}
	return l
}

// Size is the formula's variables and clauses.
func (f *CNF) Size() (vars, clauses int) { return int(f.vars), f.count }

// starts reads a satisfying assignment as the model's starts: per pair
// delivering, its start slot.
func (f *CNF) starts(a *Answer) map[int]int {
	x := map[int]int{}
	for pi, ss := range f.started {
		for t, l := range ss {
			if a.values[l] {
				x[pi] = f.m.pairs[pi].lo + t
				break
			}
		}
	}
	return x
}

// Schedule turns a satisfiable answer into a schedule (see
// Model.Schedule).
func (f *CNF) Schedule(a *Answer, policy string) (*sim.Schedule, error) {
	if !a.Satisfiable() {
		return nil, fmt.Errorf("the answer (%s) holds no schedule", a.Status)
	}
	sol := &Solution{Status: a.Status, Feasible: true, starts: map[int]int{}, slot: map[int]int{}}
	for pi, t := range f.starts(a) {
		v := f.m.pairs[pi].v
		sol.starts[v], sol.slot[v] = pi, t
	}
	return f.m.Schedule(sol, policy)
}
