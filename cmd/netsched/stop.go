package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// Exit statuses of a command stopped before it finished, as GNU timeout
// and the shell give them: 124 when --timeout ran out, 128 + the signal's
// number when a signal stopped it: 130 (SIGINT) on Ctrl-C, 143 (SIGTERM)
// from kill, timeout or Slurm at the end of a job's time, 129 (SIGHUP)
// when its terminal closed.
const (
	exitTimeout   = 124
	exitInterrupt = 128 + int(syscall.SIGINT)
	exitTerm      = 128 + int(syscall.SIGTERM)
	exitHangup    = 128 + int(syscall.SIGHUP)
)

// stopSignals are the signals that stop a command cleanly: its context
// ends, it writes nothing half-way, removes its temporary files, and a
// sweep keeps its journal.
var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// signalled is the cause of a context that a signal ended.
type signalled struct{ sig syscall.Signal }

func (s signalled) Error() string { return "stopped by " + signalName(s.sig) }

// signalName names a stop signal as kill -l does, with SIG.
func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

// notifyStop returns a context that the first of stopSignals ends, with
// the signal as its cause; one the process was started with ignored (as
// nohup starts it with SIGHUP) stays ignored. After that signal, the
// signals have their default effect again, so a second one stops the
// process at once. stop releases the signals.
func notifyStop(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	var sigs []os.Signal
	for _, s := range stopSignals {
		// A signal the process was started with ignored (nohup ignores
		// SIGHUP, a shell's background job SIGINT) stays ignored:
		// Notify would catch it again.
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	signal.Notify(ch, sigs...)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			signal.Reset(sigs...)
			sig, _ := s.(syscall.Signal)
			cancel(signalled{sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

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
// (--timeout after d, or a signal) and what became of its work (kept);
// nil while the context is live.
func stopped(ctx context.Context, d time.Duration, kept string) error {
	if ctx.Err() == nil {
		return nil
	}
	cause := context.Cause(ctx)
	if errors.Is(cause, errTimeout) {
		return &stoppedError{code: exitTimeout, msg: fmt.Sprintf("stopped: --timeout %v reached; %s", d, kept)}
	}
	if s, ok := errors.AsType[signalled](cause); ok && s.sig != syscall.SIGINT {
		return &stoppedError{code: 128 + int(s.sig), msg: fmt.Sprintf("stopped by %s; %s", signalName(s.sig), kept)}
	}
	return &stoppedError{code: exitInterrupt, msg: "interrupted; " + kept}
}
