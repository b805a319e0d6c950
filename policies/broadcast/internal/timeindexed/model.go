package timeindexed

import (
	"errors"
	"fmt"
	"math"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/policies"
	"github.com/netsched/netsched/replay"
)

// ErrHorizon is the error of New when the horizon is too short for some
// participant to be reached: no feasible schedule ends by then.
var ErrHorizon = errors.New("horizon too short")

// MaxK is the finest grid tried: the step is 1/k for some k ≤ MaxK.
const MaxK = 1000

// MaxBinaries caps the binaries of a model, to refuse an instance whose
// LP file would not fit in memory rather than run out of it.
const MaxBinaries = 2_000_000

// gridTol is the relative tolerance of "a multiple of the step".
const gridTol = 1e-9

// Model is the time-indexed MILP of a broadcast instance (see the package
// documentation).
type Model struct {
	tree   *models.Tree
	routes *replay.Routes
	size   float64 // D
	k      int     // the step is 1/k
	slots  int     // H
	parts  []int   // participants, node indices in node order
	root   []bool  // per node: holds the message at 0
	early  []int   // per node: e_u, the contention-free earliest arrival in slots
	pairs  []pair  // the transfers u→v with a start slot in the horizon
	into   [][]int // per node: the pairs that deliver to it
	from   [][]int // per node: the pairs it sends
	cap    []float64
}

// pair is one transfer u→v on the grid.
type pair struct {
	u, v    int
	route   replay.Route
	dur     int   // τ: slots of each reservation
	arrive  int   // c: arrival offset from the start, latency + τ
	offsets []int // ω_i: the reservation on channel i starts ω_i slots after the start
	lo, hi  int   // the start slots T_p = [lo, hi]
}

// New builds the model of a broadcast instance on a tree platform with a
// horizon (in time units: no schedule of the model ends after it). It
// refuses an instance that is invalid or not a broadcast on a tree, one
// with no grid step 1/k (k ≤ MaxK) dividing every latency and transfer
// time, a horizon too short for some participant to be reached, and a
// model of more than MaxBinaries binaries.
func New(in policies.Instance, horizon float64) (*Model, error) {
	if err := in.Validate(); err != nil {
		return nil, fmt.Errorf("time-indexed model: %w", err)
	}
	if in.Platform.Tree == nil || in.Problem.Broadcast == nil {
		return nil, errors.New("time-indexed model: needs a broadcast on a tree platform")
	}
	if !(horizon > 0) || math.IsInf(horizon, 0) {
		return nil, fmt.Errorf("time-indexed model: horizon must be positive and finite, got %g", horizon)
	}
	t, b := in.Platform.Tree, in.Problem.Broadcast
	m := &Model{tree: t, routes: replay.NewRoutes(t), size: b.Size, root: make([]bool, len(t.Nodes))}
	m.cap = m.routes.Capacities()
	for v, n := range t.Nodes {
		if !n.Relay {
			m.parts = append(m.parts, v)
		}
	}
	for _, r := range b.Roots {
		v, ok := t.NodeIndex(r)
		if !ok || t.Nodes[v].Relay {
			return nil, fmt.Errorf("time-indexed model: root %q is not a participant", r)
		}
		m.root[v] = true
	}
	k, err := m.step()
	if err != nil {
		return nil, fmt.Errorf("time-indexed model: %w", err)
	}
	m.k = k
	m.slots = int(math.Floor(horizon*float64(k) + gridTol*math.Max(1, horizon*float64(k))))
	if err := m.build(); err != nil {
		return nil, fmt.Errorf("time-indexed model: %w", err)
	}
	return m, nil
}

// step finds the least k ≤ MaxK such that every link latency and every
// route's D/b between participants is a multiple of 1/k.
func (m *Model) step() (int, error) {
	type value struct {
		what string
		v    float64
	}
	var values []value
	for i := range m.tree.Edges {
		for _, fwd := range []bool{true, false} {
			l := models.Link{Edge: i, Forward: fwd}
			if d := m.tree.Params(l).Latency; d != 0 {
				values = append(values, value{"latency of " + m.routes.LinkName(l) + " (edges[" + fmt.Sprint(i) + "])", d})
			}
		}
	}
	for _, u := range m.parts {
		for _, v := range m.parts {
			if u != v {
				rt := m.routes.Route(u, v)
				values = append(values, value{fmt.Sprintf("transfer time D/b of %s→%s", m.tree.Nodes[u].Name, m.tree.Nodes[v].Name), m.size / rt.Bandwidth})
			}
		}
	}
	onGrid := func(v float64, k int) bool {
		x := v * float64(k)
		return math.Abs(x-math.Round(x)) <= gridTol*math.Max(1, x)
	}
next:
	for k := 1; k <= MaxK; k++ {
		for _, v := range values {
			if !onGrid(v.v, k) {
				continue next
			}
		}
		return k, nil
	}
	for _, v := range values { // name the first value off every grid
		ok := false
		for k := 1; k <= MaxK && !ok; k++ {
			ok = onGrid(v.v, k)
		}
		if !ok {
			return 0, fmt.Errorf("no grid step 1/k with k ≤ %d divides the %s = %g", MaxK, v.what, v.v)
		}
	}
	return 0, fmt.Errorf("no grid step 1/k with k ≤ %d divides every latency and transfer time at once", MaxK)
}

