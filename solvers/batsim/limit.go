package batsim

import (
	"context"
	"fmt"
	"net"
	"sync"

	"github.com/go-zeromq/zmq4/transport"
)

// MaxReplyBytes bounds one frame a decision process sends (64 MiB): the
// reply to a message with every job of a large trace in it is a few MB.
// ZeroMQ announces a frame's size before its body and zmq4 allocates the
// announced size at once, so the bound is checked on the announcement,
// before any allocation: a 300 MB reply (or a header announcing 2^62
// bytes) fails its run at once with the size named, instead of running
// until the time limit or taking the server's memory.
const MaxReplyBytes = 64 << 20

// limitedScheme is the zmq4 transport that checks the frame sizes on a TCP
// connection: the simulator dials "schedlab-tcp://host:port" where the
// user wrote tcp://host:port.
const limitedScheme = "schedlab-tcp"

var registerOnce sync.Once

// limitedTransport dials TCP and wraps the connection in a frameLimit
// whose bound and report come from the dial's context.
type limitedTransport struct{ transport.Transport }

type limitKey struct{}

// limitOf is what a dial's context carries: the bound and where to report
// a frame over it.
type limitOf struct {
	max  int64
	over func(size uint64)
}

func (t limitedTransport) Dial(ctx context.Context, d transport.Dialer, addr string) (net.Conn, error) {
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	l, _ := ctx.Value(limitKey{}).(limitOf)
	if l.max <= 0 {
		l.max = MaxReplyBytes
	}
	return &frameLimit{Conn: c, limit: l}, nil
}

// frameLimit follows the ZMTP 3 byte stream a peer sends (a 64-byte
// greeting, then frames: a flags byte, a size of 1 byte or of 8 when flag
// 0x02 is set, the body) and fails the read that brings a size over the
// bound, before zmq4 reads on and allocates it.
type frameLimit struct {
	net.Conn
	limit limitOf

	greet int    // greeting bytes still to come
	state uint8  // what the next byte is
	need  int    // size bytes still to read (long sizes)
	size  uint64 // the size being read
	body  uint64 // body bytes still to come
	err   error
}

const (
	stFlags uint8 = iota
	stShort
	stLong
	stBody
)

func (f *frameLimit) Read(p []byte) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.Conn.Read(p)
	for i := 0; i < n; i++ {
		if f.greet < 64 {
			f.greet++
			continue
		}
		b := p[i]
		switch f.state {
		case stFlags:
			if b&0x02 != 0 {
				f.state, f.need, f.size = stLong, 8, 0
			} else {
				f.state = stShort
			}
		case stShort:
			f.size = uint64(b)
			f.startBody()
		case stLong:
			f.size = f.size<<8 | uint64(b)
			if f.need--; f.need == 0 {
				if f.size > uint64(f.limit.max) {
					f.err = fmt.Errorf("the decision process sent a frame of %d bytes; a reply may have at most %d (MaxReplyBytes)", f.size, f.limit.max)
					if f.limit.over != nil {
						f.limit.over(f.size)
					}
					return 0, f.err
				}
				f.startBody()
			}
		case stBody:
			skip := min(f.body, uint64(n-i))
			i += int(skip) - 1
			if f.body -= skip; f.body == 0 {
				f.state = stFlags
			}
		}
	}
	return n, err
}

func (f *frameLimit) startBody() {
	f.body = f.size
	f.state = stBody
	if f.body == 0 {
		f.state = stFlags
	}
}
