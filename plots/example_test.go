package plots_test

import (
	"context"
	"fmt"
	"image/png"
	"os"
	"path/filepath"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/replay"
	"github.com/netsched/netsched/sim"
)

// SaveGantt draws the Gantt chart of a replay's trace: one lane per
// processor, compute bars in its middle row, sends above and receives
// below. The extension of the path chooses the format.
func ExampleSaveGantt() {
	platform := &models.Platform{Crossbar: &models.Crossbar{
		Beta: 0.5, Duplex: models.HalfDuplex,
		Processors: []models.Processor{{Name: "fast", Gamma: 1}, {Name: "slow", Gamma: 2}},
	}}
	at := func(t float64) *float64 { return &t }
	s := &sim.Schedule{Claimed: 5, Actions: []sim.Action{
		{Kind: sim.Transfer, From: 0, To: 1, Amount: 2, Start: at(0), Label: "x"},
		{Kind: sim.Compute, Node: 1, Amount: 2, Start: at(1), After: []int{0}, Label: "x"},
		{Kind: sim.Compute, Node: 0, Amount: 3, Start: at(1), Label: "y"},
	}}
	res, err := replay.Replay(context.Background(), platform, s, sim.Timed)
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "gantt")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "gantt.png")
	if err := plots.SaveGantt(res.Trace, plots.GanttOptions{Title: "two processors"}, path); err != nil {
		fmt.Println(err)
		return
	}
	f, err := os.Open(path)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(res.Trace.Lanes), "lanes,", len(res.Trace.Intervals), "bars, makespan", res.Makespan)
	fmt.Printf("gantt.png: %d×%d pixels\n", cfg.Width, cfg.Height)
	// Output:
	// 2 lanes, 4 bars, makespan 5
	// gantt.png: 1050×246 pixels
}
