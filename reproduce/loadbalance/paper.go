package loadbalance

import (
	lb "github.com/netsched/netsched/policies/loadbalance"
)

// PaperRow is one row of Tables 1 and 2 of paper 003 (§3.3): a method's
// finish time (s) and tasks processed on each of P0…P6.
type PaperRow struct {
	Policy string // loadbalance.Static or PowerDiff
	Finish []float64
	Tasks  []int
}

// PaperTables returns Tables 1 and 2 of paper 003, by policy: the static
// method, then the proposed one.
func PaperTables() []PaperRow {
	return []PaperRow{
		{Policy: lb.Static, Finish: []float64{52.97, 114.20, 54.83, 147.93, 45.68, 46.13, 137.70},
			Tasks: []int{107, 77, 121, 99, 101, 102, 93}},
		{Policy: lb.PowerDiff, Finish: []float64{68.29, 44.71, 52.79, 141.76, 55.52, 55.60, 103.24},
			Tasks: []int{150, 30, 116, 95, 119, 121, 69}},
	}
}
