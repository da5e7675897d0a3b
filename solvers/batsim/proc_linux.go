package batsim

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the decision process in a process group of its own, so
// that ending the group ends what it started too (a shell script's
// interpreter, a pool of workers), and asks the kernel to kill it if the
// server dies first (Pdeathsig; its own children are ended with the
// group by Close or Kill).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// killGroup kills the decision process's group (the process and every
// process it started that stayed in it).
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		cmd.Process.Kill()
	}
}
