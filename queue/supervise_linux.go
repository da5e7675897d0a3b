package queue

import "syscall"

// sysProcAttr makes a local worker die with the server that started it
// (Pdeathsig), so none is left behind by a server killed outright.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
