// Package sysmem tells how much memory the machine has, for the default
// memory budget of a run.
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