// slotsOf converts a time that is on the grid into slots.
func (m *Model) slotsOf(t float64) int { return int(math.Round(t * float64(m.k))) }

// build computes the earliest arrivals and the transfers with a start in
// the horizon.
func (m *Model) build() error {
	n := len(m.tree.Nodes)
	all := make([][]pair, n) // every participant pair, for the earliest arrivals
	for _, u := range m.parts {
		all[u] = make([]pair, n)
		for _, v := range m.parts {
			if u == v {
				continue
			}
			rt := m.routes.Route(u, v)
			p := pair{u: u, v: v, route: rt, dur: m.slotsOf(m.size / rt.Bandwidth), offsets: make([]int, len(rt.Offsets))}
			for i, o := range rt.Offsets {
				p.offsets[i] = m.slotsOf(o)
			}
			p.arrive = m.slotsOf(rt.Latency) + p.dur
			all[u][v] = p
		}
	}
	// e_u: Dijkstra from the roots on the complete graph of participants.
	m.early = make([]int, n)
	done := make([]bool, n)
	for v := range m.early {
		m.early[v] = math.MaxInt
		if m.root[v] {
			m.early[v] = 0
		}
	}
	for range m.parts {
		u := -1
		for _, v := range m.parts {
			if !done[v] && m.early[v] != math.MaxInt && (u < 0 || m.early[v] < m.early[u]) {
				u = v
			}
		}
		if u < 0 {
			break
		}
		done[u] = true
		for _, v := range m.parts {
			if v != u && !done[v] && m.early[u]+all[u][v].arrive < m.early[v] {
				m.early[v] = m.early[u] + all[u][v].arrive
			}
		}
	}
	m.into, m.from = make([][]int, n), make([][]int, n)
	binaries := 0
	for _, u := range m.parts {
		for _, v := range m.parts {
			if u == v || m.root[v] {
				continue
			}
			p := all[u][v]
			p.lo, p.hi = m.early[u], m.slots-p.arrive
			if p.hi < p.lo {
				continue
			}
			binaries += p.hi - p.lo + 1
			if binaries > MaxBinaries {
				return fmt.Errorf("more than %d binaries (step 1/%d, %d slots): shorten the horizon", MaxBinaries, m.k, m.slots)
			}
			m.into[v] = append(m.into[v], len(m.pairs))
			m.from[u] = append(m.from[u], len(m.pairs))
			m.pairs = append(m.pairs, p)
		}
	}
	for _, v := range m.parts {
		if !m.root[v] && len(m.into[v]) == 0 {
			return fmt.Errorf("%w: participant %q cannot be reached by %g (earliest %g)",
				ErrHorizon, m.tree.Nodes[v].Name, m.Horizon(), float64(m.early[v])/float64(m.k))
		}
	}
	return nil
}

// Step is the grid step δ = 1/k.
func (m *Model) Step() float64 { return 1 / float64(m.k) }

// Slots is the horizon H in slots.
func (m *Model) Slots() int { return m.slots }

// Horizon is the horizon in time units, Hδ.
func (m *Model) Horizon() float64 { return float64(m.slots) / float64(m.k) }

// Binaries is the number of binaries x_p,t.
func (m *Model) Binaries() int {
	n := 0
	for _, p := range m.pairs {
		n += p.hi - p.lo + 1
	}
	return n
}

// Restrict keeps, of each transfer u→v (node indices), the starts in
// [lo, hi] (time units; infinite for no limit) when window says ok, and
// none when not: the model of a neighbourhood of a schedule, for a search
// that improves it. The earliest arrivals stay those of the whole model,
// still lower bounds. It returns ErrHorizon when some participant is left
// with no transfer into it.
func (m *Model) Restrict(window func(u, v int) (lo, hi float64, ok bool)) error {
	pairs := m.pairs[:0:0]
	for i := range m.into {
		m.into[i], m.from[i] = nil, nil
	}
	for _, p := range m.pairs {
		lo, hi, ok := window(p.u, p.v)
		if !ok {
			continue
		}
		p.lo = max(p.lo, int(math.Ceil(max(lo, -1)*float64(m.k)-gridTol)))
		p.hi = min(p.hi, int(math.Floor(min(hi, m.Horizon())*float64(m.k)+gridTol)))
		if p.lo <= p.hi {
			m.into[p.v] = append(m.into[p.v], len(pairs))
			m.from[p.u] = append(m.from[p.u], len(pairs))
			pairs = append(pairs, p)
		}
	}
	m.pairs = pairs
	for _, v := range m.parts {
		if !m.root[v] && len(m.into[v]) == 0 {
			return fmt.Errorf("%w: no transfer left into participant %q", ErrHorizon, m.tree.Nodes[v].Name)
		}
	}
	return nil
}
