package scenarios

// Field declares one key of a scenario file for its reference (`netsched
// doc`, docs/scenarios.md): where it is, what it holds and what the loader
// accepts. The declarations are checked against the loader: a test walks
// the file's YAML layout by reflection and fails on a key that is accepted
// but not declared, or declared but not accepted.
type Field struct {
	// Path is the key's place from the top of the file, dotted: "[]"
	// stands for every item of a list and <kind> for a key the author
	// chooses. A processor's own fields are declared once under
	// "processor." and a processor generator's under "generator." (see
	// Sections).
	Path    string
	Type    string // number, whole number, word, true or false, list, mapping
	Unit    string // "" when the value has none
	Range   string // the values the loader accepts
	Default string // the value an absent key takes, or "required"
	Doc     string // one line: what it means
}

// Section is a group of fields the reference prints under one heading: the
// top level, one platform kind, one problem family, the processor item, the
// policy entries or the sweep section.
type Section struct {
	Title  string // the heading, e.g. "platform.crossbar"
	Intro  string // a paragraph before the table
	Fields []Field
}

// required is the Default of a key the file must give.
const required = "required"

// Units of the model: the simulator has no fixed units, only these
// quantities (a scenario picks seconds and bytes, or anything else, and
// keeps to it).
const (
	unitTime     = "time"
	unitPerUnit  = "time per unit of load"
	unitLoad     = "units of load"
	unitMessage  = "units of message"
	unitRate     = "units per time"
	unitWork     = "work units"
	unitSpeed    = "work units per time"
	unitFraction = "fraction of time"
)

