package multicluster

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/netsched/netsched/models"
)

// Bits of a processor's active communication kinds, in the order of
// models.MultiClusterKinds; a set of them indexes Proc.Rate.
const (
	bitIntraSend = 1 << iota
	bitIntraRecv
	bitInterSend
	bitInterRecv
	numMasks = 1 << 4
)

// Model is the multi-master divisible load on a two-level multi-cluster in
// the terms of paper 001 (§2): the inter-cluster time per unit β, the
// start-up latency α of every message, the clusters with their β_j, and the
// processors numbered across clusters in order (models.MultiCluster.Locate).
type Model struct {
	Beta     float64 // β, time per unit between clusters
	Alpha    float64 // α, start-up latency of every message
	Clusters []Cluster
	Procs    []Proc
}

// Cluster is cluster C_j of a Model: its time per unit inside, β_j, and its
// processors, the global indices First … First+N−1.
type Cluster struct {
	Name     string
	Beta     float64
	First, N int
}

// Proc is processor P_i of a Model: its load x_i, its time per unit γ_i, the
// compute rate for every set of active communication kinds, and the
// coefficients of §3.1 derived from them.
//
// Rate is indexed by a mask of bitIntraSend, bitIntraRecv, bitInterSend and
// bitInterRecv (masks with two sends or two receives are left 0: a
// single port never has them). It holds the rates of the consistent-degradation rule
// (models.Processor.Rate with explicit combined rates left out), which is
// what the paper's algorithm assumes (§3.2.2); the replay uses the
// platform's own rates, so explicit combined rates that break the rule
// show as a miss there.
type Proc struct {
	Cluster  int
	X, Gamma float64
	Rate     [numMasks]float64
	Coef
}

// Coef are the coefficients of paper 001 §3.1 for one processor in cluster
// C_j, each the load-balance cost of moving one unit:
//
//	μ^(I) = β_j(1/β_j + 1/γ^(I) − 1/γ)   the work a master saves per unit it sends inside its cluster
//	μ^(X) = β(1/β + 1/γ^(X) − 1/γ)       … per unit it sends to another cluster
//	ω^(I) = β_j(1/β_j − 1/γ^(I) + 1/γ)   the work capacity a worker gives up per unit it receives inside
//	ω^(X) = β(1/β − 1/γ^(X) + 1/γ)       … per unit it receives from another cluster
//
// The paper writes one γ^(I) and γ^(X) for both directions and notes (§5)
// that nothing needs them equal: μ uses the rates while sending, ω the
// rates while receiving.
type Coef struct {
	MuI, MuX, OmegaI, OmegaX float64
}

// NewModel reads the model from a platform and a problem: it validates
// both (errors are *models.FieldError) and requires a multi-cluster and a
// divisible load. The assumptions of the paper are checked separately
// (Model.Check).
func NewModel(pl *models.Platform, pr *models.Problem) (*Model, error) {
	if pl == nil || pr == nil {
		return nil, errors.New("need a platform and a problem")
	}
	if err := pl.Validate(); err != nil {
		return nil, err
	}
	if pl.MultiCluster == nil {
		return nil, &models.FieldError{Path: "platform", Msg: fmt.Sprintf("paper 001 runs on a multicluster platform, not %q", pl.Kind())}
	}
	if err := pr.Validate(pl); err != nil {
		return nil, err
	}
	if pr.Divisible == nil {
		return nil, &models.FieldError{Path: "problem", Msg: fmt.Sprintf("paper 001 schedules a divisible load, not %q", pr.Family())}
	}
	return newModel(pl), nil
}

// newModel is NewModel on a valid multi-cluster platform.
func newModel(pl *models.Platform) *Model {
	mc := pl.MultiCluster
	m := &Model{Beta: mc.Beta, Alpha: mc.Alpha, Clusters: make([]Cluster, len(mc.Clusters))}
	m.Procs = make([]Proc, 0, mc.NumProcessors())
	for j, c := range mc.Clusters {
		m.Clusters[j] = Cluster{Name: c.Name, Beta: c.Beta, First: len(m.Procs), N: len(c.Processors)}
		for _, p := range c.Processors {
			m.Procs = append(m.Procs, newProc(p, j, c.Beta, mc.Beta))
		}
	}
	return m
}

