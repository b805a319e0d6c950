//go:build !linux

package sysmem

func total() int64 { return 0 }

func limits() []Limit { return nil }
