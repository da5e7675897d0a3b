package queue

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
)

// EmbeddedOptions configure the NATS server schedlab starts in its own
// process.
type EmbeddedOptions struct {
	// Dir holds the JetStream store (Dir/jetstream) and, unless SeedFile
	// is set, the credential (Dir/worker.nk); created if missing.
	Dir string
	// Listen is the host:port clients connect to (workers). Empty: a free
	// port on 127.0.0.1, reachable from this machine only.
	Listen string
	// SeedFile is the NKey user seed clients authenticate with; created
	// (mode 0600) when missing. Empty: Dir/worker.nk.
	SeedFile string
	// MaxPayload is the largest message, in bytes (8 MiB); a report
	// larger than it less 64 KiB goes through ReportsBucket.
	MaxPayload int32
}

// Embedded is a running embedded NATS server with JetStream.
type Embedded struct {
	Server *server.Server
	// URL is the address workers connect to (nats://host:port).
	URL string
	// SeedFile is the credential workers need: schedlab worker --creds SeedFile.
	SeedFile string

	serverKey nkeys.KeyPair // the server's own: every subject; never leaves the process
	auth      *embeddedAuth
}

// maxPayload is the largest message of the embedded server: 8 MiB, the
// most NATS advises; a larger report goes through ReportsBucket.
const maxPayload = 8 << 20

// StartEmbedded starts a NATS server with JetStream stored in opt.Dir and
// waits until it accepts connections. It accepts two kinds of clients
// (auth.go): the schedlab server, with a key made now that never leaves
// this process (Connect), and workers holding the NKey seed of
// opt.SeedFile, each limited to WorkerPermissions of a key of its own
// (ConnectWorker).
func StartEmbedded(opt EmbeddedOptions) (*Embedded, error) {
	if opt.Dir == "" {
		return nil, errors.New("queue: no directory for the embedded NATS server")
	}
	if err := os.MkdirAll(opt.Dir, 0o700); err != nil {
		return nil, err
	}
	if opt.SeedFile == "" {
		opt.SeedFile = filepath.Join(opt.Dir, "worker.nk")
	}
	pub, err := ensureSeed(opt.SeedFile)
	if err != nil {
		return nil, err
	}
	serverKey, err := nkeys.CreateUser()
	if err != nil {
		return nil, err
	}
	serverPub, err := serverKey.PublicKey()
	if err != nil {
		return nil, err
	}
	auth := &embeddedAuth{serverKey: serverPub, workerKey: pub}
	host, port := "127.0.0.1", -1 // -1: a free port
	if opt.Listen != "" {
		h, p, err := net.SplitHostPort(opt.Listen)
		if err != nil {
			return nil, fmt.Errorf("--nats-listen %q: %v", opt.Listen, err)
		}
		if port, err = strconv.Atoi(p); err != nil {
			return nil, fmt.Errorf("--nats-listen %q: port: %v", opt.Listen, err)
		}
		if h != "" {
			host = h
		} else {
			host = "0.0.0.0"
		}
	}
	ns, err := server.NewServer(&server.Options{
		ServerName: "schedlab",
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   filepath.Join(opt.Dir, "jetstream"),
		MaxPayload: cmp.Or(opt.MaxPayload, maxPayload),
		// Every client signs the server's nonce (auth.go checks it).
		CustomClientAuthentication: auth,
		AlwaysEnableNonce:          true,
		NoSigs:                     true,
		NoLog:                      true,
	})
	if err != nil {
		return nil, fmt.Errorf("queue: embedded NATS server: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("queue: the embedded NATS server did not start listening on %s:%d", host, port)
	}
	url := ns.ClientURL()
	if host == "0.0.0.0" || host == "::" {
		// ClientURL names the wildcard; workers elsewhere use this host's name.
		if name, err := os.Hostname(); err == nil {
			_, p, _ := net.SplitHostPort(strings.TrimPrefix(url, "nats://"))
			url = "nats://" + net.JoinHostPort(name, p)
		}
	}
	return &Embedded{Server: ns, URL: url, SeedFile: opt.SeedFile, serverKey: serverKey, auth: auth}, nil
}

// Connect connects the schedlab server to the embedded server in process
// (no TCP), with the server's key: every subject.
func (e *Embedded) Connect(name string) (*nats.Conn, error) {
	pub, err := e.serverKey.PublicKey()
	if err != nil {
		return nil, err
	}
	return connect(e.URL, name, nats.InProcessServer(e.Server), nats.Nkey(pub, e.serverKey.Sign))
}

// Shutdown stops the server and waits until it has.
func (e *Embedded) Shutdown() {
	e.Server.Shutdown()
	e.Server.WaitForShutdown()
}

// ensureSeed reads the NKey user seed of file, making one (mode 0600)
// when the file does not exist, and returns its public key.
func ensureSeed(file string) (string, error) {
	b, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		kp, err := nkeys.CreateUser()
		if err != nil {
			return "", err
		}
		seed, err := kp.Seed()
		if err != nil {
			return "", err
		}
		if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
			return "", err
		}
		f, err := os.OpenFile(file, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			return "", err
		}
		if _, err := f.Write(append(seed, '\n')); err != nil {
			f.Close()
			return "", err
		}
		if err := f.Close(); err != nil {
			return "", err
		}
		return kp.PublicKey()
	}
	if err != nil {
		return "", err
	}
	kp, err := nkeys.ParseDecoratedNKey(b)
	if err != nil {
		return "", fmt.Errorf("credential %s: %w", file, err)
	}
	pub, err := kp.PublicKey()
	if err != nil {
		return "", fmt.Errorf("credential %s: %w", file, err)
	}
	if !nkeys.IsValidPublicUserKey(pub) {
		return "", fmt.Errorf("credential %s: not an NKey user seed", file)
	}
	return pub, nil
}

