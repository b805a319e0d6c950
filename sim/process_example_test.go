package sim_test

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/sim"
)

// A workstation in the manner of paper 003 §2.1: a ProcessingTask thread
// works through its queue, an EstimateLoad thread reports the tasks done
// per interval (its Power) every time unit, and a CheckMessage thread
// handles the messages that arrive.
func ExampleCalendar_Spawn() {
	var c sim.Calendar
	defer c.Close() // CheckMessage still waits for a message at the end

	var inbox sim.Mailbox[string]
	tasks, done := 5, 0
	c.Spawn("ProcessingTask", func(p *sim.Process) {
		for ; tasks > 0; tasks-- {
			p.Wait(0.375) // one task
			done++
		}
	})
	c.Spawn("EstimateLoad", func(p *sim.Process) {
		for last := 0; tasks > 0; {
			p.Wait(1)
			inbox.Send(fmt.Sprintf("Power %d", done-last))
			last = done
		}
	})
	c.Spawn("CheckMessage", func(p *sim.Process) {
		for {
			msg := inbox.Receive(p)
			fmt.Printf("t=%g %s\n", p.Now(), msg)
		}
	})
	if err := c.Run(context.Background()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// t=1 Power 2
	// t=2 Power 3
}
