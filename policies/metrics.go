package policies

import (
	"slices"
	"strings"
)

// Metric explains one figure a policy reports beside its schedule
// (sim.Schedule.Metrics), printed on the `metrics:` lines of `netsched run`
// and as the metric.NAME columns of its CSV.
type Metric struct {
	// Name is the metric's name; "<processor>" in it stands for a
	// processor's name, as in finish_<processor>.
	Name string
	// By lists the policies that report it.
	By []string
	// Doc says what it measures, with its unit and the paper's section
	// where the paper defines it.
	Doc string
}

// matches reports whether name is an instance of the metric's name.
func (m Metric) matches(name string) bool {
	pre, post, pattern := strings.Cut(m.Name, "<processor>")
	if !pattern {
		return name == m.Name
	}
	return len(name) > len(pre)+len(post) && strings.HasPrefix(name, pre) && strings.HasSuffix(name, post)
}

// LookupMetric returns the explanation of the metric name as policy
// reports it, and false when the glossary (Metrics) has none: a metric
// every policy test must find (checktest's conformance suite checks it).
func LookupMetric(policy, name string) (Metric, bool) {
	for _, m := range metrics {
		if m.matches(name) && slices.Contains(m.By, policy) {
			return m, true
		}
	}
	return Metric{}, false
}

