package queue

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"schedlab/queue/wire"
)

// smallFS mounts a 16 MiB tmpfs for the test; it needs root (Linux).
// Where it cannot mount one the test is skipped, and fails instead under
// SCHEDLAB_REQUIRE_TMPFS=1, which .ci/run (run as root) sets.
func smallFS(t *testing.T) string {
	t.Helper()
	cannot := t.Skipf
	if os.Getenv("SCHEDLAB_REQUIRE_TMPFS") != "" {
		cannot = t.Fatalf
	}
	if os.Geteuid() != 0 {
		cannot("a real full disk needs a small file system, which needs root to mount: not root here")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", dir).CombinedOutput(); err != nil {
		cannot("cannot mount a small tmpfs (%v: %s)", err, out)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	return dir
}

func TestHealRestoresJetStreamAfterTheDiskWasFull(t *testing.T) {
	t.Parallel()
	dir := smallFS(t)
	emb, err := StartEmbedded(EmbeddedOptions{Dir: filepath.Join(dir, "nats")})
	if err != nil {
		t.Fatal(err)
	}
	defer emb.Shutdown()
	nc, err := emb.Connect("test")
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := Setup(ctx, js, Config{}); err != nil {
		t.Fatal(err)
	}
	n := 0
	publish := func() error {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		n++
		_, err := js.Publish(pctx, wire.ResultSubjectPrefix+"r"+string(rune('a'+n)), make([]byte, 4096))
		return err
	}
	if err := publish(); err != nil {
		t.Fatal(err)
	}
	if bad, err := emb.Heal(); len(bad) != 0 || err != nil {
		t.Fatalf("Heal of a healthy server: %q, %v", bad, err)
	}

	// Fill the file system, then publish until JetStream meets it.
	filler := filepath.Join(dir, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	for buf := make([]byte, 1<<20); ; {
		if _, err := f.Write(buf); err != nil {
			break
		}
	}
	f.Close()
	var failed error
	for range 20 {
		if failed = publish(); failed != nil {
			break
		}
	}
	if failed == nil {
		t.Fatal("20 messages were stored on a full file system")
	}
	os.Remove(filler)
	if err := publish(); err == nil {
		t.Fatal("JetStream took a message after its write error without a restart: the wedge this heals is gone; revisit Heal")
	}
	if len(emb.WriteErrors()) == 0 {
		t.Fatal("the write error is not reported")
	}
	bad, err := emb.Heal()
	if err != nil || len(bad) == 0 {
		t.Fatalf("Heal: %q, %v", bad, err)
	}
	if err := publish(); err != nil {
		t.Fatalf("publishing after Heal: %v", err)
	}
	if w := emb.WriteErrors(); len(w) != 0 {
		t.Errorf("write errors after Heal: %q", w)
	}
	s, err := js.Stream(ctx, wire.ResultsStream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs < 2 {
		t.Errorf("the results stream holds %d messages after Heal: the first (stored before the disk filled) is lost", info.State.Msgs)
	}
}
