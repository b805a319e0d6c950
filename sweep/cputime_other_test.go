//go:build !unix

package sweep_test

// processCPUSeconds is −1 where the process's CPU time is not read.
func processCPUSeconds() float64 { return -1 }
