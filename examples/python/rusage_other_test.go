//go:build !unix

package python_test

// childrenCPU is -1 where the children's CPU time is not read.
func childrenCPU() float64 { return -1 }
