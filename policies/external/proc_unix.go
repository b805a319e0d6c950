//go:build unix

package external

import (
	"os/exec"
	"syscall"
)

// ownGroup makes the process the leader of a new process group, so that
// killing the group reaches whatever it started.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the process group of a started process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		cmd.Process.Kill() // the group is gone; the process may not be
	}
}
