package external

import (
	"errors"
	"fmt"
	"time"
)

// DefaultTimeout is how long a process may take over one planning when
// the scenario gives no timeout.
const DefaultTimeout = 60 * time.Second

// Spec says how to run an external policy.
type Spec struct {
	// Command is the program and its arguments, as exec.Command takes
	// them; the program is found in PATH unless it has a '/'.
	Command []string
	// Dir is the directory the process runs in, where relative paths of
	// Command resolve: the scenario file's. "" is netsched's own.
	Dir string
	// Timeout bounds one planning: from start (or the instance's line, when
	// persistent) to the end of the schedule. <= 0 means DefaultTimeout.
	Timeout time.Duration
	// Persistent keeps the process between plannings: one instance per
	// line in, one schedule per line out.
	Persistent bool
}

// Check reports whether the spec can be run: a command is given.
func (s Spec) Check() error {
	if len(s.Command) == 0 || s.Command[0] == "" {
		return errors.New("needs a program to run, e.g. exec: [python3, my_sched.py]")
	}
	if s.Timeout < 0 {
		return fmt.Errorf("timeout %v: must be positive", s.Timeout)
	}
	return nil
}

func (s Spec) timeout() time.Duration {
	if s.Timeout <= 0 {
		return DefaultTimeout
	}
	return s.Timeout
}
