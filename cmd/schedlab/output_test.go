package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// kthTrace is the full KTH SP2 trace (28,490 records) the batch pins run on.
const kthTrace = "../../solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.swf.gz"

// reportDigest is the SHA-256 of a report's JSON with its wall_ms metric
// removed (the only value that changes from run to run), re-encoded with
// sorted keys and no indentation, so it pins the content and not the layout.
func reportDigest(t *testing.T, b []byte) string {
	t.Helper()
	var rep map[string]any
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("the report is not JSON: %v", err)
	}
	ms, _ := rep["metrics"].([]any)
	kept := ms[:0]
	for _, m := range ms {
		if m.(map[string]any)["name"] != "wall_ms" {
			kept = append(kept, m)
		}
	}
	rep["metrics"] = kept
	c, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(c)
	return hex.EncodeToString(sum[:])
}

// TestRunBatchOnKTHIsPinned pins what `schedlab run` writes for the batch
// simulation of the full KTH trace under each policy: every job's start,
// end and processors (the Batsim table), the metrics, the Gantt window,
// the usage plot and the notes. The digests are those of the reports the
// command wrote before its output and trace reading were rewritten for
// speed (80f68b4, with the report's time frame of issue 22 added: the
// usage plot in trace seconds, the frame, the notes in it; the same
// digests from the unchanged CLI of that branch; then utilization's
// "variants": ["batch"] of issue 22, the reports otherwise the same:
// without that field they give the earlier digests ffb890f5…, dad38841…,
// 340eccd4…); any change to a schedule or to the report's content changes
// them.
func TestRunBatchOnKTHIsPinned(t *testing.T) {
	want := map[string]string{
		"fcfs":         "39cf5f4d15c72775051d27813249ff4a06ed2c960123d46bc5cb97e4cc1f8695",
		"easy":         "cb62d6ea2b4449a8a50eac3dd4bf050c7f01f77da097e0ccd292fe3ac39537e8",
		"conservative": "25427b07d2eaa47af22dead1839b9a8df85c40ed1d8bb31f2e040be9e82e1780",
	}
	for _, policy := range []string{"fcfs", "easy", "conservative"} {
		out := filepath.Join(t.TempDir(), policy+".json")
		err := run(context.Background(), []string{"run", "--strategy", "cyclic", "--variant", "batch",
			"--workload", kthTrace, "--param", "policy=" + policy, "--out", out}, io.Discard, io.Discard)
		if err != nil {
			t.Fatalf("%s: %v", policy, err)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := reportDigest(t, b); got != want[policy] {
			t.Errorf("%s on KTH: report digest %s, want %s", policy, got, want[policy])
		}
	}
}

// TestRunWritesCompactJSONUnlessIndent: the report is compact by default
// and indented with --indent, the same JSON either way.
func TestRunWritesCompactJSONUnlessIndent(t *testing.T) {
	args := []string{"run", "--strategy", "cyclic", "--variant", "batch", "--workload",
		"../../solvers/formats/testdata/swf/KTH-SP2-1996-2.1-cln.first2000.swf", "--param", "policy=fcfs"}
	var compact, indented bytes.Buffer
	if err := run(context.Background(), args, &compact, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := run(context.Background(), append(args, "--indent"), &indented, io.Discard); err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(compact.Bytes(), []byte("\n")); n != 1 || !bytes.HasSuffix(compact.Bytes(), []byte("}\n")) {
		t.Errorf("the default output has %d newlines, want one line", n)
	}
	if !bytes.Contains(indented.Bytes(), []byte("\n  \"tables\": [\n")) {
		t.Errorf("--indent output is not indented: %.100s", indented.String())
	}
	if a, b := reportDigest(t, compact.Bytes()), reportDigest(t, indented.Bytes()); a != b {
		t.Error("the compact and indented reports differ")
	}
}