// newProc takes the rates of p under the consistent-degradation rule and
// derives its coefficients in a cluster of time per unit bj.
func newProc(p models.Processor, cluster int, bj, beta float64) Proc {
	p.Combined = nil // the rule, not the explicit rates: see Proc
	pr := Proc{Cluster: cluster, X: p.Load, Gamma: p.Gamma}
	active := make([]string, 0, len(models.MultiClusterKinds))
	for mask := range numMasks {
		if bits.OnesCount(uint(mask&(bitIntraSend|bitInterSend))) > 1 || bits.OnesCount(uint(mask&(bitIntraRecv|bitInterRecv))) > 1 {
			continue // two sends or two receives at once: a single port never has them
		}
		active = active[:0]
		for k, kind := range models.MultiClusterKinds {
			if mask&(1<<k) != 0 {
				active = append(active, kind)
			}
		}
		pr.Rate[mask] = p.Rate(active)
	}
	pr.Coef = Coef{
		MuI:    1 - bj*pr.loss(bitIntraSend),
		OmegaI: 1 + bj*pr.loss(bitIntraRecv),
		MuX:    1 - beta*pr.loss(bitInterSend),
		OmegaX: 1 + beta*pr.loss(bitInterRecv),
	}
	return pr
}

// loss is 1/γ − 1/γ_k, the compute rate lost while kind k is active.
func (p *Proc) loss(bit int) float64 { return p.Rate[0] - p.Rate[bit] }

// slack is T/γ − x as a function of T, written (T − xγ)/γ so that it is
// exactly 0 at T = xγ, where the processor turns from master to worker.
func (p *Proc) slack() lin { return lin{p.Rate[0], -(p.X * p.Gamma) * p.Rate[0]} }

// ClusterOf returns the cluster of processor i.
func (m *Model) ClusterOf(i int) *Cluster { return &m.Clusters[m.Procs[i].Cluster] }

// MinTime is t_i of §3.1: the shortest round in which processor i alone
// can get rid of its load, by computing it all (x_iγ_i), or by sending
// inside its cluster while computing the rest (x_iβ_jγ_i^(I)/(β_j+γ_i^(I))),
// or by sending to other clusters (x_iβγ_i^(X)/(β+γ_i^(X))). No round is
// shorter than max_i t_i (the paper's "T ≥ min{t_i}" means T ≥ t_i for every
// i; see ../shared/papers/README.md).
func (m *Model) MinTime(i int) float64 {
	p := &m.Procs[i]
	return min(p.X*p.Gamma, p.X/(1/m.ClusterOf(i).Beta+p.Rate[bitIntraSend]), p.X/(1/m.Beta+p.Rate[bitInterSend]))
}

// startTime is the least T at which processor i can start the §3.2
// search from ȳ_i^(I) with nothing sent out of its cluster: t_i without
// its inter-cluster term. When μ_i^(X) ≤ μ_i^(I) (and β ≥ β_j) the
// inter-cluster term is never the smallest, so it equals MinTime.
func (m *Model) startTime(i int) float64 {
	p := &m.Procs[i]
	return min(p.X*p.Gamma, p.X/(1/m.ClusterOf(i).Beta+p.Rate[bitIntraSend]))
}

// YBarIntra is ȳ_i^(I) of §3.1.3 at round time T: the additional load
// processor i takes inside its cluster when nothing crosses clusters,
// (T/γ_i − x_i)/μ_i^(I) for a master (x_iγ_i > T, negative: it sends at least
// that much) and (T/γ_i − x_i)/ω_i^(I) for a worker, which the paper leaves
// there; a worker also cannot receive more than its port carries in T,
// T/β_j, so that bound is taken too (as paper 000's port bound, see
// policies/mmdl). It is −Inf for a master that cannot send (μ^(I) ≤ 0).
func (m *Model) YBarIntra(i int, T float64) float64 {
	p := newPiece(T)
	_, y, _, ok := yBarIntra(&p, &m.Procs[i], m.ClusterOf(i).Beta)
	if !ok {
		return math.Inf(-1)
	}
	return y.at(T)
}
