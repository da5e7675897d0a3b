package main

import (
	"context"
	"log"
	"os"
	"schedlab/runtypes"
	"strings"
	"sync"

	"github.com/nats-io/nats.go"

	"schedlab/queue"
	"schedlab/queue/wire"
	"schedlab/solvers"
	"schedlab/store"
)

// queueSide is serve's NATS side: the embedded server (unless --nats), the
// connection, the dispatcher and the local worker processes.
type queueSide struct {
	emb        *queue.Embedded
	nc         *nats.Conn
	dispatcher *queue.Dispatcher
	url, creds string

	stopSup context.CancelFunc
	supDone sync.WaitGroup
}

// startQueue connects to natsURL with creds, or starts the embedded NATS
// server in DB.nats/ beside the database (on listen, or a free loopback
// port), and builds the dispatcher.
func startQueue(ctx context.Context, st *store.Store, dbPath, natsURL, creds, listen string, budget solvers.Budget, ended func()) (*queueSide, error) {
	q := &queueSide{url: natsURL, creds: creds}
	var err error
	if natsURL == "" {
		q.emb, err = queue.StartEmbedded(queue.EmbeddedOptions{Dir: dbPath + ".nats", Listen: listen})
		if err != nil {
			return nil, err
		}
		q.url, q.creds = q.emb.URL, q.emb.SeedFile
		q.nc, err = q.emb.Connect("schedlab server")
	} else {
		q.nc, err = wire.Connect(natsURL, creds, "schedlab server")
	}
	if err != nil {
		q.close()
		return nil, err
	}
	if q.emb != nil {
		go healQueue(ctx, q.emb, st)
	}
	log.Printf("schedlab: NATS at %s; more workers join with: schedlab worker --nats %s --creds %s", q.url, q.url, q.creds)
	q.dispatcher = queue.NewDispatcher(st, q.nc, queue.Config{Budget: budget, Ended: ended})
	return q, nil
}

// startWorkers starts and supervises n local worker processes; extra are
// more arguments for them (the registered schedulers).
func (q *queueSide) startWorkers(ctx context.Context, n int, extra []string) {
	if n == 0 {
		log.Printf("schedlab: --workers 0: runs wait for workers from other machines")
		return
	}
	exe, err := os.Executable()
	if err != nil {
		log.Printf("schedlab: cannot find this program to start workers (%v): runs wait for workers from other machines", err)
		return
	}
	args := []string{exe, "worker", "--nats", q.url, "--concurrency", "1"}
	if q.creds != "" {
		args = append(args, "--creds", q.creds)
	}
	args = append(args, extra...)
	sctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	q.stopSup = stop
	sup := &queue.Supervisor{Command: args, N: n}
	q.supDone.Add(1)
	go func() { defer q.supDone.Done(); sup.Run(sctx) }()
	log.Printf("schedlab: %d local worker processes", n)
}

// stopWorkers stops the local workers and waits for them.
func (q *queueSide) stopWorkers() {
	if q == nil || q.stopSup == nil {
		return
	}
	q.stopSup()
	q.supDone.Wait()
}

func (q *queueSide) close() {
	if q.nc != nil {
		q.nc.Drain()
	}
	if q.emb != nil {
		q.emb.Shutdown()
	}
}

// healQueue restarts the embedded JetStream when a full disk left its
// store unwritable (queue.Embedded.Heal), as soon as the database's disk
// is not full any more: NATS never clears such an error by itself.
func healQueue(ctx context.Context, emb *queue.Embedded, st *store.Store) {
	runtypes.Every(ctx, diskCheckInterval, func() {
		if st.Disk().Status().State == store.DiskFull {
			return // JetStream would meet the full disk again
		}
		if bad, err := emb.Heal(); err != nil {
			log.Printf("schedlab: restarting the queue's JetStream after write errors (%s): %v", strings.Join(bad, "; "), err)
		} else if len(bad) > 0 {
			log.Printf("schedlab: the queue's JetStream met write errors (%s): restarted it, the queue resumes", strings.Join(bad, "; "))
		}
	})
}
