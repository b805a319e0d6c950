package plots

import (
	"strings"
)

// Quantity is a parameter or a metric as a figure names it: the name or
// symbol a paper uses for it, and its unit.
type Quantity struct {
	// Name is what the axis calls the quantity: "makespan", "β".
	Name string
	// Unit is its unit, "" for a pure number: "s", "s per unit of load".
	Unit string
}

// Label is the quantity's axis label: "makespan (s)", or the name alone
// when it has no unit.
func (q Quantity) Label() string {
	if q.Unit == "" {
		return q.Name
	}
	return q.Name + " (" + q.Unit + ")"
}

// LookupQuantity returns the quantity that a swept parameter or a metric
// of a results table stands for, named as in the scenario files and the
// results' columns:
//
//   - parameters: beta, alpha, gamma, rho, size, interval, latency,
//     bandwidth, work, jitter, rounds, tasks, k, and any dotted path
//     ending in one of them (platform.crossbar.processors[2].gamma is
//     "γ of processors[2]");
//   - metrics: simulated_makespan, claimed_makespan, gap, violations,
//     plan_seconds, shared_makespan, shared_ratio, and the policies' own metrics (metric.NAME or NAME:
//     lower_bound, nodes, gap_to_lp, tasks_migrated, ...).
//
// Times are in the model's time unit, which the bundled scenarios and
// the papers read as seconds. A name it does not know is returned as its
// own Name, without a unit, so an axis is never left unlabelled.
func LookupQuantity(name string) Quantity {
	base := strings.TrimPrefix(name, "metric.")
	if q, ok := knownQuantity(base); ok {
		return q
	}
	// A dotted path: label its last field, qualified by its owner when
	// that is an element of a list (processors[2]).
	if i := strings.LastIndexByte(base, '.'); i >= 0 {
		owner, field := base[:i], base[i+1:]
		if q, ok := knownQuantity(field); ok {
			if j := strings.LastIndexByte(owner, '.'); j >= 0 {
				owner = owner[j+1:]
			}
			if strings.HasSuffix(owner, "]") {
				q.Name += " of " + owner
			}
			return q
		}
	}
	return Quantity{Name: name}
}

// TaskTimes is the unit of model time on the delay platform (paper 002),
// whose task weights and delay ρ count in the time of a unit task.
const TaskTimes = "task times"

// InTimeUnit returns q with its unit of model time, "s", replaced by
// timeUnit (such as TaskTimes), so that a makespan on the delay platform
// reads "makespan (task times)" as the Gantt charts' time axis does.
// Other units, "s of CPU" among them, stay; an empty timeUnit keeps
// seconds.
func (q Quantity) InTimeUnit(timeUnit string) Quantity {
	if q.Unit == "s" && timeUnit != "" {
		q.Unit = timeUnit
	}
	return q
}

// LookupQuantityIn is LookupQuantity for a figure of a platform whose model
// time counts in timeUnit: "" (seconds) on most platform kinds, TaskTimes
// on the delay platform.
func LookupQuantityIn(name, timeUnit string) Quantity {
	return LookupQuantity(name).InTimeUnit(timeUnit)
}

// knownQuantity is the table of quantities, declared once for every
// figure: parameters in the papers' symbols, metrics in words.
func knownQuantity(name string) (Quantity, bool) {
	switch name {
	// Parameters of platforms and problems.
	case "beta":
		return Quantity{"β", "s per unit of load"}, true
	case "alpha":
		return Quantity{"α", "s per message"}, true
	case "gamma":
		return Quantity{"γ", "s per unit of load"}, true
	case "rho":
		return Quantity{"ρ", TaskTimes}, true
	case "size":
		return Quantity{"message size", "units"}, true
	case "interval":
		return Quantity{"balancing interval", "s"}, true
	case "latency":
		return Quantity{"latency", "s"}, true
	case "bandwidth":
		return Quantity{"bandwidth", "units per s"}, true
	case "work":
		return Quantity{"work per task", "s"}, true
	case "jitter":
		return Quantity{"work jitter", ""}, true
	case "rounds":
		return Quantity{"rounds R", ""}, true
	case "tasks":
		return Quantity{"tasks", ""}, true
	case "k":
		return Quantity{"K", ""}, true
	// Metrics of every row, and model time.
	case "time":
		return Quantity{"time", "s"}, true
	case "simulated_makespan", "makespan":
		return Quantity{"makespan", "s"}, true
	case "claimed_makespan":
		return Quantity{"claimed makespan", "s"}, true
	case "gap":
		return Quantity{"simulated − claimed makespan", "s"}, true
	case "violations":
		return Quantity{"violations", ""}, true
	case "plan_seconds":
		return Quantity{"planning time", "s of CPU"}, true
	case "shared_makespan":
		return Quantity{"makespan under sharing", "s"}, true
	case "shared_ratio":
		return Quantity{"makespan under sharing / ideal makespan", ""}, true
	// Metrics of policies.
	case "lower_bound":
		return Quantity{"lower bound", "s"}, true
	case "root_bound":
		return Quantity{"lower bound at the root", "s"}, true
	case "nodes":
		return Quantity{"search nodes", ""}, true
	case "gap_to_lp":
		return Quantity{"gap to the LP bound", ""}, true
	case "lp_bound":
		return Quantity{"LP bound", "s"}, true
	case "latest_start":
		return Quantity{"latest start time(S)", "s"}, true
	case "clusters":
		return Quantity{"clusters", ""}, true
	case "tasks_migrated":
		return Quantity{"tasks migrated", ""}, true
	case "migrations":
		return Quantity{"migrations", ""}, true
	case "messages":
		return Quantity{"messages", ""}, true
	case "transfers":
		return Quantity{"transfers", ""}, true
	case "slots":
		return Quantity{"slots", ""}, true
	case "relays":
		return Quantity{"relays", ""}, true
	}
	return Quantity{}, false
}

// RatioLabel is the axis label of a metric divided by a baseline policy's
// at the same point and seed: "makespan relative to no-redistribution"; with
// speedup, the baseline's divided by each policy's: "speed-up over
// no-redistribution", which for a metric other than the makespan says
// which ("speed-up over sequential (planning time)").
func RatioLabel(metric, baseline string, speedup bool) string {
	q := LookupQuantity(metric)
	if speedup {
		if q.Name == "makespan" {
			return "speed-up over " + baseline
		}
		return "speed-up over " + baseline + " (" + q.Name + ")"
	}
	return q.Name + " relative to " + baseline
}
