package check

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// ResultsLabel is the label of a divisible-load transfer that carries
// results back (paper 000 §4.1); every other transfer carries load.
const ResultsLabel = "results"

// loadMemory is what the divisible-load check keeps from one check to the
// next.
type loadMemory struct {
	owns       []float64 // by processor: the load it starts with
	held       []float64 // by processor: load held, then results held
	flagged    []bool    // by processor: a not-held violation is reported
	comp       []float64 // by processor: load computed
	sent, recv []float64 // by processor: load sent and received
	events     []holding
	shares     []share
	resultSize float64 // of the problem being checked
}

// holding is a change of what a processor holds: load (or results) it
// receives at the end of a transfer, or sends or computes at the start of
// an action; or results its computation yields at its end.
type holding struct {
	t      float64 // when it counts: a gain a tolerance early
	node   int32
	action int32
	delta  float64 // > 0 a gain
}

// share is an amount booked to a key: a processor and round for the load
// it uses, or a pair of processors and a round for results owed.
type share struct {
	a, b, round int32
	delta       float64
}

// check checks a divisible-load schedule: conservation per processor and
// round, that nothing is sent or computed before it is held, the rounds,
// and the results' way back.
func (m *loadMemory) check(in *input, d *models.Divisible) error {
	n := in.p.NumNodes()
	if err := m.prepare(in.p, n); err != nil {
		return err
	}
	total := 0.0
	for _, x := range m.owns {
		total += x
	}
	m.rounds(in, d)
	m.conserve(in, total)
	m.holdings(in, false, total)
	if m.resultSize = d.ResultSize; d.CollectResults && d.ResultSize > 0 {
		m.results(in, d.ResultSize, total)
		m.holdings(in, true, total)
	}
	return nil
}

// prepare sizes the memory for n processors and reads what each owns.
func (m *loadMemory) prepare(p *models.Platform, n int) error {
	m.owns = resize(m.owns, n, 0)
	switch {
	case p.Crossbar != nil:
		for i := range p.Crossbar.Processors {
			m.owns[i] = p.Crossbar.Processors[i].Load
		}
	case p.MultiCluster != nil:
		i := 0
		for _, c := range p.MultiCluster.Clusters {
			for _, pr := range c.Processors {
				m.owns[i] = pr.Load
				i++
			}
		}
	default:
		return fmt.Errorf("check: a divisible load runs on a crossbar or multicluster platform, not %q", p.Kind())
	}
	m.comp = resize(m.comp, n, 0)
	m.sent, m.recv = resize(m.sent, n, 0), resize(m.recv, n, 0)
	return nil
}

// carriesLoad reports whether action a moves or computes load.
func carriesLoad(a *sim.Action) bool {
	return a.Kind == sim.Compute || a.Label != ResultsLabel
}

// rounds reports the actions in a round the problem does not have.
func (m *loadMemory) rounds(in *input, d *models.Divisible) {
	if d.Rounds == 0 {
		return // auto: the policy chooses
	}
	for j := range in.s.Actions {
		if r := in.s.Actions[j].Round; r < 0 || r > int(d.Rounds) {
			in.violate(BadRound, j, fmt.Sprintf("round %d", r), in.starts[j],
				"is in round %d, but the problem has rounds 1 to %d", r, d.Rounds)
		}
	}
}

// conserve checks that each processor computes what it owns minus what it
// sends plus what it receives, and, in each round, computes or forwards
// at least what it receives in that round: received load is used in its
// round, and the processor's own load makes up the rest.
func (m *loadMemory) conserve(in *input, total float64) {
	m.shares = m.shares[:0]
	for j := range in.s.Actions {
		a := &in.s.Actions[j]
		if !carriesLoad(a) {
			continue
		}
		r := int32(a.Round)
		if a.Kind == sim.Compute {
			m.comp[a.Node] += a.Amount
			m.shares = append(m.shares, share{a: int32(a.Node), round: r, delta: a.Amount})
			continue
		}
		m.sent[a.From] += a.Amount
		m.recv[a.To] += a.Amount
		m.shares = append(m.shares, share{a: int32(a.From), round: r, delta: a.Amount},
			share{a: int32(a.To), round: r, delta: -a.Amount})
	}
	for i, own := range m.owns {
		if used := m.comp[i] + m.sent[i] - m.recv[i]; !same(used, own, total) {
			in.violate(LoadNotConserved, NoAction, in.p.NodeName(i), in.atEnd(),
				"%s computes %g units, sends %g and receives %g, which uses %g of its own load, but it owns %g",
				in.p.NodeName(i), m.comp[i], m.sent[i], m.recv[i], used, own)
		}
	}
	sumShares(m.shares, func(s share) {
		if s.delta < -amountTol*math.Max(1, total) {
			in.violate(LoadNotConserved, NoAction, in.p.NodeName(int(s.a)), in.atEnd(),
				"in round %d %s receives %g units more than it computes and sends: received load is used in its round",
				s.round, in.p.NodeName(int(s.a)), -s.delta)
		}
	})
}

