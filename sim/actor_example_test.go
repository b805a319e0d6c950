package sim_test

import (
	"context"
	"fmt"

	"github.com/netsched/netsched/sim"
)

// The workstation of the Calendar.Spawn example written as actors: each
// loop of a process body becomes a turn that names itself as the turn to
// follow its wait, and the body's local variables become variables the
// turns share. The events, and so the output, are the same.
func ExampleCalendar_SpawnActor() {
	var c sim.Calendar

	var inbox sim.Mailbox[string]
	tasks, done := 5, 0
	var processTask sim.Turn
	processTask = func(a *sim.Actor) {
		if tasks > 0 {
			a.Wait(0.375, func(a *sim.Actor) { // one task
				done++
				tasks--
				processTask(a)
			})
		}
	}
	c.SpawnActor("ProcessingTask", processTask)

	last := 0
	var estimateLoad sim.Turn
	estimateLoad = func(a *sim.Actor) {
		if tasks > 0 {
			a.Wait(1, func(a *sim.Actor) {
				inbox.Send(fmt.Sprintf("Power %d", done-last))
				last = done
				estimateLoad(a)
			})
		}
	}
	c.SpawnActor("EstimateLoad", estimateLoad)

	var checkMessage func(a *sim.Actor, msg string)
	checkMessage = func(a *sim.Actor, msg string) {
		fmt.Printf("t=%g %s\n", a.Now(), msg)
		inbox.ReceiveThen(a, checkMessage)
	}
	c.SpawnActor("CheckMessage", func(a *sim.Actor) { inbox.ReceiveThen(a, checkMessage) })

	// CheckMessage still waits for a message at the end: an actor holds
	// no goroutine, so the calendar need not be closed.
	if err := c.Run(context.Background()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// t=1 Power 2
	// t=2 Power 3
}
