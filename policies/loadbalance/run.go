package loadbalance

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/netsched/netsched/check"
	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

// Outcome is one online run: the realised schedule and what each
// processor did.
type Outcome struct {
	Schedule   *sim.Schedule
	Finish     []float64 // per processor: when its last task ended (0: it ran none)
	Processed  []int     // per processor: tasks it ran
	Migrated   int       // tasks moved between processors
	Migrations int       // transfers of one or more tasks
	Messages   int       // Power messages, requests and replies (with or without tasks)
	Makespan   float64   // when the last task ended
	IdealBound float64   // models.Workstations.IdealBound of the total work
}

// task is one task of the SPMD program: the k-th own task of processor
// origin, and the transfer action that brought it where it runs (−1: it
// never moved).
type task struct {
	origin, k int32
	via       int32
	work      float64
}

type msgKind uint8

const (
	msgPower   msgKind = iota // Power_from, −1 when from has no own tasks to give
	msgRequest                // a request for count tasks, or half the queue
	msgTasks                  // the reply: the tasks handed on, possibly none
)

// message is what CheckMessage receives.
type message struct {
	kind  msgKind
	from  int
	power int
	count int
	half  bool
	tasks []task
}

// node is one workstation of Fig. 1 (paper 003 §2.1).
type node struct {
	id          int
	speed       float64
	load        models.Load
	active      []task // ActiveQueue: tasks received from other processors, served first
	sched       []task // ScheduleQueue: own tasks
	inbox       sim.Mailbox[message]
	arrived     sim.Signal // ProcessingTask waits here for requested tasks
	done        int        // tasks finished
	power       int        // Power: tasks finished in the last interval
	outstanding int        // own requests not answered yet
	running     bool       // a task is being processed
	finished    bool
}

// next takes the next task, ActiveQueue first.
func (n *node) next() (task, bool) {
	if t, ok := pop(&n.active); ok {
		return t, true
	}
	return pop(&n.sched)
}

// pop takes the first task of a queue.
func pop(q *[]task) (task, bool) {
	if len(*q) == 0 {
		return task{}, false
	}
	t := (*q)[0]
	*q = (*q)[1:]
	return t, true
}

// controller is an online policy: what a node does with the load
// information it receives and when it runs out of tasks.
type controller interface {
	// exchangesPower reports whether the EstimateLoad threads run.
	exchangesPower() bool
	// onPower is P_i's CheckMessage receiving Power_j: how many tasks P_i
	// asks P_j for (0: none).
	onPower(i *node, j, powerJ int) int
	// onIdle is P_i's ProcessingTask finding both queues empty and no
	// request pending: whom P_i asks for half their ScheduleQueue (−1:
	// nobody, and P_i ends).
	onIdle(i *node) int
	// onReply is P_i receiving n tasks from P_j in answer to a request.
	onReply(i *node, j, n int)
}

// run is one online simulation on one calendar.
type run struct {
	cal   sim.Calendar
	ws    *models.Workstations
	pool  *models.Balance
	ctl   controller
	nodes []*node
	info  [][]int // InfoGraph: whom each processor sends its Power
	names []string
	s     *sim.Schedule
	out   Outcome
	total int

	inFlight int   // tasks in migrations not yet arrived
	audit    bool  // count the tasks after every event (tests)
	auditErr error // the first count that failed
}

// simulate runs the online policy made by ctl on a validated
// workstations platform and task pool, deterministically for the seed
// (which draws the task works when the pool has jitter), and checks at the
// end that every task was processed exactly once.
func simulate(ctx context.Context, ws *models.Workstations, pool *models.Balance, seed uint64,
	ctl func(r *run) (controller, error), audit bool) (*Outcome, error) {
	r := &run{ws: ws, pool: pool, info: ws.InfoGraph(), names: names(ws), s: &sim.Schedule{}, audit: audit}
	var err error
	if r.ctl, err = ctl(r); err != nil {
		return nil, err
	}
	r.makeNodes(rand.New(rand.NewPCG(seed, 1)))
	// The threads are actors, which cost about what callbacks do (a
	// process's coroutine switch costs four to five times more);
	// CheckMessage still waits for a message at the end, which an actor may.
	for _, n := range r.nodes {
		name := r.names[n.id]
		r.cal.SpawnActor(name+" ProcessingTask", r.processingTask(n))
		if r.ctl.exchangesPower() {
			r.cal.SpawnActor(name+" EstimateLoad", r.estimateLoad(n))
		}
		r.cal.SpawnActor(name+" CheckMessage", r.checkMessage(n))
	}
	if err := r.cal.Run(ctx); err != nil {
		return nil, err
	}
	if r.auditErr != nil {
		return nil, r.auditErr
	}
	if err := r.conserved(); err != nil {
		return nil, err
	}
	return r.outcome(), nil
}

// makeNodes gives every processor its own tasks.
func (r *run) makeNodes(rng *rand.Rand) {
	for i := range r.ws.Processors {
		n := &node{id: i, speed: r.ws.Processors[i].Speed, load: r.ws.Load(i)}
		for k := range r.pool.Count(i) {
			w := r.pool.Work
			if j := r.pool.Jitter; j > 0 {
				w *= 1 + j*(2*rng.Float64()-1)
			}
			n.sched = append(n.sched, task{origin: int32(i), k: int32(k), via: -1, work: w})
		}
		r.total += len(n.sched)
		r.nodes = append(r.nodes, n)
	}
}

