package multicluster

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	"github.com/netsched/netsched/policies/mmdl"
)

// Transfer is one message of the round laid out by RoundLayout: Amount
// units from processor From to processor To, inside a cluster or across
// (Inter), during [Start, End] of the round [0, T] (R = 1, α = 0).
type Transfer struct {
	From, To   int
	Amount     float64
	Inter      bool
	Start, End float64
}

// RoundLayout lays out the transfers of round r in [0, r.T] (§4), so that
// no port or uplink carries two at once and every port's time is the
// round's y_i's:
//
//   - between clusters (§4.1), clusters are matched by paper 000's interval
//     intersection (mmdl.IntervalMatching on the Y_j^(X)) and scheduled by its
//     reverse ordering (mmdl.ScheduleMessages, the uplinks as the ports);
//     each cluster's uplink time, in time order, is then cut among its
//     processors that send (or receive) across clusters in index order, as
//     much as each of them sends (receives), so every processor's
//     inter-cluster transfers are consecutive on its uplink;
//   - inside each cluster (§4.2), by intraSchedule: the side whose port
//     also carries inter-cluster transfers (the senders of a master
//     cluster, the receivers of a worker cluster) first, around them.
//
// The transfers come out sorted by start. Balanced lists the clusters
// whose tight side needed placeTightBalanced (see intraSchedule).
func RoundLayout(m *Model, r *Round) (trs []Transfer, balanced []int, err error) {
	inter, err := interTransfers(m, r)
	if err != nil {
		return nil, nil, err
	}
	trs = inter
	for j := range m.Clusters {
		intra, bal, err := intraTransfers(m, r, j, inter)
		if err != nil {
			return nil, nil, fmt.Errorf("cluster %s: %w", clusterLabel(m, j), err)
		}
		if bal {
			balanced = append(balanced, j)
		}
		trs = append(trs, intra...)
	}
	slices.SortStableFunc(trs, func(a, b Transfer) int { return cmp.Compare(a.Start, b.Start) })
	return trs, balanced, nil
}

// interTransfers lays out the transfers between clusters (§4.1).
func interTransfers(m *Model, r *Round) ([]Transfer, error) {
	msgs := mmdl.IntervalMatching(r.ClusterInter)
	comms := make([]mmdl.Comm, len(msgs))
	for k, msg := range msgs {
		comms[k] = mmdl.Comm{From: msg.Master, To: msg.Worker, Dur: msg.Amount * m.Beta}
	}
	start, _, err := mmdl.ScheduleMessages(comms, len(m.Clusters), mmdl.Reverse)
	if err != nil {
		return nil, fmt.Errorf("inter-cluster schedule: %w", err)
	}
	// Each cluster's uplink in time order: outgoing messages in slice
	// order, incoming ones in reverse (the reverse ordering of §3.4).
	outPos, inPos := make([]float64, len(msgs)), make([]float64, len(msgs))
	upOut, upIn := make([]float64, len(m.Clusters)), make([]float64, len(m.Clusters))
	for k, msg := range msgs {
		outPos[k] = upOut[msg.Master]
		upOut[msg.Master] += msg.Amount
	}
	for k := len(msgs) - 1; k >= 0; k-- {
		inPos[k] = upIn[msgs[k].Worker]
		upIn[msgs[k].Worker] += msgs[k].Amount
	}
	senders, receivers := make([]axis, len(m.Clusters)), make([]axis, len(m.Clusters))
	for j := range m.Clusters {
		senders[j] = newAxis(m, r.Inter, j, -1)
		receivers[j] = newAxis(m, r.Inter, j, 1)
	}
	var out []Transfer
	for k, msg := range msgs {
		s, d := &senders[msg.Master], &receivers[msg.Worker]
		cuts := []float64{0, msg.Amount}
		cuts = s.cutsIn(cuts, outPos[k], msg.Amount)
		cuts = d.cutsIn(cuts, inPos[k], msg.Amount)
		slices.Sort(cuts)
		cuts = slices.Compact(cuts)
		for c := 1; c < len(cuts); c++ {
			o0, o1 := cuts[c-1], cuts[c]
			mid := (o0 + o1) / 2
			out = append(out, Transfer{
				From: s.at(outPos[k] + mid), To: d.at(inPos[k] + mid), Amount: o1 - o0, Inter: true,
				Start: start[k] + o0*m.Beta, End: start[k] + o1*m.Beta,
			})
		}
	}
	return out, nil
}

