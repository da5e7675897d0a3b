//go:build !linux

package queue

import "syscall"

func sysProcAttr() *syscall.SysProcAttr { return nil }
