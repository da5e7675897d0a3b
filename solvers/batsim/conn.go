package batsim

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"
)

// Conn is the simulator's side of the request-reply exchange with a
// decision process: one request, one reply, in order.
type Conn interface {
	// Exchange sends msg and returns the reply. It fails when the reply
	// does not come within timeout, when ctx is done, or when the
	// decision process is gone (its error then says how it ended).
	Exchange(ctx context.Context, msg []byte, timeout time.Duration) ([]byte, error)
	// Close ends the exchange (and, for a started process, the process).
	Close() error
}

// goneWait bounds the wait for a started process to end after it closed
// its connection, to quote how it ended.
const goneWait = 5 * time.Second

// ErrTimeout is the error of an exchange whose reply did not come in time.
var ErrTimeout = errors.New("no reply within the timeout")

// zmqConn is a ZeroMQ REQ socket connected to the decision process's REP
// socket, as Batsim connects to its scheduler.
type zmqConn struct {
	sock   zmq4.Socket
	cancel context.CancelFunc
	// gone, when not nil, is closed when the decision process exits;
	// why then says how.
	gone <-chan struct{}
	why  func() error
	// over is closed when the decision process announced a frame over
	// the bound; overErr then says its size.
	over    chan struct{}
	overErr error
}

// dialZMQ connects a REQ socket to endpoint (tcp://host:port), retrying
// for up to wait while the decision process starts; gone (may be nil)
// stops the wait when the process exits first. A frame the decision
// process announces over maxReply bytes (MaxReplyBytes when 0) fails the
// exchange at once.
func dialZMQ(ctx context.Context, endpoint string, wait time.Duration, maxReply int64, gone <-chan struct{}, why func() error) (*zmqConn, error) {
	const retry = 20 * time.Millisecond
	registerOnce.Do(func() {
		if err := zmq4.RegisterTransport(limitedScheme, limitedTransport{transport.New("tcp")}); err != nil {
			panic(err)
		}
	})
	zc := &zmqConn{gone: gone, why: why, over: make(chan struct{})}
	var overOnce sync.Once
	lim := limitOf{max: maxReply, over: func(size uint64) {
		overOnce.Do(func() {
			if maxReply <= 0 {
				maxReply = MaxReplyBytes
			}
			zc.overErr = fmt.Errorf("the reply is %d bytes long; schedlab accepts at most %d bytes in one message (MaxReplyBytes)", size, maxReply)
			close(zc.over)
		})
	}}
	sctx, cancel := context.WithCancel(context.WithValue(context.WithoutCancel(ctx), limitKey{}, lim))
	sock := zmq4.NewReq(sctx, zmq4.WithDialerRetry(retry), zmq4.WithDialerMaxRetries(int(wait/retry)+1),
		zmq4.WithDialerTimeout(wait), zmq4.WithTimeout(wait))
	done := make(chan error, 1)
	go func() { done <- sock.Dial(limitedScheme + strings.TrimPrefix(endpoint, "tcp")) }()
	var err error
	select {
	case err = <-done:
	case <-gone:
		err = why()
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		cancel()
		sock.Close()
		return nil, fmt.Errorf("cannot connect to %s: %w", endpoint, err)
	}
	zc.sock, zc.cancel = sock, cancel
	return zc, nil
}

func (c *zmqConn) Exchange(ctx context.Context, msg []byte, timeout time.Duration) ([]byte, error) {
	if err := c.sock.Send(zmq4.NewMsg(msg)); err != nil {
		if c.gone != nil {
			select {
			case <-c.gone:
				return nil, c.why()
			default:
			}
		}
		return nil, fmt.Errorf("sending: %w", err)
	}
	type reply struct {
		m   zmq4.Msg
		err error
	}
	got := make(chan reply, 1)
	go func() {
		m, err := c.sock.Recv()
		got <- reply{m, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-got:
		if r.err != nil {
			select {
			case <-c.over:
				return nil, c.overErr
			default:
			}
			if c.gone != nil {
				// The connection closed: a process that is exiting does
				// so soon; its status and last output say why (a loaded
				// machine may take a while to reap it).
				select {
				case <-c.gone:
					return nil, c.why()
				case <-time.After(goneWait):
				}
			}
			return nil, fmt.Errorf("receiving: %w (the decision process closed the connection)", r.err)
		}
		if len(r.m.Frames) != 1 {
			return nil, fmt.Errorf("the reply has %d frames, want 1 (one JSON message)", len(r.m.Frames))
		}
		return r.m.Frames[0], nil
	case <-c.gone:
		return nil, c.why()
	case <-c.over:
		c.Close()
		return nil, c.overErr
	case <-timer.C:
		c.Close() // unblocks Recv; the run is over
		return nil, ErrTimeout
	case <-ctx.Done():
		c.Close()
		return nil, ctx.Err()
	}
}

func (c *zmqConn) Close() error {
	c.cancel()
	return c.sock.Close()
}
