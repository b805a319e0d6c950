package main

import (
	"context"
	"fmt"
	"math"

	"github.com/netsched/netsched/models"
	"github.com/netsched/netsched/plots"
	"github.com/netsched/netsched/runs/recorded"
)

// cmdReplayRecorded replays the recorded executions of WfCommons
// instances on the platform of their machines and compares the simulated
// makespan with the recorded one.
func cmdReplayRecorded(ctx context.Context, args []string, st streams) error {
	fs := newFlags("replay-recorded", "replay-recorded FILE.json... [flags]", st.out)
	bandwidth := fs.Float64("bandwidth", 1.25e8, "network bandwidth between two machines, bytes per second (β = 1/bandwidth)")
	memory := fs.Float64("memory", models.DefaultMemoryBandwidth, "bandwidth between two cores of one machine, bytes per second")
	alpha := fs.Float64("alpha", 0, "start-up latency of every transfer, seconds")
	ganttOut := fs.StringP("gantt", "o", "", "also draw the replay's Gantt chart to this file (.png, .svg, .pdf; one FILE only)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return badInputf("replay-recorded: want at least one WfCommons FILE.json")
	}
	if !(*bandwidth > 0) || math.IsInf(*bandwidth, 0) {
		return badInputf("replay-recorded: --bandwidth must be a finite number > 0, got %v", *bandwidth)
	}
	if !(*memory > 0) || math.IsInf(*memory, 0) {
		return badInputf("replay-recorded: --memory must be a finite number > 0, got %v", *memory)
	}
	if !(*alpha >= 0) || math.IsInf(*alpha, 0) {
		return badInputf("replay-recorded: --alpha must be a finite number >= 0, got %v", *alpha)
	}
	if *ganttOut != "" && fs.NArg() != 1 {
		return badInputf("replay-recorded: --gantt draws one FILE's replay, %d given", fs.NArg())
	}
	if err := checkPlotPath(*ganttOut); err != nil {
		return err
	}
	net := recorded.Network{Bandwidth: *bandwidth, Memory: *memory, Alpha: *alpha}
	var rows []*recorded.Run
	for _, file := range fs.Args() {
		in, err := recorded.Load(file, net)
		if err != nil {
			return badInput(err)
		}
		r, err := in.Replay(ctx)
		if err != nil {
			return err
		}
		rows = append(rows, r)
	}
	if *ganttOut != "" {
		r := rows[0]
		if err := plots.SaveGantt(r.Result.Trace, plots.GanttOptions{Title: "recorded: " + r.Name}, *ganttOut); err != nil {
			return err
		}
	}
	recorded.WriteTable(st.out, rows, net)
	for _, r := range rows {
		if !r.Verified {
			return fmt.Errorf("replay-recorded: the replay of %s is not verified: %v", r.Name, r.Result.Violations)
		}
	}
	return nil
}
