// Package multicluster schedules the multi-master divisible load (MMDL) on a
// two-level multi-cluster, after Suda, "An Asymptotically Optimum Scheduling
// Algorithm for an MMDL Problem on Multi-Cluster Environments" (paper 001).
// It registers three policies of family divisible on the multicluster
// platform:
//
//   - multicluster: the paper's schedule, relays allowed;
//   - multicluster-norelay: the same with relays off (no processor both
//     receives and sends);
//   - mmdl-flat: paper 000's mmdl (package mmdl) planned on FlatView, the
//     whole system as one crossbar at the inter-cluster β, then run in its
//     order on the real platform: what a user without this model would do.
//
// Options: max_rounds (default 100) caps an automatic R; force: true plans
// an instance that breaks the paper's assumptions (see Assumptions).
//
// # Model (§2)
//
// Clusters C_j with time per unit β_j inside; an inter-cluster crossbar of
// time per unit β reached through one uplink per cluster and direction;
// single-port, full-duplex processors of time per unit γ_i holding loads
// x_i; per-processor compute rates while intra-cluster or inter-cluster
// traffic is sent or received (models.MultiClusterKinds), combined by
// consistent degradation. The paper writes one γ^(I) and γ^(X) per
// processor; here μ uses the rates while sending and ω those while
// receiving (§5 says nothing needs them equal).
//
// # Round time (§3)
//
// Coef holds μ^(I), μ^(X), ω^(I), ω^(X); Model.MinTime is t_i, and
// Model.YBarIntra is ȳ_i^(I) (§3.1). RoundTime computes the minimum
// steady-state round time T:
//
//   - per cluster (§3.2), every processor starts at y^(I) = ȳ^(I),
//     y^(X) = 0; a master cluster (Ȳ_j^(I) < 0) then takes, in order of
//     rate, the moves of §3.2.1–3.2.3 (a master sends out instead of
//     inside at μ^(I)/μ^(X); a worker or a master that no longer sends
//     inside relays at ω^(I)/μ^(X)) until Y_j^(I) = 0, each as far as its
//     port time, the sign of y^(I) and its work allow, which gives its
//     least outflow; a worker cluster takes the mirror moves (receive from
//     outside instead of inside at ω^(I)/ω^(X), or at β_j/β where the port
//     binds; relay inward at μ^(I)/ω^(X)) for its largest inflow
//     Ȳ_j^(X), which the paper leaves as "同様にして";
//   - T_j is where a master cluster's least outflow fills its uplink,
//     T_L = max{T_j, t_i} (the paper prints min; see the errata), and T is
//     T_L, or the root of Ȳ(T) = Σ_j min{Ȳ_j^(X), T/β} above it (§3.3);
//   - §3.4's O(P log P): every quantity is piecewise linear in T, and the
//     search is evaluated on linear forms (lin), so one evaluation, O(P)
//     with the moves sorted once, gives Ȳ as the line it is around T and
//     the interval between the nearest breakpoints; a bisection jumps from
//     piece to piece (about 20 evaluations for P = 10⁵) and solves the last
//     one exactly.
//
// The tests check T against an independent linear program of the round
// (gonum's simplex, per-processor intra and inter send and receive
// amounts, ports, uplinks, work at the overlap rates, relays allowed) on
// several hundred random instances, and against paper 000 (package mmdl)
// with one cluster, or one processor per cluster and β_j = β.
//
// # Round schedule (§4)
//
// RoundLayout places a round's transfers in [0, T]. Between clusters
// (§4.1): clusters are matched by paper 000's interval intersection
// (mmdl.IntervalMatching) and scheduled by its reverse ordering
// (mmdl.ScheduleMessages, uplinks as ports); each uplink's time is then cut
// among its cluster's senders (receivers) in index order. Inside a
// cluster (§4.2): the side whose port also carries inter-cluster transfers
// (the senders of a master cluster, the receivers of a worker cluster) is
// placed first, around those transfers, keeping the parallelism within 1
// of itself over the round; the other side then takes the times of highest
// remaining parallelism, and the two are paired as they come.
//
// # Rounds and start-up latency
//
// Expansion cuts the load into R chunks. Data moves one hop per slot: a
// relay that forwards what it received sends it in the slot after it
// arrived (the two halves of a relay in consecutive rounds, §4), and a
// processor computes what it received in the slot after; so there are
// R + d slots, d the depth of the relays plus 1. Within a slot every
// transfer starts as soon as its ports and uplinks are free, in the
// layout's order, and lasts α + aβ_j or α + aβ; every processor computes
// from the slot's start at the rate its communications allow
// (mmdl.FinishWork). R is the problem's rounds, or √(dT/α) (α per slot:
// AlphaRound) rounded to the better neighbour. The slotted schedule is
// then run in its order on the platform (an ordered replay), which lets
// slots overlap, and those times are kept if they end sooner (metric
// slotted_makespan keeps the other); mmdl-flat is timed the same way. The
// claimed makespan is exact either way: the tests replay every schedule,
// timed, on the multi-cluster with no violation and simulated = claimed.
// The replay's end-time tolerance makes guard gaps unnecessary (unlike
// policies/mmdl, which predates it).
//
// # Assumptions
//
// Model.Check lists what an instance breaks of β ≥ β_j, μ^(X) ≤ μ^(I),
// ω^(I) ≤ ω^(X), consistent degradation of explicit combined rates, and no
// result collection. Without force the policies fail with a
// *models.FieldError naming the field; with force they plan with the
// rule's rates and say so in Schedule.Warnings: the schedule is valid but
// T may not be optimal, and where the platform's combined rates differ
// the replay shows the miss. A processor whose relay would have its rate
// losses exceed its rate (1/γ^(I) + 1/γ^(X) < 1/γ, for example no overlap
// at all) is floored at rate 0 by the platform, which the linear model
// does not use: T is achieved but may not be optimal, and a warning says
// so when such a processor's cluster exchanges load.
//
// # Where this differs from the paper
//
//   - T_L is a max, and 1/γ^(D) = 1/γ^(I) + 1/γ^(X) − 1/γ (errata).
//   - ȳ_i^(I) of a worker is also bounded by its port, T/β_j, as in paper
//     000's policies/mmdl, and every move is limited by the work its
//     processor keeps (≥ 0) as well as by its port time and the sign of
//     y^(I): with floored rates the work bound can bind first.
//   - t_i's inter-cluster term is never the smallest when μ^(X) ≤ μ^(I) and
//     β ≥ β_j; the search starts from max_i of t_i without it (equal under
//     the assumptions, and a feasible start when forced).
//   - §4.2.1's argument that its rule keeps the parallelism within 1 holds
//     for the busy time of the master placed just before, not for earlier
//     ones; the rule can leave a spread of 2 (TestIntraScheduleGap, about
//     0.7 % of random adversarial cases). Then the constrained side is
//     placed by a flow (placeTightBalanced) that finds a spread within 1
//     whenever one exists; it has in every case tried. Metric
//     intra_balanced_by_flow counts the clusters that needed it.
//   - §2.3's makespan T + T/R + Rα becomes T + dT/R + Rα with relays (one
//     more slot per relay hop); metric paper_makespan reports the paper's.
package multicluster