// sumShares sorts shares by key and calls f with each key's total.
func sumShares(shares []share, f func(share)) {
	slices.SortFunc(shares, func(x, y share) int {
		return cmp.Or(cmp.Compare(x.a, y.a), cmp.Compare(x.b, y.b), cmp.Compare(x.round, y.round))
	})
	for k := 0; k < len(shares); {
		sum := shares[k]
		for k++; k < len(shares) && shares[k].a == sum.a && shares[k].b == sum.b && shares[k].round == sum.round; k++ {
			sum.delta += shares[k].delta
		}
		f(sum)
	}
}

// results checks that the results of every unit sent from one processor
// to another in a round go back from the second to the first, size units
// of result per unit of load, and that no other results move.
func (m *loadMemory) results(in *input, size, total float64) {
	m.shares = m.shares[:0]
	for j := range in.s.Actions {
		a := &in.s.Actions[j]
		switch {
		case a.Kind != sim.Transfer:
		case a.Label == ResultsLabel: // owed by To, to From
			m.shares = append(m.shares, share{a: int32(a.To), b: int32(a.From), round: int32(a.Round), delta: -a.Amount})
		default:
			m.shares = append(m.shares, share{a: int32(a.From), b: int32(a.To), round: int32(a.Round), delta: size * a.Amount})
		}
	}
	sumShares(m.shares, func(s share) {
		if !same(s.delta, 0, size*total) {
			owner, worker := in.p.NodeName(int(s.a)), in.p.NodeName(int(s.b))
			in.violate(ResultsMissing, NoAction, worker+"→"+owner, in.atEnd(),
				"the results %s sends back to %s in round %d are %g units short of %g per unit of the load it received",
				worker, owner, s.round, s.delta, size)
		}
	})
}

// holdings checks that no processor sends or computes load it does not
// hold yet, or, with results, sends results it does not hold yet: a
// processor holds what it owns from the start, what it receives from the
// end of the transfer, and the results of a computation from its end.
func (m *loadMemory) holdings(in *input, results bool, total float64) {
	m.events = m.events[:0]
	for j := range in.s.Actions {
		m.book(in, j, results)
	}
	slices.SortFunc(m.events, func(x, y holding) int {
		return cmp.Or(cmp.Compare(x.t, y.t), -cmp.Compare(x.delta, y.delta), cmp.Compare(x.action, y.action))
	})
	m.held = resize(m.held, len(m.owns), 0)
	m.flagged = resize(m.flagged, len(m.owns), false)
	if !results {
		copy(m.held, m.owns)
	}
	what := "load"
	if results {
		what = "results"
	}
	for _, e := range m.events {
		m.held[e.node] += e.delta
		if e.delta < 0 && m.held[e.node] < -amountTol*math.Max(1, total) && !m.flagged[e.node] {
			m.flagged[e.node] = true
			j := int(e.action)
			in.violate(NotHeld, j, in.p.NodeName(int(e.node)), in.starts[j],
				"%s %s %g units of %s at t=%g, %g more than it holds then (what it receives counts from the end of the transfer)",
				in.p.NodeName(int(e.node)), verb(&in.s.Actions[j]), -e.delta, what, in.starts[j], -m.held[e.node])
		}
	}
}

// book adds the holding changes of action j: of load, or of results.
func (m *loadMemory) book(in *input, j int, results bool) {
	a := &in.s.Actions[j]
	start, end := in.starts[j], in.ends[j]
	gain := func(node int, amount float64) {
		if !math.IsInf(end, 1) {
			t := end - sim.Tolerance*math.Max(1, end)
			m.events = append(m.events, holding{t: t, node: int32(node), action: int32(j), delta: amount})
		}
	}
	spend := func(node int, amount float64) {
		if !math.IsInf(start, 1) {
			m.events = append(m.events, holding{t: start, node: int32(node), action: int32(j), delta: -amount})
		}
	}
	switch {
	case a.Kind == sim.Compute && results:
		gain(a.Node, a.Amount*m.resultSize)
	case a.Kind == sim.Compute:
		spend(a.Node, a.Amount)
	case carriesLoad(a) != results:
		spend(a.From, a.Amount)
		gain(a.To, a.Amount)
	}
}

// verb says what action a does with what it holds.
func verb(a *sim.Action) string {
	if a.Kind == sim.Compute {
		return "computes"
	}
	return "sends"
}