// Metrics lists every metric a registered policy reports, sorted by name,
// for `netsched doc`.
func Metrics() []Metric {
	out := slices.Clone(metrics)
	slices.SortStableFunc(out, func(a, b Metric) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
	return out
}

// The policies that report each group of metrics.
var (
	mmdlFamily     = []string{"mmdl", "mmdl-forward", "single-round", "mmdl-flat"}
	paper001       = []string{"multicluster", "multicluster-norelay"}
	roundPolicies  = concat(mmdlFamily, paper001, []string{"divisible-lp"})
	clusterings    = []string{"cross", "convex", "cass2", "dsc"}
	balancers      = []string{"none", "power-diff", "static", "steal"}
	transferCounts = concat(clusterings, []string{"heft", "cpop", "direct", "binary-tree", "ecef", "flat-sequential", "fnf", "lam", "mpich", "mpich-binomial", "mpich-scatter-allgather"})
)

func concat(lists ...[]string) []string { return slices.Concat(lists...) }

// metrics is the glossary of every metric any registered policy reports.
var metrics = []Metric{
	// Divisible load in rounds (papers 000 and 001).
	{"T", roundPolicies, "the optimal round's time: the makespan of one round that moves and computes the whole load, start-up latencies left out (paper 000 §3.2, paper 001 §3.3); the schedule repeats a scaled copy of this round R times"},
	{"T_L", concat(mmdlFamily, paper001), "the lower bound of T that the paper's round search starts from: max_i T_i on a crossbar (paper 000 §3.2), max{T_j, t_i} on a multi-cluster (paper 001 §3.3)"},
	{"t_max", paper001, "max_i t_i, the longest time a processor needs for its part of the load inside its cluster (paper 001 §3.1)"},
	{"R", roundPolicies, "the number of rounds the load is divided into: R = √(T/α) rounded to the better neighbour, at most max_rounds (paper 000 §3.1.2), or the problem's rounds when it fixes them"},
	{"alpha_round", roundPolicies, "α of the paper's formula: the start-up time one round adds, α times the most messages a processor handles in a phase (twice with result collection on half-duplex ports, paper 000 §4.1); on a multi-cluster, how long a round of transfers of nothing but their start-up latency lasts (paper 001 §2.3)"},
	{"paper_makespan", roundPolicies, "the makespan the paper's formula predicts, T + T/R + R·alpha_round (paper 000 §3.1.2): an estimate; the claimed makespan is the schedule's exact end, which the replay checks, and it may be above or below this"},
	{"own_load_makespan", concat(mmdlFamily, paper001), "the makespan without redistribution: the longest time a processor takes to compute the load it holds (max_i x_i·γ_i), what no-redistribution achieves"},
	{"slot", mmdlFamily, "the length of the longest slot: a round's communication followed by its computation, the unit the rounds are laid out in (paper 000 §3.1)"},
	{"slots", concat(paper001, []string{"divisible-lp"}), "the number of slots the R rounds are laid out in: R plus the slots that relayed load and its computation lag behind"},
	{"masters", concat(mmdlFamily, paper001, []string{"divisible-lp"}), "the processors that send load away in the optimal round (y_i < 0)"},
	{"workers", concat(mmdlFamily, paper001, []string{"divisible-lp"}), "the processors that receive load in the optimal round (y_i > 0)"},
	{"messages_per_round", concat(mmdlFamily, []string{"divisible-lp"}), "the messages of one round: the pairs of the interval matching of masters to workers (paper 000 §3.3)"},
	{"max_messages_per_processor", mmdlFamily, "the most messages one processor sends or receives in a phase of a round, the factor of α in alpha_round"},
	{"flat_claimed", []string{"mmdl-flat"}, "the makespan mmdl claims on the multi-cluster seen as one crossbar, before its plan is timed on the real platform (the claim)"},
	{"flat_beta", []string{"mmdl-flat"}, "the β of that flat crossbar: the inter-cluster β"},
	{"slotted_makespan", concat(paper001, []string{"divisible-lp"}), "the makespan of the rounds laid out slot after slot, before the schedule is compacted by running each action as soon as what it follows and its ports allow (the claim is the compacted makespan)"},
	{"relays", paper001, "the processors that both receive load from one side and send it on to the other (a relay, paper 001 §3.2.2)"},
	{"relay_depth", paper001, "the longest chain of relays a unit of load passes through in a round"},
	{"master_clusters", paper001, "the clusters that send load to other clusters (Y_j < 0)"},
	{"worker_clusters", paper001, "the clusters that receive load from other clusters (Y_j > 0)"},
	{"inter_cluster_load", paper001, "the load that crosses between clusters in a round, Σ −Y_j over the master clusters"},
	{"transfers_per_round", concat(paper001, []string{"divisible-lp"}), "the transfers of one round, inside clusters and between them"},
	{"intra_balanced_by_flow", paper001, "the clusters whose tight side the paper's greedy placement (§4.2.1) could not keep within a spread of 1, placed by a flow instead"},
	{"lp_T", paper001, "with force, on at most 100 processors: the optimal round time by LP over every round the platform allows (relays, clusters both sending and receiving)"},
	{"gap_to_lp", paper001, "with force: how far T is above lp_T, T/lp_T − 1"},
	{"lp_bound", []string{"divisible-lp"}, "on a multi-cluster: the optimal round time of the LP over every round the platform allows, which the schedule's round realises (equal to T)"},
	{"mixed_clusters", []string{"divisible-lp"}, "on a multi-cluster: the clusters that both send and receive across clusters in the optimal round (laid out by two preemptive open shops, docs/divisible-lp.md)"},
	// Divisible-load baseline.
	{"moved", []string{"direct"}, "the load moved between processors in all"},
	// Task graphs.
	{"transfers", transferCounts, "the transfers in the schedule: data of edges between processors, pieces of a broadcast, or moves of load"},
	{"clusters", clusterings, "the clusters of the clustering, each a processor of the delay platform or mapped onto one (paper 002 §2)"},
	{"rho", clusterings, "on a crossbar or multi-cluster: the uniform delay ρ the clustering is computed with, the mean time of an edge's data between two processors (HEFT's c̄)"},
	{"time_S", clusterings, "on the delay platform: the paper's time(S), the latest start of a task in the clustered schedule (paper 002 §2)"},
	{"makespan", clusterings, "on the delay platform: the clustered schedule's makespan, the latest finish (time(S) plus that task's weight at most)"},
	{"time_S_mean", []string{"cross", "convex"}, "on the delay platform: time(S) averaged over the randomised runs (paper 002 §5.2.1 reports the best; this shows the spread)"},
	{"runs", []string{"cross", "convex"}, "on the delay platform: the randomised runs made (option runs)"},
	{"k", []string{"cross", "convex"}, "on the delay platform: the selections tried per cluster split (option k, paper 002's K)"},
	{"latest_start", []string{"sequential", "unclustered"}, "paper 002's time(S) for the baseline: the latest start of a task"},
	// Broadcast.
	{"bytes", []string{"mpich", "mpich-scatter-allgather"}, "the message size in bytes that MPICH's thresholds compare (size × unit_bytes)"},
	{"algorithm", []string{"mpich", "mpich-scatter-allgather"}, "the algorithm MPICH ran: 0 binomial tree, 1 scatter then recursive-doubling allgather, 2 scatter then ring allgather"},
	{"nodes", []string{"optimal"}, "the search nodes the branch and bound visited (paper 004 §4)"},
	{"lower_bound", []string{"optimal"}, "the largest makespan proven unreachable from below: the optimum is at least this; equal to the makespan when proven"},
	{"root_bound", []string{"optimal"}, "the lower bound of the empty schedule, before any search (paper 004 §4.6)"},
	{"proven", []string{"optimal"}, "1 when the schedule is proven optimal, 0 when the budget ran out first"},
	// Load balancing (paper 003).
	{"finish_<processor>", balancers, "when the processor finished its last task (paper 003, Tables 1 and 2)"},
	{"tasks_<processor>", balancers, "the tasks the processor computed (paper 003, Tables 1 and 2)"},
	{"tasks_migrated", balancers, "the tasks moved from one processor to another in all"},
	{"migrations", balancers, "the migrations, each moving one or more tasks"},
	{"messages", balancers, "the messages sent: Power messages, requests and replies (with or without tasks)"},
	{"ideal_bound", balancers, "the earliest time the processors together could have done the work, each computing all the time at its speed left by the external load: a lower bound of the makespan"},
	{"makespan_over_bound", balancers, "the makespan divided by ideal_bound (1 is a perfect balance)"},
	{"tasks_conserved", balancers, "1: every task was processed exactly once (a run that breaks it is an error)"},
}
