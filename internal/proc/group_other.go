//go:build !unix

package proc

import (
	"os/exec"
	"time"
)

// InOwnGroup does nothing: without process groups, stopping a command
// stops only its first process.
func InOwnGroup(*exec.Cmd) {}

// TerminateGroup kills cmd's process.
func TerminateGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

// KillGroup kills cmd's process.
func KillGroup(cmd *exec.Cmd) { TerminateGroup(cmd) }

// GroupGone reports true: there is no group to wait for.
func GroupGone(*exec.Cmd, time.Duration) bool { return true }
