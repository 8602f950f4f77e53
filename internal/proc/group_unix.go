//go:build unix

package proc

import (
	"os/exec"
	"syscall"
	"time"
)

// InOwnGroup makes cmd the leader of a new process group, so that stopping
// it also stops what it started (`go run` runs a child binary, a shell runs
// the real server, a Playwright server runs browsers).
func InOwnGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends sig to cmd's process group.
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
}

// TerminateGroup asks cmd's process group to end (SIGTERM).
func TerminateGroup(cmd *exec.Cmd) { signalGroup(cmd, syscall.SIGTERM) }

// KillGroup kills cmd's process group (SIGKILL).
func KillGroup(cmd *exec.Cmd) { signalGroup(cmd, syscall.SIGKILL) }

// GroupGone waits until no process of cmd's group is left, up to d.
func GroupGone(cmd *exec.Cmd, d time.Duration) bool {
	if cmd.Process == nil {
		return true
	}
	deadline := time.Now().Add(d)
	for {
		if syscall.Kill(-cmd.Process.Pid, 0) != nil {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}