// axis is one cluster's inter-cluster senders (or receivers) laid end to
// end in index order: processor procs[k] owns [bound[k], bound[k+1]).
type axis struct {
	procs []int
	bound []float64
}

// newAxis lists the processors of cluster j whose y^(X) has the given sign.
func newAxis(m *Model, inter []float64, j int, sign float64) axis {
	c := &m.Clusters[j]
	a := axis{bound: []float64{0}}
	for i := c.First; i < c.First+c.N; i++ {
		if v := inter[i] * sign; v > 0 {
			a.procs = append(a.procs, i)
			a.bound = append(a.bound, a.bound[len(a.bound)-1]+v)
		}
	}
	return a
}

// cutsIn appends, as offsets from pos, the boundaries between processors
// strictly inside [pos, pos+amount].
func (a *axis) cutsIn(cuts []float64, pos, amount float64) []float64 {
	inner := a.bound[1:max(1, len(a.bound)-1)]
	k := sort.SearchFloat64s(inner, pos)
	for ; k < len(inner) && inner[k] < pos+amount; k++ {
		if inner[k] > pos {
			cuts = append(cuts, inner[k]-pos)
		}
	}
	return cuts
}

// at is the processor that owns position x (the last one past the end,
// where the messages' total exceeds the processors' by rounding).
func (a *axis) at(x float64) int {
	k := sort.SearchFloat64s(a.bound[1:], x)
	for k < len(a.procs) && a.bound[k+1] <= x {
		k++
	}
	return a.procs[min(k, len(a.procs)-1)]
}

// intraTransfers lays out the transfers inside cluster j (§4.2) around its
// inter-cluster transfers.
func intraTransfers(m *Model, r *Round, j int, inter []Transfer) ([]Transfer, bool, error) {
	c := &m.Clusters[j]
	var senders, receivers []portUse
	index := map[int]int{} // processor → its position on its side
	for i := c.First; i < c.First+c.N; i++ {
		switch u := r.Intra[i]; {
		case u < 0:
			index[i] = len(senders)
			senders = append(senders, portUse{proc: i, need: -u * c.Beta})
		case u > 0:
			index[i] = len(receivers)
			receivers = append(receivers, portUse{proc: i, need: u * c.Beta})
		}
	}
	if len(senders) == 0 || len(receivers) == 0 {
		return nil, false, nil
	}
	// The tight side: who sends out of a master cluster, or receives into a
	// worker cluster, on the port it uses inside too.
	tight, free, tightSends := senders, receivers, true
	if r.ClusterInter[j] > 0 {
		tight, free, tightSends = receivers, senders, false
	}
	for _, tr := range inter {
		who := tr.From
		if !tightSends {
			who = tr.To
		}
		if m.Procs[who].Cluster != j {
			continue
		}
		if k, ok := index[who]; ok && (r.Intra[who] < 0) == tightSends {
			tight[k].busy = append(tight[k].busy, span{tr.Start, tr.End})
		}
	}
	for k := range tight {
		tight[k].busy = mergeSpans(tight[k].busy, 1e-12*r.T)
	}
	tightSpans, freeSpans, balanced, err := intraSchedule(r.T, tight, free)
	if err != nil {
		return nil, false, err
	}
	var out []Transfer
	for _, pr := range pairUp(tightSpans, freeSpans, 1e-12*r.T) {
		from, to := tight[pr.tight].proc, free[pr.free].proc
		if !tightSends {
			from, to = to, from
		}
		out = append(out, Transfer{From: from, To: to, Amount: (pr.t1 - pr.t0) / c.Beta, Start: pr.t0, End: pr.t1})
	}
	return out, balanced, nil
}

// clusterLabel is a cluster's name, or C<j>.
func clusterLabel(m *Model, j int) string {
	if name := m.Clusters[j].Name; name != "" {
		return name
	}
	return fmt.Sprintf("C%d", j)
}
