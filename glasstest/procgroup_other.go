//go:build !unix

package glasstest

import (
	"os/exec"
	"time"
)

// Without process groups, stopping a command stops only its first process.
func inOwnGroup(*exec.Cmd) {}

func terminateGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}

func killGroup(cmd *exec.Cmd) { terminateGroup(cmd) }

func groupGone(*exec.Cmd, time.Duration) bool { return true }
