package network

import (
	"context"
	"fmt"
	"math"
)

// Times is what happened to one flow: its start, activation (start plus
// route latency) and end, in seconds.
type Times struct {
	Start, Activation, End float64
}

// Replay simulates flows on n under sharing, all added at time 0, and
// returns each flow's times in the order of flows. An invalid flow is an
// error naming its index ("flows[3][4][1]: link 9 does not exist").
func Replay(ctx context.Context, n *Network, flows []Flow, sharing Sharing) ([]Times, error) {
	s, err := NewSim(n, sharing)
	if err != nil {
		return nil, err
	}
	for i, f := range flows {
		if err := n.ValidateFlow(f); err != nil {
			return nil, fmt.Errorf("flows[%d]%w", i, err)
		}
		if _, err := s.Add(f); err != nil {
			return nil, fmt.Errorf("flows[%d]: %w", i, err)
		}
	}
	for events := 0; !math.IsInf(s.Next(), 1); events++ {
		if events%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		s.Advance(s.Next())
	}
	times := make([]Times, len(flows))
	for i, f := range flows {
		end, _ := s.End(i)
		times[i] = Times{Start: f.Start, Activation: s.Activation(i), End: end}
	}
	return times, nil
}
