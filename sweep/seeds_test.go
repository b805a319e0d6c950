package sweep

import "testing"

// TestSeedsChangeNothing: a sweep whose seeds repeat every result is
// told apart from one where a seed changes one run, and from one seed.
func TestSeedsChangeNothing(t *testing.T) {
	row := func(point float64, policy string, seed uint64, makespan float64) *Row {
		return &Row{Point: []float64{point}, Policy: policy, Seed: seed, Claimed: makespan, Simulated: makespan,
			Metrics: map[string]float64{"R": 3}}
	}
	same := []*Row{row(1, "a", 1, 5), row(1, "a", 2, 5), row(1, "b", 1, 7), row(1, "b", 2, 7), row(2, "a", 1, 9), row(2, "a", 2, 9)}
	if !SeedsChangeNothing(same) {
		t.Error("identical runs per point and policy: want true")
	}
	differ := append(same[:5:5], row(2, "a", 2, 9.5))
	if SeedsChangeNothing(differ) {
		t.Error("one run differs by its seed: want false")
	}
	metric := append(same[:5:5], row(2, "a", 2, 9))
	metric[5].Metrics = map[string]float64{"R": 4}
	if SeedsChangeNothing(metric) {
		t.Error("one metric differs by its seed: want false")
	}
	if SeedsChangeNothing([]*Row{row(1, "a", 1, 5), row(2, "a", 1, 6)}) {
		t.Error("one seed: want false")
	}
}
