// Package timeindexed writes a time-indexed mixed-integer linear program
// (MILP) of a broadcast on a tree network under bandwidth reservation
// (paper 004 §2) in CPLEX LP format, runs the CBC solver on it, and reads
// its solution back as a schedule. It is an exact model, independent of
// the branch and bound of package broadcast, for cross-checking it
// (issue 21). Its LP relaxation is weak (0.5–0.85 of the best makespan
// known on the instances of 12–20 participants measured), so CBC proves
// optima of small instances only; Check tests a given schedule against
// every row without a solver.
//
// The same model, with every C at the horizon, is also written as a
// propositional formula (Model.CNF) and decided by the SAT solver
// CaDiCaL (Debian's cadical; CNF.Solve): satisfiable when a feasible grid
// schedule ends by the horizon, with that schedule (CNF.Schedule); the
// solver can be told to try a known schedule first (CNF.Prefer). The
// broadcast package's optimal policy proves optima with it, where CBC
// could not: on random trees of 32 participants with relays a horizon is
// decided in seconds to a minute.
//
// # The instance on a grid
//
// The message has size D; a transfer u→v follows the route of
// replay.Routes: its rate is b = min b_i over the path, it reserves b on
// channel i (one per direction of a full-duplex edge, one shared by both
// directions of a half-duplex edge, capacity as replay.Routes.Capacities)
// during [s + o_i, s + o_i + D/b), o_i = Σ_{j≤i} d_j, and it arrives at
// s + L + D/b, L = Σ d_j. The grid step δ = 1/k is the largest with
// k ≤ MaxK such that every link latency d and every route's D/b is an
// integer multiple of δ (within 1e-9 relative); an instance with no such
// step is refused. On the grid a transfer p = u→v has duration
// τ_p = (D/b)/δ ≥ 1 slots, offsets ω_pi = o_i/δ and arrival offset
// c_p = L/δ + τ_p, all integers.
//
// # The model
//
// Slots are the integers 0 … H−1 of a horizon H = ⌊horizon/δ⌋ given by
// the caller (an upper bound on the optimum, such as the makespan of a
// known schedule). e_u is the contention-free earliest arrival of
// participant u: 0 at a root, else the least Σ c_p over a chain of
// transfers from a root (Dijkstra on the complete graph of participants).
// For every participant u and non-root participant v ≠ u, transfer p = u→v
// may start at slot t ∈ T_p = [e_u, H − c_p] (no other start can be part of
// a schedule whose makespan is within the horizon). Variables:
//
//   - x_p,t ∈ {0,1}: p starts at slot t;
//   - s_p,t = Σ_{t' ≤ t} x_p,t' (continuous, defined by s_p,t − s_p,t−1 −
//     x_p,t = 0), read as 0 before T_p and as s_p,max T_p after it;
//   - h_u,t = Σ_{w} s_{w→u},t−c_{w→u} (continuous, for t ∈ [e_u, H)): u
//     has received the whole message by slot t, for every non-root
//     participant u;
//   - C (integer, ≥ max_v e_v): the makespan in slots, the objective to
//     minimise.
//
// Constraints:
//
//   - receipt: Σ_u s_{u→v},max T = 1 for every non-root participant v
//     (exactly one transfer delivers to it; roots receive none);
//   - holding: s_p,t − h_u,t ≤ 0 for every p = u→v with u not a root and
//     t ∈ T_p: by slot t, u has started no more transfers to v than it
//     has received messages (in a 0/1 solution: u sends only once it holds
//     the whole message, start ≥ arrival);
//   - capacity: for every channel ℓ and slot θ,
//     Σ_{p, i: channel i of p is ℓ} b_p (s_p,θ−ω_pi − s_p,θ−ω_pi−τ_p) ≤ cap_ℓ,
//     where the bracket is 1 exactly when p's reservation on ℓ covers slot
//     θ (a reservation covers whole slots, since everything is on the
//     grid); rows whose total possible rate is within the capacity are
//     left out, as they always hold;
//   - makespan: C − Σ_{u,t} (t + c_{u→v}) x_{u→v},t ≥ 0 for every non-root
//     participant v (the sum is v's arrival slot).
//
// And two families of valid inequalities that only tighten the LP
// relaxation (every 0/1 solution keeps them):
//
//   - waiting: C + θ·h_v,θ−1 ≥ θ for every non-root v and θ ∈ (e_v, H]:
//     if v has not received by slot θ−1, it arrives at θ or later;
//   - sending: for every non-root u, channel ℓ leaving u and slot a,
//     Σ_{p = u→v on ℓ} b_p (s_p,a − s_p,a−τ_p) − cap_ℓ·h_u,a ≤ 0: the
//     transfers of u that start by a and still use ℓ then started after u
//     received, so none is active unless h_u,a = 1 (rows implied by the
//     holding rows, for one transfer or transfers fitting together within
//     the capacity, are left out).
//
// # What the model contains
//
// Claim: the 0/1 solutions are exactly the feasible broadcast schedules
// (paper 004 §2: whole-message transfers, one delivery per non-root
// participant, a sender holds the message when it starts, every channel
// within its capacity at every instant) whose starts are on the grid and
// whose makespan is at most Hδ, and C·δ ≥ the schedule's makespan, with
// equality at an optimum.
//
// Proof. Given such a schedule, set x_p,t = 1 for its transfers. Every
// start is ≥ e_u, since any chain of transfers delivering to u takes at
// least the contention-free time, and ≤ H − c_p, since the arrival is
// within the horizon: the variable exists. Receipt holds as each non-root
// receives once. A sender u starts at t ≥ its arrival a_u = t' + c_{w→u},
// so h_u,t = 1 ≥ s_p,t; capacity holds because a reservation [s + o_i,
// s + o_i + D/b) with all ends on the grid covers exactly the slots
// θ ∈ [t + ω_pi, t + ω_pi + τ_p), on which the reserved rates of the
// schedule sum to at most the capacity; C may be set to the makespan.
// Conversely, a 0/1 solution has exactly one x = 1 per non-root v
// (receipt, with s ≤ 1 since s is a partial sum of nonnegative x whose
// total is at most 1), which defines one transfer per non-root. Holding
// with s_p,t = 1 forces h_u,t ≥ 1, that is an arrival at u by slot t, so
// every sender holds the message when it starts; arrivals are strictly
// later than starts (τ_p ≥ 1), so the transfers form a tree rooted at the
// roots, and each non-root is reached. Capacity, slot by slot, bounds the
// rates reserved on each channel at every instant, since reservations are
// constant on each slot. The makespan row gives C ≥ every arrival, and C
// is an integer at least max_v e_v in slots as every arrival is. ∎
//
// Consequences used by the tests: a schedule whose starts are on the grid
// and whose makespan is at most Hδ is a solution, so the MILP optimum is
// at most its makespan; and every MILP schedule is feasible, so a lower
// bound valid for every feasible schedule is at most the MILP optimum.
// The LP relaxation (x ∈ [0,1], same rows) is a lower bound on the MILP
// optimum only: schedules off the grid are not in the model.
//
// Solve runs the cbc command (Debian's coinor-cbc) with a time limit and
// parses its solution file, SolveFrom gives CBC a known schedule to start
// from (a mipstart; CBC 2.10.8 crashes on some), and Schedule turns the
// starts into a sim.Schedule whose transfers follow (After) the transfer
// that delivered to their sender, for replay by package check. Check
// evaluates every row, as written, at the point a schedule defines.
package timeindexed
