//go:build !linux

package batsim

import "os/exec"

// ownGroup: process groups are Linux-only here; elsewhere the process
// alone is ended.
func ownGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
