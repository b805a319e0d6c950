//go:build unix

package python_test

import "syscall"

// childrenCPU is the CPU time, user and system, in seconds, of the
// process's children that have ended, or -1 if the system does not say.
func childrenCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return -1
	}
	sec := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return sec(ru.Utime) + sec(ru.Stime)
}
