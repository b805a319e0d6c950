package replay

import (
	"fmt"
	"slices"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// A Platform is one platform kind's part in a replay: it says which
// actions it can run, builds its resources on the replay and binds every
// action to them. Each kind is a file of this package (or of its user)
// holding its Platform and the one line that registers it.
type Platform interface {
	// CheckAction returns a *models.FieldError, at "actions[i].field", if
	// action i cannot run on the platform: a node out of range, a kind
	// the platform lacks. The action's kind and amount are checked
	// already.
	CheckAction(i int, a *sim.Action) error
	// Build adds the platform's trace lanes and resources to the replay
	// and binds each of b.Actions() with b.BindCompute or b.BindTransfer.
	Build(b *Builder)
}

// A Kind returns the Platform that replays on p, a platform of its kind.
type Kind func(p *models.Platform) Platform

// kinds maps the name of each platform kind, as models.Platform.Kind gives
// it, to its Kind. Only Register writes it, from init functions.
var kinds = map[string]Kind{}

// The platform kinds of package models.
func init() {
	Register(models.KindCrossbar, func(p *models.Platform) Platform { return crossbar{p} })
	Register(models.KindMultiCluster, func(p *models.Platform) Platform { return multiCluster{p} })
	Register(models.KindTree, func(p *models.Platform) Platform { return tree{p} })
	Register(models.KindDelay, func(p *models.Platform) Platform { return delay{p} })
	Register(models.KindWorkstations, func(p *models.Platform) Platform { return workstations{p} })
	Register(models.KindNetwork, func(p *models.Platform) Platform { return links{p, p.Network.NewRoutes()} })
}

// Register makes the replay run platforms whose Kind is name with the
// Platform open returns. It is meant for init functions, and panics if
// the name is registered already.
func Register(name string, open Kind) {
	if _, dup := kinds[name]; dup || name == "" {
		panic(fmt.Sprintf("replay: platform kind %q registered twice or unnamed", name))
	}
	kinds[name] = open
}

// platformOf returns the Platform that replays on p.
func platformOf(p *models.Platform) (Platform, error) {
	open, ok := kinds[p.Kind()]
	if !ok {
		return nil, fmt.Errorf("replay: no replay for platform kind %q", p.Kind())
	}
	return open(p), nil
}

// A Port is a resource that serves one action at a time: a communication
// port, one direction of an uplink, the compute slot of a processor. In
// timed replay, two actions holding it at once are a violation; ordered
// replay serves its actions in schedule order.
type Port int32

// A Builder is what a Platform sees of a replay while it builds it. Trace
// lanes, ports and processors are numbered from 0 in the order they are
// added.
type Builder struct{ e *engine }

// Actions are the actions of the schedule being replayed, to bind.
func (b *Builder) Actions() []sim.Action { return b.e.s.Actions }

// AddLane adds a trace lane and returns its number. A platform with
// transfers adds one lane per node first, in node order: lane i is node i.
func (b *Builder) AddLane(name string) int { return b.e.rec.trace.AddLane(name) }

// AddNodeLanes adds one trace lane per node of p, named by p.
func (b *Builder) AddNodeLanes(p *models.Platform, n int) {
	for i := range n {
		b.e.rec.trace.AddLane(p.NodeName(i))
	}
}

// AddUsedNodeLanes adds one lane per node an action names, in increasing
// order, named by name, for a platform of unboundedly many nodes: lanes
// are then numbered in that order rather than by node. It returns the
// nodes, in memory the replay reuses.
func (b *Builder) AddUsedNodeLanes(name func(node int) string) []int {
	e := b.e
	used := e.laneIDs[:0] // a reused engine's memory
	for j := range e.s.Actions {
		used = append(used, e.s.Actions[j].Node)
	}
	slices.Sort(used)
	used = slices.Compact(used)
	e.laneIDs, e.lanesByID = used, true
	e.rec.trace.Lanes = slices.Grow(e.rec.trace.Lanes, len(used))
	for _, id := range used {
		e.rec.trace.AddLane(name(id))
	}
	return used
}

// Lane is the trace lane of a node.
func (b *Builder) Lane(node int) int { return int(b.e.lane(node)) }

// AddPort adds a port named by a trace lane and a suffix ("P3" + " send
// port"), whose double use is a violation of the given kind
// (sim.PortConflict, sim.ProcessorConflict).
func (b *Builder) AddPort(lane int, suffix string, conflict sim.ViolationKind) Port {
	return Port(b.e.ports.add(int32(lane), suffix, conflict))
}

// AddProcessorPorts adds the compute slot of each of n processors, named
// by the lanes 0..n−1, and returns the first.
func (b *Builder) AddProcessorPorts(n int) Port {
	return b.addPorts(n, " processor", sim.ProcessorConflict)
}

// AddPorts adds a communication port for each of n nodes, named by the
// lanes 0..n−1 and suffix, and returns the first.
func (b *Builder) AddPorts(n int, suffix string) Port {
	return b.addPorts(n, suffix, sim.PortConflict)
}

func (b *Builder) addPorts(n int, suffix string, conflict sim.ViolationKind) Port {
	ps := &b.e.ports
	first := Port(len(ps.ports))
	ps.ports = slices.Grow(ps.ports, n)
	for i := range n {
		ps.add(int32(i), suffix, conflict)
	}
	return first
}

// AddProcessors gives the replay compute rates: a processor per node, in
// node order, whose rate depends on the communication kinds active on it
// (at most 4; BindKinds says which a transfer activates), as
// models.Processor.Rate computes it.
func (b *Builder) AddProcessors(ps []models.Processor, kinds []string) {
	b.e.rates.addProcessors(ps, kinds)
	b.e.comp = &b.e.rates
}

// AddSteadyProcessor adds, for the next node, a processor whose compute
// rate does not depend on communication: rate, until SetRateAt changes it.
func (b *Builder) AddSteadyProcessor(rate float64) {
	b.e.rates.addSteady(rate)
	b.e.comp = &b.e.rates
}

// SetRateAt changes the compute rate of the steady processor of node to
// rate at time t.
func (b *Builder) SetRateAt(t float64, node int, rate float64) {
	e := b.e
	e.cal.At(t, func() { e.rates.setSteadyRate(node, rate) })
}

// SetDataDelay makes a computation that follows one on another node wait
// delay more after it ended, for its data.
func (b *Builder) SetDataDelay(delay float64) { b.e.rho, b.e.rhoApply = delay, true }

// BindCompute binds compute action j to the compute slot of its
// processor. Without processors (AddProcessors, AddSteadyProcessor) it
// takes its Amount as time.
func (b *Builder) BindCompute(j int, slot Port) {
	st := &b.e.acts[j]
	b.e.ports.bind(st, []Port{slot})
	st.compute = true
}

// BindTransfer binds transfer action j: the ports it holds while it runs,
// and how long its sender is busy. It arrives that long after its start,
// plus its latency (the offset of the last link PassLink adds to it).
func (b *Builder) BindTransfer(j int, busy float64, ports ...Port) {
	if b.e.flows != nil { // under sharing, ports are links
		b.e.flows.bind(j)
		return
	}
	st := &b.e.acts[j]
	b.e.ports.bind(st, ports)
	st.busy = busy
	b.e.fixed.bind(st)
}

// BindKinds says which communication kinds (bits of AddProcessors' kinds)
// transfer j activates on the processors at its ends.
func (b *Builder) BindKinds(j int, send, recv uint8) {
	b.e.acts[j].sendBit, b.e.acts[j].recvBit = send, recv
}

// PassLink adds to transfer j, the one bound last, a link it passes
// offset after its start: the trace shows it on lane while its sender is
// busy.
func (b *Builder) PassLink(j, lane int, offset float64) {
	if b.e.flows == nil {
		b.e.fixed.addLink(j, int32(lane), offset, -1)
	}
}

// setTransfers makes transfers run on model m instead of fixedTransfers,
// unless they run as flows on a shared network.
func (b *Builder) setTransfers(m transferModel) {
	if b.e.flows == nil {
		b.e.xfer = m
		b.e.placer, _ = m.(placer)
	}
}