// processingTask is the ProcessingTask thread of node n, as an actor:
// each turn takes the next task and waits until it is processed, or waits
// for requested tasks to arrive.
func (r *run) processingTask(n *node) sim.Turn {
	var next, processed sim.Turn
	next = func(a *sim.Actor) {
		t, ok := n.next()
		if !ok {
			if n.outstanding == 0 {
				v := r.ctl.onIdle(n)
				if v < 0 {
					n.finished = true
					return
				}
				r.request(n, v, 0, true)
			}
			n.arrived.WaitThen(a, next)
			return
		}
		start := a.Now()
		end := n.load.Finish(n.speed, start, t.work)
		r.recordCompute(n, t, start, end)
		n.running = true
		r.check()
		a.WaitUntil(end, processed)
	}
	processed = func(a *sim.Actor) {
		n.running = false
		n.done++
		r.check()
		next(a)
	}
	return next
}

// estimateLoad is the EstimateLoad thread of node n, as an actor: every
// interval it measures Power and sends it to the processors n informs, −1
// when it has no own task left to give.
func (r *run) estimateLoad(n *node) sim.Turn {
	last := 0
	var measure sim.Turn
	measure = func(a *sim.Actor) {
		if n.finished {
			return
		}
		n.power, last = n.done-last, n.done
		power := n.power
		if len(n.sched) == 0 {
			power = -1
		}
		for _, j := range r.info[n.id] {
			r.send(j, message{kind: msgPower, from: n.id, power: power}, r.ws.Latency)
		}
		a.Wait(r.pool.Interval, measure)
	}
	return func(a *sim.Actor) { a.Wait(r.pool.Interval, measure) }
}

// checkMessage is the CheckMessage thread of node n, as an actor: a turn
// per message.
func (r *run) checkMessage(n *node) sim.Turn {
	var handle func(a *sim.Actor, m message)
	handle = func(a *sim.Actor, m message) {
		switch m.kind {
		case msgPower:
			if !n.finished {
				if k := r.ctl.onPower(n, m.from, m.power); k > 0 {
					r.request(n, m.from, k, false)
				}
			}
		case msgRequest:
			r.handOn(n, m)
		case msgTasks:
			n.outstanding--
			r.inFlight -= len(m.tasks)
			n.active = append(n.active, m.tasks...)
			r.ctl.onReply(n, m.from, len(m.tasks))
			n.arrived.Notify()
		}
		r.check()
		n.inbox.ReceiveThen(a, handle)
	}
	return func(a *sim.Actor) { n.inbox.ReceiveThen(a, handle) }
}

// send delivers m to processor to after delay.
func (r *run) send(to int, m message, delay float64) {
	r.out.Messages++
	r.cal.After(delay, func() { r.nodes[to].inbox.Send(m) })
}

// request has n ask processor j for count tasks, or for half its
// ScheduleQueue.
func (r *run) request(n *node, j, count int, half bool) {
	n.outstanding++
	r.send(j, message{kind: msgRequest, from: n.id, count: count, half: half}, r.ws.Latency)
}

// handOn answers request m at node n with tasks from the tail of its
// ScheduleQueue: as many as asked for (half, rounded up, for a steal), or
// as there are.
func (r *run) handOn(n *node, m message) {
	k := m.count
	if m.half {
		k = (len(n.sched) + 1) / 2
	}
	k = min(k, len(n.sched))
	tasks := append([]task(nil), n.sched[len(n.sched)-k:]...)
	n.sched = n.sched[:len(n.sched)-k]
	delay := r.ws.MigrationTime(float64(k))
	if k > 0 {
		now := r.cal.Now()
		via := r.s.Add(sim.Action{Kind: sim.Transfer, From: n.id, To: m.from, Amount: float64(k),
			Start: r.s.Time(now), End: r.s.Time(now + delay), Label: fmt.Sprintf("%d tasks", k)})
		for i := range tasks {
			tasks[i].via = int32(via)
		}
		r.inFlight += k
		r.out.Migrated += k
		r.out.Migrations++
	}
	r.send(m.from, message{kind: msgTasks, from: n.id, tasks: tasks}, delay)
}

// recordCompute adds task t, run on n from start to end, to the schedule.
func (r *run) recordCompute(n *node, t task, start, end float64) {
	a := sim.Action{Kind: sim.Compute, Node: n.id, Amount: t.work, Start: r.s.Time(start), End: r.s.Time(end),
		Label: r.label(t)}
	if t.via >= 0 {
		a.After = r.s.Ints(1)
		a.After[0] = int(t.via)
	}
	r.s.Add(a)
}

// label names task t as the balance problem's check reads it, "P3/17".
func (r *run) label(t task) string { return check.PoolTaskLabel(r.names[t.origin], int(t.k)) }

// names lists the processors' names.
func names(ws *models.Workstations) []string {
	out := make([]string, len(ws.Processors))
	for i := range out {
		out[i] = ws.Name(i)
	}
	return out
}

func (r *run) outcome() *Outcome {
	o := &r.out
	o.Schedule = r.s
	o.Finish, o.Processed = make([]float64, len(r.nodes)), make([]int, len(r.nodes))
	work := 0.0
	for _, a := range r.s.Actions {
		if a.Kind != sim.Compute {
			continue
		}
		o.Processed[a.Node]++
		o.Finish[a.Node] = max(o.Finish[a.Node], *a.End)
		o.Makespan = max(o.Makespan, *a.End)
		work += a.Amount
	}
	o.IdealBound = r.ws.IdealBound(work)
	return o
}
