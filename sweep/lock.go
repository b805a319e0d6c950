package sweep

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// LockPath is the lock a sweep holds on its results file while it writes
// it: OUT.csv.lock, holding the pid, host and start of its holder.
func LockPath(out string) string { return out + ".lock" }

// outputLock is the exclusive lock of one sweep on its results file.
type outputLock struct {
	path string
	f    *os.File
}

// errLocked is what tryLock reports when another process holds the lock.
var errLocked = errors.New("locked")

// lockOutput takes the lock on out's results, or fails at once, naming the
// process that holds it. The lock is the operating system's lock on the
// open file (flock), so a process killed with the lock held frees it, and
// the next sweep takes the file over; the pid and host written in it are
// only for the message.
func lockOutput(out string) (*outputLock, error) {
	path := LockPath(out)
	for range 10 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o666)
		if err != nil {
			return nil, &OutputError{fmt.Errorf("cannot write %s: %w", out, err)}
		}
		switch err := tryLock(f); {
		case errors.Is(err, errLocked):
			holder, _ := os.ReadFile(path)
			f.Close()
			return nil, &OutputError{fmt.Errorf("%s is being written by another sweep (%s); wait for it to end, or choose another --out",
				out, describeHolder(string(holder)))}
		case err != nil:
			f.Close()
			return nil, err
		}
		if sameFile(f, path) { // not removed by its last holder in between
			host, _ := os.Hostname()
			f.Truncate(0)
			f.WriteString(fmt.Sprintf("pid=%d host=%s since=%s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339)))
			return &outputLock{path: path, f: f}, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("could not take the lock %s: it keeps being replaced", path)
}

// sameFile reports whether the open file f is still the file at path.
func sameFile(f *os.File, path string) bool {
	a, err1 := f.Stat()
	b, err2 := os.Stat(path)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// describeHolder turns a lock file's "pid=… host=… since=…" into words.
func describeHolder(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return "a process that has not yet written its pid"
	}
	return strings.NewReplacer("pid=", "pid ", "host=", "on ", "since=", "since ").Replace(s)
}

// unlock removes the lock file and lets go of the lock.
func (l *outputLock) unlock() error {
	err := os.Remove(l.path)
	return errors.Join(err, l.f.Close())
}
