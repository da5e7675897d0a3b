package queue

import (
	"cmp"
	"context"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"schedlab/runtypes"
	"sync"
	"syscall"
	"time"
)

// Supervisor keeps N local worker processes running: each is Command
// (typically os.Executable() and "worker --nats URL --creds FILE"), started
// again when it exits, after a pause that doubles while it keeps dying
// young (1 s up to 30 s).
type Supervisor struct {
	Command []string
	N       int
	// Stderr receives the workers' logs (os.Stderr).
	Stderr io.Writer
	Logger *slog.Logger
	// StopGrace is how long a worker has, after SIGTERM, to hand its runs
	// back before it is killed (10 s).
	StopGrace time.Duration

	mu    sync.Mutex
	procs map[int]*os.Process
}

// Run starts the workers and keeps them running until ctx is done, then
// stops them (SIGTERM, then SIGKILL after StopGrace) and returns.
func (s *Supervisor) Run(ctx context.Context) {
	s.Logger = cmp.Or(s.Logger, slog.Default())
	s.Stderr = cmp.Or[io.Writer](s.Stderr, os.Stderr)
	s.StopGrace = runtypes.OrDefault(s.StopGrace, 10*time.Second)
	s.procs = map[int]*os.Process{}
	var wg sync.WaitGroup
	for i := range s.N {
		wg.Add(1)
		go func() { defer wg.Done(); s.keep(ctx, i) }()
	}
	wg.Wait()
}

// keep runs worker i again and again until ctx is done.
func (s *Supervisor) keep(ctx context.Context, i int) {
	pause := time.Second
	for ctx.Err() == nil {
		start := time.Now()
		cmd := exec.Command(s.Command[0], s.Command[1:]...)
		cmd.Stdout, cmd.Stderr = s.Stderr, s.Stderr
		cmd.SysProcAttr = sysProcAttr()
		if err := cmd.Start(); err != nil {
			s.Logger.Error("schedlab: starting a worker", "err", err)
		} else {
			s.mu.Lock()
			s.procs[cmd.Process.Pid] = cmd.Process
			s.mu.Unlock()
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			var err error
			select {
			case err = <-exited:
			case <-ctx.Done():
				cmd.Process.Signal(syscall.SIGTERM)
				select {
				case <-exited:
				case <-time.After(s.StopGrace):
					cmd.Process.Kill()
					<-exited
				}
			}
			s.mu.Lock()
			delete(s.procs, cmd.Process.Pid)
			s.mu.Unlock()
			if ctx.Err() != nil {
				return
			}
			s.Logger.Warn("schedlab: a local worker exited; starting it again", "worker", i, "pid", cmd.Process.Pid, "err", err)
		}
		if time.Since(start) > time.Minute {
			pause = time.Second
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, 30*time.Second)
	}
}
