package main

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Exit statuses of a command stopped before it finished, as GNU timeout
// and the shell give them: 124 when --timeout ran out, 130 (128 + SIGINT)
// on Ctrl-C.
const (
	exitTimeout   = 124
	exitInterrupt = 130
)

// stoppedError is a command that --timeout or Ctrl-C stopped; code is its
// exit status.
type stoppedError struct {
	code int
	msg  string
}

func (e *stoppedError) Error() string { return e.msg }

// errTimeout is the cause of a context that --timeout ended.
var errTimeout = errors.New("--timeout reached")

// withTimeout bounds ctx by the --timeout flag's duration d; 0 is no
// bound.
func withTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc, error) {
	switch {
	case d < 0:
		return nil, nil, badInputf("--timeout: want a duration >= 0 such as 90s or 1h30m, got %v", d)
	case d == 0:
		ctx, cancel := context.WithCancel(ctx)
		return ctx, cancel, nil
	}
	ctx, cancel := context.WithTimeoutCause(ctx, d, errTimeout)
	return ctx, cancel, nil
}

// stopped is the error of a command whose context has ended, saying why
// (--timeout after d, or Ctrl-C) and what became of its work (kept); nil
// while the context is live.
func stopped(ctx context.Context, d time.Duration, kept string) error {
	if ctx.Err() == nil {
		return nil
	}
	if errors.Is(context.Cause(ctx), errTimeout) {
		return &stoppedError{code: exitTimeout, msg: fmt.Sprintf("stopped: --timeout %v reached; %s", d, kept)}
	}
	return &stoppedError{code: exitInterrupt, msg: "interrupted; " + kept}
}
