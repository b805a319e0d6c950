// Package mmdl schedules the multi-master divisible load (MMDL) on a
// crossbar cluster, after Suda, "Asymptotically Optimum Scheduling for a
// Multi-Master Divisible Load Problem" (paper 000), with every extension of
// its §4. It registers three policies of family divisible on the crossbar:
//
//   - mmdl: the paper's schedule;
//   - mmdl-forward: the same, with both sides of every phase communicating
//     in number order (the worst order, §3.4);
//   - single-round: the paper's round in one round (R = 1).
//
// # Model
//
// Processor i starts with load x_i (Processor.Load) and computes a unit in
// γ_i; a unit crosses the crossbar in β. Variants (Model):
//
//   - no overlap (§2.2): no Overlap rates; a processor stops computing
//     while it communicates;
//   - overlap (§4.2): Overlap {send: γ′_s, recv: γ′_r}, the time per unit
//     while sending or receiving (constant communication performance);
//   - result collection (§4.1): Divisible.CollectResults with ResultSize ρ
//     units of result per unit of load, sent back to the unit's origin;
//   - full duplex (§4.3): Crossbar.Duplex full; the rate while sending and
//     receiving at once is the consistent-degradation rule of
//     models.Processor.Rate. Explicit Combined rates that break the rule
//     are not used by the plan: the schedule says so in its Warnings, and
//     the replay shows how far it misses (computations end late).
//
// # Round time (§3.2)
//
// RoundTime finds the minimum round time T by the paper's O(p log p)
// method: Y(T) = Σ ȳ_i(T) is piecewise linear and increasing, T is T_L =
// max T_i if Y(T_L) ≥ 0, and otherwise the root of Y, found by sorting the
// breakpoints, a binary search and the exact solution of one linear piece.
// T_i and ȳ_i are the paper's, generalised to results and full duplex,
// with one correction: a worker's ȳ_i is also bounded by its port, T/(πβ).
// The paper's §4.2 formula leaves that out, and when a worker computes
// nearly at full speed while receiving (β > γ′_i) it gives a T that no
// schedule reaches (TestWorkerPortBound). The tests check T against a
// linear program written from the platform's rules and solved by gonum's
// simplex.
//
// # Round schedule (§3.3, §3.4)
//
// IntervalMatching pairs masters and workers by interval intersection (at
// most p − 1 messages per round); ScheduleMessages starts each message as
// soon as its ends are free in the chosen Order (Reverse: senders in number
// order, receivers in reverse, which finishes when the busiest port does).
// Every processor computes from the start of each slot, at the rate its
// communications allow.
//
// # Rounds and start-up latency
//
// Expansion cuts the load into R chunks: chunk c is distributed in slot
// c−1, computed in slot c and its results collected in slot c+1; the first
// slot only communicates and the last only computes (or only collects). R
// is the problem's Rounds, or √(T/α) rounded to the neighbour that gives
// the shorter schedule.
//
// On the crossbar α is per message: a transfer of a units holds both ports
// for α + aβ and slows both processors for all of it. The paper's α is per
// round. A slot is longer than T/R by at most α times the number of
// messages on the busiest port (twice that with half-duplex result
// collection, whose two phases follow each other); that is the α the
// schedule uses for R (metric alpha_round). Every slot lasts exactly until
// its last transfer and computation end, so the claimed makespan is exact:
// at most T + T/R + R·alpha_round without result collection, one
// alpha_round more with half-duplex collection (the last chunk's results
// come back after the last slot), and T/R + 2·alpha_round more in full
// duplex, where a round's distribution and collection overlap but the
// first slot's distribution and the last slot's collection cannot. The
// paper's T + T/R + Rα is reported beside it as paper_makespan.
//
// Slots follow each other with no gap: a computation that fills the time
// its processor can compute ends exactly when the processor next starts a
// transfer, and the replay completes a computation due within its time
// tolerance of a rate change instead of holding it back by rounding.
package mmdl
