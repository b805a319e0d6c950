//go:build unix

// Package cputime reads the CPU time the process has used, for benchmarks
// that report how much of the machine a run got.
package cputime

import "syscall"

// Process is the CPU time the process has used, user and system, in
// seconds, or −1 if the system does not say.
func Process() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return -1
	}
	sec := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return sec(ru.Utime) + sec(ru.Stime)
}