// Sections returns the declarations of every scenario key, in the order the
// reference prints them. Each call builds them afresh.
func Sections() []Section {
	return []Section{
		{
			Title: "top level",
			Intro: "A scenario is one YAML mapping. Exactly one platform kind and one problem family are set.",
			Fields: []Field{
				{"name", "word", "", "any", "the file's base name", "the name outputs and `netsched list` show"},
				{"description", "text", "", "any", `""`, "one line for `netsched list` (the first line is shown)"},
				{"platform", "mapping", "", "exactly one of crossbar, multicluster, tree, delay, workstations, network", required, "the machine the policies schedule on"},
				{"problem", "mapping", "", "exactly one of divisible, dag, broadcast, balance", required, "the work to schedule; its family must fit the platform kind"},
				{"policies", "list", "", "at least one entry, each registered and fitting the problem and platform", required, "the policies to compare (see Policy entries)"},
				{"sweep", "mapping", "", "axis path → values (see Sweeps)", "none", "axes whose cross product `netsched sweep` runs"},
				{"seeds", "whole number", "", ">= 1", "1", "runs per policy and point, with successive seeds from `--seed` (default 1); `--seeds` overrides it"},
				{"sharing", "word", "", "none, maxmin, cm02; crossbar, multicluster, tree and network platforms only", "none", "also replay each schedule with its transfers as flows sharing the links of the platform lowered to a network (docs/networks.md); `--sharing` overrides it"},
			},
		},
		{
			Title: "platform.from",
			Intro: "Instead of a platform kind: a multi-cluster of a WfCommons instance's recorded machines (issue 17), one cluster per machine named as it, a processor per core (\"<machine>/<core>\"), gamma from the recorded speeds, every processor computing while it communicates. Cores of one machine share its memory: data between them moves at the memory bandwidth and holds only the two cores' ports. Data between machines moves at the network bandwidth and also holds the sending machine's uplink-out and the receiving machine's uplink-in, its network interface (one transfer each way at a time). Left out: disks and shared file systems, the network's own topology, bandwidth shared between concurrent transfers (they queue instead).",
			Fields: []Field{
				{"platform.from.wfcommons", "path", "", "a WfFormat 1.4–1.6 instance, relative to the scenario", required, "the instance whose machines make the platform"},
				{"platform.from.bandwidth", "number", "bytes per second", "> 0, finite", required, "the network's bandwidth between two machines (the multi-cluster's beta = 1/bandwidth seconds per byte)"},
				{"platform.from.memory", "number", "bytes per second", "> 0, finite", "1e10", "the bandwidth between two cores of one machine (each cluster's beta = 1/memory), 10^10: one core's memory copy"},
				{"platform.from.alpha", "number", unitTime, ">= 0, finite", "0", "start-up latency of every transfer, in seconds"},
			},
		},
		{
			Title: "platform.crossbar",
			Intro: "A cluster of processors joined by a crossbar switch (paper 000 §2.2): a transfer of amount a takes alpha + a·beta and holds the single port of both ends.",
			Fields: []Field{
				{"platform.crossbar.beta", "number", unitPerUnit, "> 0, finite", required, "transfer time per unit of load"},
				{"platform.crossbar.alpha", "number", unitTime, ">= 0, finite", "0", "start-up latency of every message"},
				{"platform.crossbar.duplex", "word", "", "half, full", required, "half: a port sends or receives; full: both at once"},
				{"platform.crossbar.processors", "list of processor, or generator", "", "at least one", required, "the processors, numbered from 0 in this order; or a generator that draws them"},
			},
		},
		{
			Title: "platform.multicluster",
			Intro: "Clusters of processors, each a crossbar with its own beta_j, joined by an inter-cluster crossbar through one uplink per cluster (paper 001). Processors are single-port, full duplex.",
			Fields: []Field{
				{"platform.multicluster.beta", "number", unitPerUnit, "> 0, finite", required, "inter-cluster transfer time per unit (paper 001's algorithm assumes beta >= every beta_j)"},
				{"platform.multicluster.alpha", "number", unitTime, ">= 0, finite", "0", "start-up latency of every message"},
				{"platform.multicluster.clusters", "list", "", "at least one", required, "the clusters; processors are numbered across them in order"},
				{"platform.multicluster.clusters[].name", "word", "", "any", `"C<j>"`, "the cluster's name in Gantt charts and traces"},
				{"platform.multicluster.clusters[].beta", "number", unitPerUnit, "> 0, finite", required, "intra-cluster transfer time per unit, beta_j"},
				{"platform.multicluster.clusters[].processors", "list of processor, or generator", "", "at least one", required, "the cluster's processors; or a generator that draws them"},
			},
		},
		{
			Title: "processor",
			Intro: "An item of platform.crossbar.processors and of platform.multicluster.clusters[].processors. Communication kinds: send and recv on a crossbar; intra-send, intra-recv, inter-send and inter-recv on a multi-cluster, with the aliases intra and inter for both directions.",
			Fields: []Field{
				{"processor.name", "word", "", "any", `"P<i>"`, "the name schedules, outputs and broadcast roots use (i: the processor's number)"},
				{"processor.gamma", "number", unitPerUnit, "> 0, finite", required, "compute time per unit of load, gamma"},
				{"processor.load", "number", unitLoad, ">= 0, finite", "0", "the load the processor holds at the start (divisible load)"},
				{"processor.overlap", "mapping", "", "communication kind → number", "none: no overlap (paper 000 §2.2)", "compute time per unit while a kind of communication is active; without it the processor stops computing while it communicates, paper 000's model, where HEFT, CPOP and the clustering policies assume overlap (the loader warns)"},
				{"processor.overlap.<kind>", "number", unitPerUnit, ">= gamma; .inf stops computing", ".inf", "gamma_k: compute time per unit while kind is active (consistent degradation, paper 000 §4.3)"},
				{"processor.combined", "list", "", "any", "none", "rates for sets of kinds active together, overriding consistent degradation"},
				{"processor.combined[].active", "list of words", "", "communication kinds of the platform, at least one", required, "the set of kinds active together"},
				{"processor.combined[].active[]", "word", "", "a communication kind or alias", required, "one kind of the set"},
				{"processor.combined[].gamma", "number", unitPerUnit, ">= gamma", required, "compute time per unit while exactly that set is active"},
			},
		},
		{
			Title: "generator",
			Intro: "A mapping written in place of the list of processors of a crossbar or a cluster: processors: {count: 1000000, seed: 1, gamma: {uniform: [0.05, 0.2]}, load: {choice: [0, 100]}, overlap: {send: gamma, recv: gamma}}. It takes every field a listed processor takes. A number is fixed, or drawn for each processor from {uniform: [lo, hi]} (uniformly in [lo, hi)) or {choice: [v1, v2, ...]} (each value as likely); every value it can give must be in the field's range.",
			Fields: []Field{
				{"generator.count", "whole number", "", ">= 1", required, "the number of processors, checked against --max-memory before they are drawn"},
				{"generator.seed", "whole number", "", ">= 0", "0", "seed of the draws: the same generator draws the same processors on every run and machine (with per_run, on every run of the same seed); a sweep axis, as platform.crossbar.processors.seed"},
				{"generator.name", "word", "", "any", `"P<i>"`, "processor i is named name followed by i"},
				{"generator.gamma", "number or distribution", unitPerUnit, "> 0, finite", required, "each processor's compute time per unit of load"},
				{"generator.load", "number or distribution", unitLoad, ">= 0, finite", "0", "the load each processor holds at the start"},
				{"generator.per_run", "true or false", "", "true or false", "false", "true: every run draws its own processors, from the run's seed plus seed, so that seeds: N (or sweeping seed) compares N platforms; false: every run has the same ones"},
				{"generator.overlap", "mapping", "", "communication kind → number, distribution or gamma", "none: no overlap", "each processor's overlap, as a listed processor's"},
				{"generator.overlap.<kind>", "number, distribution or the word gamma", unitPerUnit, ">= gamma; .inf stops computing", ".inf", "gamma_k of each processor; gamma: its own gamma, so that it computes at full speed while it communicates"},
				{"generator.combined", "list", "", "any", "none", "each processor's combined rates, as a listed processor's"},
				{"generator.combined[].active", "list of words", "", "communication kinds of the platform, at least one", required, "the set of kinds active together"},
				{"generator.combined[].active[]", "word", "", "a communication kind or alias", required, "one kind of the set"},
				{"generator.combined[].gamma", "number", unitPerUnit, ">= gamma", required, "compute time per unit while exactly that set is active"},
			},
		},
		{
			Title: "platform.tree",
			Intro: "The network of paper 004: participants and relays joined by edges that form a tree. A transfer follows the unique path, at the least bandwidth on it, and reserves that bandwidth on every link.",
			Fields: []Field{
				{"platform.tree.nodes", "list", "", "at least one", required, "the nodes, numbered from 0 in this order"},
				{"platform.tree.nodes[].name", "word", "", "unique, not empty", required, "the node's name, used by edges and broadcast roots"},
				{"platform.tree.nodes[].relay", "true or false", "", "true, false", "false", "a relay (a switch) forwards but does not take part"},
				{"platform.tree.edges", "list", "", "exactly nodes − 1 edges joining every node, no cycle", required, "the links of the tree"},
				{"platform.tree.edges[].a", "word", "", "a node's name", required, "one end"},
				{"platform.tree.edges[].b", "word", "", "a node's name other than a", required, "the other end"},
				{"platform.tree.edges[].bandwidth", "number", unitRate, "> 0, finite", required, "bandwidth a→b (and b→a unless reverse is given)"},
				{"platform.tree.edges[].latency", "number", unitTime, ">= 0, finite", "0", "latency a→b (and b→a unless reverse is given)"},
				{"platform.tree.edges[].reverse", "mapping", "", "bandwidth and latency", "none: as a→b", "the parameters of b→a when they differ"},
				{"platform.tree.edges[].reverse.bandwidth", "number", unitRate, "> 0, finite", "the edge's bandwidth", "bandwidth b→a"},
				{"platform.tree.edges[].reverse.latency", "number", unitTime, ">= 0, finite", "0 when reverse is given", "latency b→a"},
				{"platform.tree.edges[].duplex", "word", "", "half, full", "full", "half: both directions share the a→b bandwidth"},
			},
		},
		{
			Title: "platform.network",
			Intro: "Hosts joined by links that transfers share (issue 38; docs/networks.md). Each host is a processor (the fields of Processor items, kinds send and recv). A transfer crosses the links of its route: without `--sharing`, it runs at the route's smallest bandwidth b, arrives Σ latency + a/b after its start, and holds every link of the route (one transfer per link at a time); under `--sharing maxmin` or `cm02` the transfers on a link share its bandwidth instead. Routes are given per pair of hosts, or follow the tree the links form between hosts and switches.",
			Fields: []Field{
				{"platform.network.hosts", "list", "", "at least one processor item, names unique", required, "the hosts, numbered from 0 in this order"},
				{"platform.network.switches", "list of words", "", "names unique among hosts and switches", "none", "switches: nodes that only forward, for routes derived from the tree of links"},
				{"platform.network.switches[]", "word", "", "not empty", required, "a switch's name"},
				{"platform.network.links", "list", "", "at least one", required, "the links, numbered from 0 in this order"},
				{"platform.network.links[].name", "word", "", "unique, not empty", required, "the link's name, used by routes and outputs"},
				{"platform.network.links[].a", "word", "", "a host or switch", "none (required without routes)", "one end, for routes derived from the tree of links"},
				{"platform.network.links[].b", "word", "", "a host or switch other than a", "none (required without routes)", "the other end"},
				{"platform.network.links[].bandwidth", "number", unitRate, "> 0, finite", required, "the bandwidth both directions share"},
				{"platform.network.links[].latency", "number", unitTime, ">= 0, finite", "0", "the latency a transfer crossing the link adds"},
				{"platform.network.routes", "list", "", "any; without it the links must form a tree", "none: the paths of the tree of links", "the route of each pair of hosts that exchange transfers"},
				{"platform.network.routes[].from", "word", "", "a host", required, "the sending host; the route also serves to → from, reversed, unless that pair has its own"},
				{"platform.network.routes[].to", "word", "", "a host other than from", required, "the receiving host"},
				{"platform.network.routes[].links", "list of words", "", "link names, each at most once, at least one", required, "the links crossed, in order"},
				{"platform.network.routes[].links[]", "word", "", "a link's name", required, "one link of the route"},
			},
		},
		{
			Title: "platform.delay",
			Intro: "The platform of paper 002: identical processors, no contention, and a uniform delay rho between a task and its successor on another processor.",
			Fields: []Field{
				{"platform.delay.rho", "number", unitTime, ">= 0, finite", "0", "communication delay rho between tasks on different processors"},
				{"platform.delay.processors", "whole number", "", ">= 0", "0", "number of processors; 0: unbounded. With a bound, the clustering policies map their clusters onto the processors (as on a crossbar); unclustered is refused when the graph has more tasks"},
			},
		},
		{
			Title: "platform.workstations",
			Intro: "The platform of paper 003: workstations running an SPMD program beside other users' jobs. A task of work w started at s ends at e with ∫ speed·(1 − share(t)) dt = w over [s, e]. Load information flows along the topology; a message takes latency, a migration of n tasks latency + n·per_task.",
			Fields: []Field{
				{"platform.workstations.processors", "list", "", "at least one", required, "the workstations, numbered from 0 in this order"},
				{"platform.workstations.processors[].name", "word", "", "unique", `"P<i>"`, "the workstation's name"},
				{"platform.workstations.processors[].speed", "number", unitSpeed, "> 0, finite", required, "work done per unit of time when unloaded"},
				{"platform.workstations.processors[].share", "number", unitFraction, "[0, 1)", "0", "constant share of the time other users' jobs take"},
				{"platform.workstations.processors[].profile", "word", "", "a name of profiles; not with share", `""`, "a time-varying external load instead of share"},
				{"platform.workstations.topology", "word", "", "tree, ring, complete, edges", "none: edges must then list the links (unless there is one processor)", "who sends load information to whom: tree (k's parent (k−1)/2), ring, complete graph, or the edges"},
				{"platform.workstations.edges", "list", "", "only with topology edges or none", "none", "explicit load-information edges"},
				{"platform.workstations.edges[].from", "word", "", "a processor's name", required, "the sender of load information"},
				{"platform.workstations.edges[].to", "word", "", "a processor's name other than from", required, "the receiver"},
				{"platform.workstations.edges[].both", "true or false", "", "true, false", "false", "to sends its own information to from as well"},
				{"platform.workstations.profiles", "list", "", "names unique", "none", "named piecewise-constant external loads"},
				{"platform.workstations.profiles[].name", "word", "", "unique, not empty", required, "the name processors refer to"},
				{"platform.workstations.profiles[].share", "number", unitFraction, "[0, 1)", "0", "the share from time 0"},
				{"platform.workstations.profiles[].steps", "list", "", "in increasing time, after 0", "none", "changes of the share"},
				{"platform.workstations.profiles[].steps[].at", "number", unitTime, "> the previous step's at (> 0), finite", required, "when the share changes"},
				{"platform.workstations.profiles[].steps[].share", "number", unitFraction, "[0, 1)", "0", "the share from at on"},
				{"platform.workstations.latency", "number", unitTime, ">= 0, finite", "0", "time of one message"},
				{"platform.workstations.per_task", "number", unitTime, ">= 0, finite", "0", "transfer time per migrated task"},
			},
		},
		{
			Title: "problem.divisible",
			Intro: "The multi-master divisible load of papers 000 and 001, on a crossbar or a multi-cluster: each processor starts with its load and the policies redistribute it.",
			Fields: []Field{
				{"problem.divisible.rounds", "whole number or word", "", ">= 1, or auto", "auto", "number of rounds R; auto lets the policy choose"},
				{"problem.divisible.collect_results", "true or false", "", "true, false", "false", "send results back to where each unit came from (paper 000 §4.1)"},
				{"problem.divisible.result_size", "number", "units of result per unit of load", ">= 0, finite", "0", "the results' size when collected"},
			},
		},
		{
			Title: "problem.dag",
			Intro: "A task graph: tasks with a weight and precedence edges, listed or read from a file (a path relative to the scenario file) or generated. Give tasks and edges, or from, not both. Paper 002 uses unit weights and ignores data sizes.",
			Fields: []Field{
				{"problem.dag.tasks", "list", "", "at least one task", "required unless from is given", "the tasks, numbered from 0 in this order"},
				{"problem.dag.tasks[].name", "word", "", "any", `"t<i>"`, "the task's name in schedules and violations"},
				{"problem.dag.tasks[].weight", "number", unitTime, ">= 0, finite", "0", "the task's computation time"},
				{"problem.dag.edges", "list", "", "acyclic", "none", "precedence edges"},
				{"problem.dag.edges[].from", "whole number", "", "a task's number", "0", "the task that must finish first"},
				{"problem.dag.edges[].to", "whole number", "", "a task's number", "0", "the task that waits"},
				{"problem.dag.edges[].data", "number", unitLoad, ">= 0, finite", "0", "data size along the edge"},
				{"problem.dag.from", "mapping", "", "exactly one of stg, dot, wfcommons, fft, gauss", "none", "where the graph comes from when tasks are not listed"},
				{"problem.dag.from.stg", "path", "", "a Standard Task Graph Set file", `""`, "read an STG file (# CP Length and the like ignored)"},
				{"problem.dag.from.dot", "path", "", "a Graphviz digraph", `""`, "read a DOT file: node attribute weight (default 1), edge attribute data (default 0); other attributes are ignored with one warning"},
				{"problem.dag.from.wfcommons", "path", "", "a WfFormat 1.4–1.6 instance", `""`, "read a WfCommons workflow: runtimes become weights, the bytes of shared files edge data"},
				{"problem.dag.from.fft", "whole number", "", "a power of two >= 2", "0", "generate FFT(N) of paper 002 (2N − 1 + N·log2 N tasks)"},
				{"problem.dag.from.gauss", "whole number", "", ">= 2", "0", "generate GaussianElimination(m) of paper 002 ((m² + m − 2)/2 tasks)"},
				{"problem.dag.from.keep_dummies", "true or false", "", "true, false", "false", "keep an STG file's dummy entry and exit tasks (paper 002 counts them)"},
				{"problem.dag.from.unit_weights", "true or false", "", "true, false", "false", "set every task's weight to 1, as paper 002 does"},
			},
		},
		{
			Title: "problem.broadcast",
			Intro: "A message sent from its roots to every participant of a tree platform (paper 004).",
			Fields: []Field{
				{"problem.broadcast.roots", "list of words", "", "at least one participant's name", required, "the nodes that hold the message at the start"},
				{"problem.broadcast.roots[]", "word", "", "a participant (not a relay)", required, "one root"},
				{"problem.broadcast.size", "number", unitMessage, "> 0, finite", required, "the message's size"},
			},
		},
		{
			Title: "problem.balance",
			Intro: "A pool of equal tasks on a workstations platform (paper 003 §3.1): each processor starts with its own tasks and works until none is left, measuring its Power (tasks finished per interval) to balance the load online.",
			Fields: []Field{
				{"problem.balance.tasks", "whole number", "", ">= 0; at least one task in all", "0", "tasks each processor starts with"},
				{"problem.balance.counts", "list of whole numbers", "", "one per processor", "none: tasks each", "tasks processor i starts with, instead of tasks"},
				{"problem.balance.counts[]", "whole number", "", ">= 0", required, "one processor's tasks"},
				{"problem.balance.work", "number", unitWork, "> 0, finite", required, "work of one task (work/speed on an unloaded processor)"},
				{"problem.balance.interval", "number", unitTime, "> 0, finite", required, "the Power measurement interval"},
				{"problem.balance.jitter", "number", "", "[0, 1)", "0", "each task's work drawn with the run's seed from [work·(1 − jitter), work·(1 + jitter)]"},
			},
		},
		{
			Title: "policies[]",
			Intro: "An entry of policies is a bare name (`direct`) or a mapping with name and the policy's options (`{name: cross, k: 10}`). A label tells two variants of one policy apart (`{name: cross, label: cross-k5, k: 5}`): every output (tables, CSV, JSON, plots, schedule and Gantt file names) then uses the label, and sweep axes name the variant by it. Labels and unlabelled names are unique within a scenario. Each option is checked against the policy's declaration (see Policies): an unknown option, a wrong type or a value out of range is an error naming the file, line and field.",
			Fields: []Field{
				{"policies[].name", "word", "", "a registered policy that fits the problem and platform", required, "the policy (see Policies)"},
				{"policies[].label", "word", "", "letters, digits, - and _; unique; not platform or problem", "the name", "what outputs and sweep axes call this variant"},
				{"policies[].<option>", "as declared", "", "as declared", "as declared", "one of the policy's options (see Policies)"},
			},
		},
		{
			Title: "policies[] (exec)",
			Intro: "An external policy (issue 18): a program of yours, in any language, that reads the instance (platform, problem, options, seed; schemas/instance.schema.json) as one JSON object on stdin and writes a schedule (schemas/schedule.schema.json) on stdout. Its schedules are replayed and problem-checked like any built-in policy's. A non-zero exit, a timeout or malformed output is an error row naming the label, with the last lines of the program's stderr; a sweep goes on. Its label (as above) is required: it names the policy in every output. Running one means running that program with your rights: it can read, change and delete your files and use the network, as if you had typed its command. So netsched runs exec policies only when you say so, with --allow-exec on run, sweep and gantt (or the environment variable NETSCHED_ALLOW_EXEC=1, for scripts); without it a scenario naming one is refused when it is loaded (exit status 2, nothing run or written), with each program, its file and line. Read those lines before allowing them. verify never runs a policy. Examples: examples/python/.",
			Fields: []Field{
				{"policies[].exec", "list", "", "words; the first a program in the scenario's folder or in PATH", required, "the command, run in the scenario file's folder"},
				{"policies[].timeout", "duration", "", "> 0, e.g. 500ms, 60s, 2m, or a number of seconds", "60s", "how long one run may take before the program (its process group) is killed"},
				{"policies[].persistent", "true or false", "", "true, false", "false", "one process per sweep worker, one JSON object per line each way, instead of one process per run"},
				{"policies[].options", "mapping", "", "option names to numbers, words or true/false", "none", "passed to the program in the instance's options; a number can be swept as LABEL.OPTION"},
			},
		},
		{
			Title: "sweep",
			Intro: "Each key of sweep is an axis: a path and its values, a list of numbers or a \"start:stop:step\" range. `netsched sweep` runs every policy at every point of the axes' cross product; `netsched run` runs the scenario as written, without them. `--set PATH=VALUES` (repeatable) sweeps the axes it gives instead of the file's. The axes are checked when the file loads, by `run` too.",
			Fields: []Field{
				{"sweep.<path>", "list of numbers or range", "", "1 to 10000 finite numbers; each value checked as the field or option it sets", "none", "the values of one axis"},
			},
		},
	}
}

// Fields returns every declaration of Sections, in order.
func Fields() []Field {
	var all []Field
	for _, s := range Sections() {
		all = append(all, s.Fields...)
	}
	return all
}
