package optround

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/models"
)

// Role restricts what a cluster does across clusters in a round.
type Role uint8

const (
	// Any lets the cluster both send and receive across clusters.
	Any Role = iota
	// Sends lets it only send across clusters.
	Sends
	// Receives lets it only receive across clusters.
	Receives
)

// MultiClusterRound is a round on a two-level multi-cluster (paper 001,
// §2): its time T and, per processor, the net load it receives inside its
// cluster (Intra, < 0: it sends) and across clusters (Inter).
type MultiClusterRound struct {
	T            float64
	Intra, Inter []float64
	// Amounts are, per processor, the loads it sends and receives inside
	// its cluster and across clusters, indexed by SendIntra … RecvInter.
	Amounts [][4]float64
}

// Positions of a processor's amounts in MultiClusterRound.Amounts.
const (
	SendIntra = iota
	RecvIntra
	SendInter
	RecvInter
)

// MultiCluster computes the optimal round of a divisible load on a
// multi-cluster, relays allowed, with each cluster's role across clusters
// restricted by roles (nil: Any for all). The program has, per processor i
// of cluster j, the load it sends and receives inside its cluster and
// across clusters in a round of length T, s_i^I, r_i^I, s_i^X, r_i^X:
//
//   - single port, full duplex: β_j s_i^I + β s_i^X ≤ T and
//     β_j r_i^I + β r_i^X ≤ T;
//   - what it computes, x_i + r_i^I + r_i^X − s_i^I − s_i^X, is at least 0
//     and at most T/γ_i less the rate lost during each kind of
//     communication times how long it lasts (β_j s_i^I while it sends
//     inside, ...);
//   - each cluster's uplink carries at most T each way: β Σ_{i∈C_j} s_i^X ≤ T
//     and β Σ_{i∈C_j} r_i^X ≤ T;
//   - what is sent inside a cluster is received there, and what crosses
//     clusters is received in another cluster: Σ_i s_i^X = Σ_i r_i^X and,
//     per cluster, what it sends and receives across is at most the total,
//     Σ_{i∈C_j} (s_i^X + r_i^X) ≤ Σ_i s_i^X (no cluster sends to itself).
//
// It minimises T. Without roles it is the optimum of every round the
// platform allows, a lower bound of any schedule's round; with roles, of
// those where no cluster both sends and receives across clusters.
// Result collection is not modelled. The platform is validated by the
// caller. It is solved by a dense simplex (see the package doc) that
// returns ctx's error within a pivot of ctx being done.
func MultiCluster(ctx context.Context, pl *models.Platform, roles []Role) (*MultiClusterRound, error) {
	return multiCluster(ctx, pl, roles, nil)
}

// multiCluster is MultiCluster with a hook called after every pivot.
func multiCluster(ctx context.Context, pl *models.Platform, roles []Role, onPivot func(int)) (*MultiClusterRound, error) {
	mc := pl.MultiCluster
	n := mc.NumProcessors()
	b := newMCProgram(mc, roles)
	if b.t0 == 0 {
		return &MultiClusterRound{Intra: make([]float64, n), Inter: make([]float64, n), Amounts: make([][4]float64, n)}, nil
	}
	x, err := b.p.solve(ctx, onPivot)
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("optimal round on %d clusters, %d processors: %w", len(mc.Clusters), n, err)
	}
	out := &MultiClusterRound{T: x[0], Intra: make([]float64, n), Inter: make([]float64, n), Amounts: make([][4]float64, n)}
	for i, v := range b.vars {
		for k, vk := range v {
			if vk != noVar {
				out.Amounts[i][k] = x[vk]
			}
		}
		a := out.Amounts[i]
		out.Intra[i] = a[RecvIntra] - a[SendIntra]
		out.Inter[i] = a[RecvInter] - a[SendInter]
	}
	return out, nil
}

