package batsim

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"
)

// VariantPrefix is how a registered scheduler's variant of the batch
// family begins: scheduler NAME is variant "external:NAME".
const VariantPrefix = "external:"

// DefaultTimeout is how long the simulator waits for one reply, and for a
// started decision process to accept the connection.
const DefaultTimeout = 60 * time.Second

// Scheduler is a decision process the operator registered: a command
// started for each run (with {endpoint} in its arguments), or the
// endpoint of one the user runs. A web request only ever names one.
type Scheduler struct {
	Name string
	// Command is the program and its arguments, split at spaces (no
	// shell); every "{endpoint}" is replaced by the endpoint the simulator
	// connects to (tcp://127.0.0.1:PORT, a free port).
	Command []string
	// Endpoint is tcp://host:port of a decision process already running.
	Endpoint string
	// Timeout is the wait for one reply (DefaultTimeout when 0). A
	// started process is waited for until it listens (DefaultTimeout or
	// Timeout, whichever is longer) or exits.
	Timeout time.Duration
	// MaxReply bounds one reply in bytes (MaxReplyBytes when 0).
	MaxReply int64
}

// Variant is the scheduler's variant name in the batch family.
func (s Scheduler) Variant() string { return VariantPrefix + s.Name }

// String is the registration as the flag reads it.
func (s Scheduler) String() string {
	if s.Endpoint != "" {
		return s.Name + "=" + s.Endpoint
	}
	return s.Name + "=" + strings.Join(s.Command, " ")
}

// ParseScheduler reads NAME=COMMAND or NAME=tcp://host:port (the
// --scheduler flag). A name is lower-case letters, digits, '-' and '_',
// starting with a letter; a command must hold {endpoint}.
func ParseScheduler(spec string) (Scheduler, error) {
	name, rest, ok := strings.Cut(spec, "=")
	name, rest = strings.TrimSpace(name), strings.TrimSpace(rest)
	if !ok || name == "" || rest == "" {
		return Scheduler{}, fmt.Errorf("--scheduler %q: want NAME=COMMAND (with {endpoint} in it) or NAME=tcp://host:port", spec)
	}
	if !validName(name) {
		return Scheduler{}, fmt.Errorf("--scheduler %q: the name %q must be lower-case letters, digits, '-' and '_', starting with a letter", spec, name)
	}
	if strings.HasPrefix(rest, "tcp://") {
		if err := checkEndpoint(rest); err != nil {
			return Scheduler{}, fmt.Errorf("--scheduler %q: %v", spec, err)
		}
		return Scheduler{Name: name, Endpoint: rest}, nil
	}
	if !strings.Contains(rest, "{endpoint}") {
		return Scheduler{}, fmt.Errorf("--scheduler %q: the command must take the endpoint to listen on as {endpoint} (e.g. python3 sched.py {endpoint})", spec)
	}
	return Scheduler{Name: name, Command: strings.Fields(rest)}, nil
}

// checkEndpoint accepts tcp://host:port.
func checkEndpoint(ep string) error {
	hp, ok := strings.CutPrefix(ep, "tcp://")
	if !ok {
		return fmt.Errorf("endpoint %q: want tcp://host:port", ep)
	}
	if _, port, err := net.SplitHostPort(hp); err != nil || port == "" {
		return fmt.Errorf("endpoint %q: want tcp://host:port", ep)
	}
	return nil
}

// EndpointScheduler is the one-off scheduler of `schedlab run
// --scheduler-endpoint`: named "cli".
func EndpointScheduler(endpoint string) (Scheduler, error) {
	if err := checkEndpoint(endpoint); err != nil {
		return Scheduler{}, fmt.Errorf("--scheduler-endpoint: %v", err)
	}
	return Scheduler{Name: "cli", Endpoint: endpoint}, nil
}

// validName is a scheduler's name: lower-case letters, digits, '-' and
// '_', starting with a letter, at most 40 bytes.
var validName = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,39}$`).MatchString

// CheckUnique refuses two registrations of one name.
func CheckUnique(scheds []Scheduler) error {
	seen := map[string]bool{}
	for _, s := range scheds {
		if seen[s.Name] {
			return fmt.Errorf("--scheduler: %q is registered twice", s.Name)
		}
		seen[s.Name] = true
	}
	return nil
}

// Open connects to the decision process: it starts the command on a free
// loopback port, or dials the endpoint. Close the Conn when done; it stops
// a started process.
func (s Scheduler) Open(ctx context.Context) (Conn, error) {
	wait := cmp.Or(max(s.Timeout, 0), DefaultTimeout)
	if s.Endpoint != "" {
		return dialZMQ(ctx, s.Endpoint, wait, s.MaxReply, nil, nil)
	}
	// A process this run starts is ready when it listens: its start-up
	// (an interpreter loading its modules on a loaded machine) is not
	// bounded by the reply timeout, only by its exiting or DefaultTimeout.
	return s.start(ctx, max(wait, DefaultTimeout))
}

// tail keeps the last bytes a process writes, for error messages.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailBytes = 2048

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailBytes:]...)
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimSpace(string(t.buf))
}

// procConn is the connection to a decision process this run started.
type procConn struct {
	*zmqConn
	cmd  *exec.Cmd
	gone chan struct{}
	once sync.Once
}

// start runs the command with {endpoint} replaced and connects to it.
func (s Scheduler) start(ctx context.Context, wait time.Duration) (Conn, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0") // a loopback port nobody listens on now
	if err != nil {
		return nil, fmt.Errorf("no free port for the decision process: %w", err)
	}
	endpoint := fmt.Sprintf("tcp://127.0.0.1:%d", l.Addr().(*net.TCPAddr).Port)
	l.Close()
	argv := make([]string, len(s.Command))
	for i, a := range s.Command {
		argv[i] = strings.ReplaceAll(a, "{endpoint}", endpoint)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	ownGroup(cmd)
	out := &tail{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start the decision process %q: %w", strings.Join(argv, " "), err)
	}
	gone := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(gone) }()
	why := func() error {
		<-gone
		msg := "the decision process exited"
		if waitErr != nil {
			msg = "the decision process ended: " + waitErr.Error()
		} else {
			msg += " (status 0)"
		}
		if t := out.String(); t != "" {
			msg += "; its last output: " + t
		}
		return errors.New(msg)
	}
	zc, err := dialZMQ(ctx, endpoint, wait, s.MaxReply, gone, why)
	if err != nil {
		killGroup(cmd)
		<-gone
		return nil, err
	}
	return &procConn{zmqConn: zc, cmd: cmd, gone: gone}, nil
}

// Close closes the socket, gives the process a moment to end by itself
// (it should, after SIMULATION_ENDS), then kills it. Whatever it started
// (its process group) ends with it.
func (p *procConn) Close() error {
	p.once.Do(func() {
		p.zmqConn.Close()
		select {
		case <-p.gone:
		case <-time.After(2 * time.Second):
		}
		killGroup(p.cmd)
		<-p.gone
	})
	return nil
}

// Kill stops the process and its group at once (a failed run does not
// wait for it).
func (p *procConn) Kill() {
	p.once.Do(func() {
		p.zmqConn.Close()
		killGroup(p.cmd)
		<-p.gone
	})
}
