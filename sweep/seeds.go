package sweep

import (
	"fmt"
	"maps"
)

// SeedsChangeNothing reports whether rows hold runs of two seeds or more
// and every run gave, whatever its seed, the same result as the other
// runs of its point and policy: the same claimed and simulated makespans,
// metrics and error. Such a sweep's seeds only repeat it, as when nothing
// in the scenario draws from the seed (a processor generator without
// per_run, a deterministic policy).
func SeedsChangeNothing(rows []*Row) bool {
	type key struct {
		point  string
		policy string
	}
	first := map[key]*Row{}
	seeds := map[uint64]bool{}
	for _, r := range rows {
		seeds[r.Seed] = true
		k := key{fmt.Sprint(r.Point), r.Policy}
		f, ok := first[k]
		if !ok {
			first[k] = r
			continue
		}
		if f.Claimed != r.Claimed || f.Simulated != r.Simulated || f.Error != r.Error || !maps.Equal(f.Metrics, r.Metrics) {
			return false
		}
	}
	return len(seeds) >= 2
}
