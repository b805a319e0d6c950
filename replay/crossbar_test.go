package replay

import (
	"github.com/netsched/netsched/internal/fixture"
	"testing"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/sim"
)

func TestReplayCrossbarPorts(t *testing.T) {
	half := fixture.Crossbar(models.HalfDuplex, 1, 0, fixture.Procs(3, 1)...)
	full := fixture.Crossbar(models.FullDuplex, 1, 0, fixture.Procs(3, 1)...)
	withAlpha := fixture.Crossbar(models.FullDuplex, 0.5, 0.25, fixture.Procs(2, 1)...)
	twoSends := []sim.Action{fixture.Transfer(0, 1, 2), fixture.Transfer(0, 2, 3)}
	sendRecv := []sim.Action{fixture.Transfer(0, 1, 2), fixture.Transfer(2, 0, 3)}
	runCases(t, []replayCase{
		{name: "half duplex: two sends serialize", platform: half, actions: twoSends, mode: sim.Ordered,
			starts: []float64{0, 2}, ends: []float64{2, 5}},
		{name: "half duplex: two sends at once conflict", platform: half, actions: timed([]float64{0, 0}, twoSends...), mode: sim.Timed,
			starts: []float64{0, 0}, ends: []float64{2, 3}, violations: []sim.Violation{v(sim.PortConflict, 1, "P0 port", 0)}},
		{name: "half duplex: two sends back to back", platform: half, actions: timed([]float64{0, 2}, twoSends...), mode: sim.Timed,
			starts: []float64{0, 2}, ends: []float64{2, 5}},
		{name: "half duplex: a send and a receive serialize", platform: half, actions: sendRecv, mode: sim.Ordered,
			starts: []float64{0, 2}, ends: []float64{2, 5}},
		{name: "full duplex: two sends serialize", platform: full, actions: twoSends, mode: sim.Ordered,
			starts: []float64{0, 2}, ends: []float64{2, 5}},
		{name: "full duplex: two sends at once conflict", platform: full, actions: timed([]float64{0, 1}, twoSends...), mode: sim.Timed,
			starts: []float64{0, 1}, ends: []float64{2, 4}, violations: []sim.Violation{v(sim.PortConflict, 1, "P0 send port", 1)}},
		{name: "full duplex: a send and a receive overlap", platform: full, actions: sendRecv, mode: sim.Ordered,
			starts: []float64{0, 0}, ends: []float64{2, 3}},
		{name: "full duplex: a send and a receive overlap, timed", platform: full, actions: timed([]float64{0, 0}, sendRecv...), mode: sim.Timed,
			starts: []float64{0, 0}, ends: []float64{2, 3}},
		{name: "full duplex: two receives conflict", platform: full,
			actions: timed([]float64{0, 1}, fixture.Transfer(0, 2, 2), fixture.Transfer(1, 2, 2)), mode: sim.Timed,
			ends: []float64{2, 3}, violations: []sim.Violation{v(sim.PortConflict, 1, "P2 recv port", 1)}},
		{name: "start-up latency: alpha + a beta", platform: withAlpha, actions: []sim.Action{fixture.Transfer(0, 1, 2), fixture.Transfer(0, 1, 4)}, mode: sim.Ordered,
			starts: []float64{0, 1.25}, ends: []float64{1.25, 3.5}},
		// P1 cannot compute while it receives during [0, 1]: its 3 units end at 4.
		{name: "after: a transfer waits for a computation suspended by a receive", platform: full,
			actions: []sim.Action{fixture.Compute(1, 3), fixture.Transfer(1, 2, 1, 0), fixture.Transfer(0, 1, 1)}, mode: sim.Ordered,
			starts: []float64{0, 4, 0}, ends: []float64{4, 5, 1}},
		{name: "list order: a ready transfer waits for one listed before it on its port", platform: full,
			actions: []sim.Action{fixture.Compute(1, 3), fixture.Transfer(1, 2, 1, 0), fixture.Transfer(0, 2, 1)}, mode: sim.Ordered,
			starts: []float64{0, 3, 4}, ends: []float64{3, 4, 5}},
	})
}

// The example: γ = 1 and γ_send = 2; computing 10 units while
// sending for 4 time units from t = 0: 4·½ + 8·1 → ends at 12.
func TestReplayOverlapRates(t *testing.T) {
	sender := models.Processor{Gamma: 1, Overlap: map[string]float64{models.KindSend: 2}}
	p := fixture.Crossbar(models.FullDuplex, 1, 0, sender, models.Processor{Gamma: 1})
	acts := []sim.Action{fixture.Compute(0, 10), fixture.Transfer(0, 1, 4)}

	// No overlap: computing stops while P0 sends during [2, 5]: 10 + 3.
	noOverlap := fixture.Crossbar(models.FullDuplex, 1, 0, fixture.Procs(2, 1)...)
	suspend := []sim.Action{fixture.Compute(0, 10), fixture.Compute(1, 2), fixture.Transfer(0, 1, 3, 1)}

	// Consistent degradation with two kinds: rates 1, ¾ sending, ½
	// receiving, ¼ both. P0 sends during [0, 2] and receives during [0, 4]:
	// 2·¼ + 2·½ = 1.5 units, 8.5 left at rate 1 → 12.5.
	deg := models.Processor{Gamma: 1, Overlap: map[string]float64{models.KindSend: 4.0 / 3, models.KindRecv: 2}}
	degP := fixture.Crossbar(models.FullDuplex, 1, 0, deg, models.Processor{Gamma: 1}, models.Processor{Gamma: 1})
	// An explicit combined rate 0.4 for {send, recv}: 2·0.4 + 2·½ = 1.8,
	// 8.2 left → 12.2.
	comb := deg
	comb.Combined = []models.CombinedRate{{Active: []string{models.KindRecv, models.KindSend}, Gamma: 2.5}}
	combP := fixture.Crossbar(models.FullDuplex, 1, 0, comb, models.Processor{Gamma: 1}, models.Processor{Gamma: 1})
	both := []sim.Action{fixture.Compute(0, 10), fixture.Transfer(0, 1, 2), fixture.Transfer(2, 0, 4)}

	var cases []replayCase
	for _, mode := range []sim.Mode{sim.Ordered, sim.Timed} {
		for _, c := range []replayCase{
			{name: "overlap send γ=2", platform: p, actions: acts, starts: []float64{0, 0}, ends: []float64{12, 4}},
			{name: "rate 0 suspends and resumes", platform: noOverlap, actions: suspend,
				starts: []float64{0, 0, 2}, ends: []float64{13, 2, 5}},
			{name: "consistent degradation, two kinds", platform: degP, actions: both,
				starts: []float64{0, 0, 0}, ends: []float64{12.5, 2, 4}},
			{name: "explicit combined rate", platform: combP, actions: both,
				starts: []float64{0, 0, 0}, ends: []float64{12.2, 2, 4}},
		} {
			c.name += " " + mode.String()
			c.mode = mode
			if mode == sim.Timed {
				c.actions = timed(c.starts, c.actions...)
			}
			cases = append(cases, c)
		}
	}
	runCases(t, cases)
}