// newMCProgram writes MultiCluster's program.
func newMCProgram(mc *models.MultiCluster, roles []Role) *mcBuilder {
	b := &mcBuilder{p: &program{nv: 1}, beta: mc.Beta, vars: make([][4]int, 0, mc.NumProcessors())}
	for j, c := range mc.Clusters {
		role := Any
		if roles != nil {
			role = roles[j]
		}
		b.cluster(c, role)
	}
	b.p.equal(append(b.sentX, b.gotX...)...)
	for _, tr := range b.through {
		for _, t := range b.sentX {
			tr = append(tr, term{t.v, -t.a})
		}
		b.p.atMost(0, tr...)
	}
	return b
}

// MultiClusterBytes is the memory MultiCluster's simplex takes on mc: its
// tableau, 4P + 5C + 2 rows (P processors, C clusters) of twice as many
// columns.
func MultiClusterBytes(mc *models.MultiCluster) float64 {
	P, C := float64(mc.NumProcessors()), float64(len(mc.Clusters))
	m := 4*P + 5*C + 2
	return 8 * (m + 1) * (4*P + 1 + m + 1)
}

// Positions of a processor's variables.
const (
	sI = SendIntra
	rI = RecvIntra
	sX = SendInter
	rX = RecvInter
)

// mcBuilder writes MultiCluster's program cluster by cluster.
type mcBuilder struct {
	p           *program
	beta        float64
	vars        [][4]int // per processor: s^I, r^I, s^X, r^X (noVar when its role forbids)
	sentX, gotX []term   // Σ s^X, −Σ r^X
	through     [][]term // per cluster: Σ (s^X + r^X), to be less Σ s^X
	t0          float64
}

// cluster adds the rows of cluster c.
func (b *mcBuilder) cluster(c models.Cluster, role Role) {
	var up, down, intra, through []term
	for _, proc := range c.Processors {
		v := [4]int{b.p.newVar(), b.p.newVar(), noVar, noVar}
		if role != Receives {
			v[sX] = b.p.newVar()
		}
		if role != Sends {
			v[rX] = b.p.newVar()
		}
		b.vars = append(b.vars, v)
		b.processor(proc, c.Beta, v)
		up, down = append(up, term{v[sX], b.beta}), append(down, term{v[rX], b.beta})
		intra = append(intra, term{v[sI], 1}, term{v[rI], -1})
		through = append(through, term{v[sX], 1}, term{v[rX], 1})
		b.sentX, b.gotX = append(b.sentX, term{v[sX], 1}), append(b.gotX, term{v[rX], -1})
	}
	b.p.atMost(0, append(up, term{0, -1})...)
	b.p.atMost(0, append(down, term{0, -1})...)
	b.p.equal(intra...)
	b.through = append(b.through, through)
}

// processor adds the rows of one processor of a cluster with time per
// unit bj.
func (b *mcBuilder) processor(proc models.Processor, bj float64, v [4]int) {
	proc.Combined = nil // the rule's rates
	base := proc.Rate(nil)
	loss := func(kind string) float64 { return base - proc.Rate([]string{kind}) }
	p := b.p
	p.atMost(0, term{v[sI], bj}, term{v[sX], b.beta}, term{0, -1})
	p.atMost(0, term{v[rI], bj}, term{v[rX], b.beta}, term{0, -1})
	work := p.atMost(-proc.Load,
		term{v[sI], -1 + bj*loss(models.KindIntraSend)}, term{v[rI], 1 + bj*loss(models.KindIntraRecv)},
		term{v[sX], -1 + b.beta*loss(models.KindInterSend)}, term{v[rX], 1 + b.beta*loss(models.KindInterRecv)},
		term{0, -base})
	if proc.Load*proc.Gamma > b.t0 {
		b.t0, p.tight = proc.Load*proc.Gamma, work
	}
	p.atMost(proc.Load, term{v[sI], 1}, term{v[rI], -1}, term{v[sX], 1}, term{v[rX], -1})
}
