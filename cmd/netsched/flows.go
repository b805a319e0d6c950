package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"strconv"

	"github.com/netsched/netsched/network"
)

// cmdFlows replays a flow file on its network under a sharing model and
// prints each flow's start, activation and end as CSV, in the file's
// order.
func cmdFlows(ctx context.Context, args []string, st streams) error {
	fs := newFlags("flows", "flows FILE.json [--model maxmin|cm02]", st.out)
	model := fs.String("model", "maxmin", "bandwidth sharing: maxmin (unweighted max-min) or cm02 (SimGrid's CM02: shares weighted by 1/latency, TCP window bound)")
	gamma := fs.Float64("gamma", network.DefaultGamma, "cm02's TCP window in bytes (SimGrid's network/TCP-gamma); 0 turns the bound off")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return badInputf("flows: want one FILE.json, got %d arguments", fs.NArg())
	}
	sharing, err := network.ParseSharing(*model)
	if err != nil {
		return badInputf("flows: --model: %w", err)
	}
	if !(*gamma >= 0) || math.IsInf(*gamma, 0) {
		return badInputf("flows: --gamma must be a finite number >= 0, got %v", *gamma)
	}
	if m, ok := sharing.(network.CM02); ok {
		m.Gamma = *gamma
		sharing = m
	}
	in, err := network.ReadFile(fs.Arg(0))
	if err != nil {
		return badInput(err)
	}
	times, err := network.Replay(ctx, &in.Network, in.Flows, sharing)
	if stop := stopped(ctx, 0, "nothing written"); stop != nil {
		return stop
	}
	if err != nil {
		return badInput(fmt.Errorf("%s: %w", fs.Arg(0), err))
	}
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	w.WriteString("flow,start,activation,end\n")
	for i, t := range times {
		fmt.Fprintf(w, "%d,%s,%s,%s\n", i, fmtFloat(t.Start), fmtFloat(t.Activation), fmtFloat(t.End))
	}
	w.Flush()
	_, err = st.out.Write(buf.Bytes())
	return err
}

// fmtFloat writes x exactly: the shortest decimal that reads back as x.
func fmtFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
