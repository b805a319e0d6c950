// Package network is a flow-level model of a shared network: links with a
// bandwidth and a latency, and flows that cross a route of links and share
// their bandwidth. It is the model SimGrid calls CM02 (Casanova and
// Marchal, "A network model for simulation of grid application", LIP
// research report 2002-40), solved by max-min fairness (progressive
// filling, Bertsekas and Gallager, Data Networks, §6.5.2).
//
// A flow becomes active at its start plus its route's latency (the sum of
// its links' latencies), taking no bandwidth while it waits. The active
// flows get the max-min fair allocation of the links' capacities: the
// levels of progressive filling, where every unfrozen flow's rate grows
// alike until a link saturates, freezing the flows that cross it. Rates
// are recomputed at every activation and completion; a flow ends when its
// bytes are sent, and a flow of 0 bytes ends when it activates.
//
// Two Sharing models are offered: MaxMin, the unweighted max-min share
// (CM02 with its latency weighting, TCP window bound and correction
// factors turned off), and CM02, SimGrid's CM02 as it is: a flow's share
// is weighted by the inverse of its route's latency and its rate bounded
// by TCP-gamma/(2·latency).
//
// Sim is the simulation, driven by an outside calendar (Add, Next,
// Advance) or by Replay for a whole set of timed flows. The solver is
// incremental. A flow is anchored at its bottleneck link, and the flows
// anchored at one link form a group whose progress is one integral of
// the link's level: an event changes levels, not flows. The progressive
// filling runs on sums over pairs (link, anchor) rather than on flows, and
// touches a flow only when its bottleneck changes; it recomputes the
// connected component of links the event touches. Its cost per event
// grows with the links and pairs involved, not with the flows: on a
// cluster where thousands of flows share a few bottlenecks, that is what
// makes it fast. Certify checks an allocation without trusting the
// solver: no link above its capacity, and every active flow with a
// saturated bottleneck link where its (weighted) rate is maximal.
// ReadFile reads the flow file format of "netsched flows".
package network