// Connect connects to the NATS server at url as name, reconnecting for
// ever when the connection drops. creds is an NKey user seed file or a
// NATS .creds file (a user JWT and its seed, as an operator-managed
// deployment issues); empty for none. Workers use ConnectWorker.
func Connect(url, creds, name string, extra ...nats.Option) (*nats.Conn, error) {
	opts, err := credsOptions(creds)
	if err != nil {
		return nil, err
	}
	return connect(url, name, append(opts, extra...)...)
}

// ConnectWorker connects a worker as Connect does. With an NKey seed (as
// StartEmbedded writes) it first connects with a key of its own besides
// (auth.go), which it returns: the embedded server then grants it
// WorkerPermissions of that key. A server that refuses that (a NATS
// deployment of your own, whose permissions are yours to set, see
// docs/scale-out.md) is connected to with the seed alone, and the key is "".
func ConnectWorker(url, creds, name string, extra ...nats.Option) (*nats.Conn, string, error) {
	if creds != "" {
		b, err := os.ReadFile(creds)
		if err != nil {
			return nil, "", fmt.Errorf("--creds: %w", err)
		}
		if !strings.Contains(string(b), "BEGIN NATS USER JWT") {
			opts, key, err := workerOptions(b)
			if err != nil {
				return nil, "", fmt.Errorf("--creds %s: %w", creds, err)
			}
			nc, err := connect(url, name, append(opts, extra...)...)
			if err == nil {
				return nc, key, nil
			}
			if !errors.Is(err, nats.ErrAuthorization) {
				return nil, "", err
			}
		}
	}
	nc, err := Connect(url, creds, name, extra...)
	return nc, "", err
}

func connect(url, name string, extra ...nats.Option) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name(name), nats.MaxReconnects(-1), nats.ReconnectWait(250 * time.Millisecond),
		nats.ReconnectBufSize(64 << 20)}
	nc, err := nats.Connect(url, append(opts, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("connecting to NATS at %s: %w", url, err)
	}
	return nc, nil
}

// credsOptions are the options of the credential file creds.
func credsOptions(creds string) ([]nats.Option, error) {
	var opts []nats.Option
	if creds != "" {
		b, err := os.ReadFile(creds)
		if err != nil {
			return nil, fmt.Errorf("--creds: %w", err)
		}
		if strings.Contains(string(b), "BEGIN NATS USER JWT") {
			opts = append(opts, nats.UserCredentials(creds))
		} else {
			o, err := nats.NkeyOptionFromSeed(creds)
			if err != nil {
				return nil, fmt.Errorf("--creds %s: %w", creds, err)
			}
			opts = append(opts, o)
		}
	}
	return opts, nil
}

// waitFor retries f every interval until it succeeds or ctx is done.
func waitFor(ctx context.Context, interval time.Duration, f func() error) error {
	for {
		err := f()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%w (last error: %v)", ctx.Err(), err)
		case <-time.After(interval):
		}
	}
}
