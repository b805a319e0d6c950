package multicluster

import (
	"testing"

	"github.com/netsched/netsched/reproduce"
	"github.com/netsched/netsched/reproduce/reproducetest"
)

// TestRun runs paper 001's reproduction (about a second, so -short runs
// it whole): every file appears, and the sweeps are the committed ones.
func TestRun(t *testing.T) {
	dir := reproducetest.Run(t, "001", reproduce.Options{Jobs: 2},
		"multicluster-relay.csv", "multicluster-relay.png", "multicluster-beta.csv", "multicluster-beta-speedup.png", "gantt-relay-R8.png")
	for _, f := range []string{"multicluster-relay.csv", "multicluster-beta.csv"} {
		if reproducetest.Read(t, dir, f) != reproducetest.Committed(t, "multicluster", f) {
			t.Errorf("%s differs from results/multicluster/%s", f, f)
		}
	}
}
