// Package sysmem tells how much memory the machine has and how much this
// process may take: its address-space and data limits (ulimit -v, -d) and
// its control group's memory limit (containers, Slurm's --mem), for the
// default memory budget of a run.
package sysmem

// Fallback is the memory assumed where the system does not say.
const Fallback = 8 << 30

// Total is the machine's physical memory in bytes, or Fallback where it
// cannot be read.
func Total() int64 {
	if n := total(); n > 0 {
		return n
	}
	return Fallback
}

// A Limit is one bound on the memory this process may take.
type Limit struct {
	// Name says what sets it, as its user knows it, such as "the
	// address-space limit (ulimit -v)".
	Name string
	// Bytes is the limit; Free is what it leaves this process now (the
	// limit less what the process, or its control group, already uses).
	Bytes, Free int64
}

// Limits returns the limits set on this process: RLIMIT_AS, RLIMIT_DATA,
// and the memory limit of its control group (cgroup v2 memory.max, or v1
// memory.limit_in_bytes, the least along its path). An unlimited one is
// left out; so are all where the system has none (not Linux).
func Limits() []Limit { return limits() }
