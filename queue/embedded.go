package queue

import (
	"cmp"
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

	"schedlab/queue/wire"
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
	// larger than it less 64 KiB goes through wire.ReportsBucket.
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
// most NATS advises; a larger report goes through wire.ReportsBucket.
const maxPayload = 8 << 20

// StartEmbedded starts a NATS server with JetStream stored in opt.Dir and
// waits until it accepts connections. It accepts two kinds of clients
// (auth.go): the schedlab server, with a key made now that never leaves
// this process (Connect), and workers holding the NKey seed of
// opt.SeedFile, each limited to WorkerPermissions of a key of its own
// (wire.ConnectWorker).
func StartEmbedded(opt EmbeddedOptions) (*Embedded, error) {
	if opt.Dir == "" {
		return nil, errors.New("queue: no directory for the embedded NATS server")
	}
	if err := os.MkdirAll(opt.Dir, 0o700); err != nil {
		return nil, err
	}
	opt.SeedFile = cmp.Or(opt.SeedFile, filepath.Join(opt.Dir, "worker.nk"))
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
	return wire.Connect(e.URL, "", name, nats.InProcessServer(e.Server), nats.Nkey(pub, e.serverKey.Sign))
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
