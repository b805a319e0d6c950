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
//   - the registers R of sequential weighted counters (Hölldobler, Manthey
//     and Steinke, 2012): R_i,j ⇐ the first i terms weigh at least j.
//
// Clauses: receipt (exactly one of the S_{u→v},hi per non-root v, the
// "at most" by a counter); holding S_p,t → A_u,t; capacity per channel ℓ
// and slot σ, Σ b_p Y_p,σ−ω ≤ cap_ℓ by a counter over the rates in units
// of the least rate (an error when a rate is not a multiple of it), left
// out where the rates that can meet there fit anyway. Y and R are only
// forced true, never false: a model may set one true with nothing behind
// it, which only weighs more against the capacity, so its schedule still
// keeps every capacity, and every schedule of the model gives a model
// with Y and R exact. (Clauses making them exact, and clauses keeping
// only left-justified schedules, made the proofs on random trees of 32
// participants slower, up to three times.)
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
		for _, pi := range f.m.into[v] {
			lits = append(lits, f.s(pi, f.m.pairs[pi].hi))
		}
		f.add(lits...)
		ones := make([]int, len(lits))
		for i := range ones {
			ones[i] = 1
		}
		f.counter(lits, ones, 1)
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
		lits, w := make([]int32, len(us)), make([]int, len(us))
		for i, x := range us {
			p := &m.pairs[x.p]
			lits[i], w[i] = f.y(active, x.p, th-p.offsets[x.i]), f.units(p.route.Bandwidth, math.Round)
		}
		f.counter(lits, w, f.units(m.cap[ch], math.Floor))
	})
	return nil
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

// counter adds Σ w_i·lit_i ≤ k as a sequential weighted counter.
func (f *CNF) counter(lits []int32, w []int, k int) {
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
	for i, x := range lits {
		if w[i] > k {
			f.add(-x)
			continue
		}
		f.add(-x, -at(prev, k+1-w[i])) // overflow
		if i == len(lits)-1 {
			break
		}
		cur := make([]int32, k+1)
		for j := 1; j <= k; j++ {
			cur[j] = f.newVar()
			f.add(-prev[j], cur[j])
			f.add(-x, -at(prev, j-w[i]), cur[j])
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
		num = strconv.AppendInt(num[:0], int64(l), 10)
		bw.Write(append(num, ' '))
	}
	return bw.Flush()
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
