package formats

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/solvers"
)

// gzipBomb returns a multi-member gzip file whose members each inflate to
// 1 MiB of b: about 1 KB per MiB, so 1 GiB costs about 1 MB.
func gzipBomb(t testing.TB, b byte, mib int) []byte {
	t.Helper()
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	if _, err := zw.Write(bytes.Repeat([]byte{b}, 1<<20)); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return bytes.Repeat(member.Bytes(), mib)
}

func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

func TestReadSWFRefusesAGzipBombAtTheCap(t *testing.T) {
	bomb := gzipBomb(t, '\n', 1024) // 1 GiB of blank lines
	if len(bomb) > 4<<20 {
		t.Fatalf("the bomb is %d bytes compressed", len(bomb))
	}
	before := allocated()
	_, err := ReadSWFLimited(context.Background(), "bomb.swf.gz", bomb, SWFLimits{MaxBytes: 8 << 20})
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "bomb.swf.gz" || !strings.Contains(err.Error(), "larger than 8 MiB") {
		t.Errorf("1 GiB bomb under an 8 MiB cap: %v, want TooLarge on the file", err)
	}
	if d := allocated() - before; d > 64<<20 {
		t.Errorf("refusing the bomb allocated %d MiB", d>>20)
	}
	// The default cap (256 MiB) stops it too, before the 1 GiB.
	before = allocated()
	if _, err := ReadSWF("bomb.swf.gz", bomb); errs.KindOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "256 MiB") {
		t.Errorf("1 GiB bomb under the default cap: %v, want TooLarge", err)
	}
	if d := allocated() - before; d > 64<<20 {
		t.Errorf("refusing the bomb at the default cap allocated %d MiB: it should stream", d>>20)
	}
	// Zeros are not text: refused at the first block.
	zeros := gzipBomb(t, 0, 1024)
	if _, err := ReadSWF("zeros.swf.gz", zeros); errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != "zeros.swf.gz" {
		t.Errorf("1 GiB of zeros: %v, want Invalid on the file", err)
	}
	// A plain file of exactly the cap is read; one byte more is not.
	exact := []byte(strings.Repeat("\n", 100) + "1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n")
	if _, err := ReadSWFLimited(context.Background(), "e.swf", exact, SWFLimits{MaxBytes: int64(len(exact))}); err != nil {
		t.Errorf("a trace of exactly the cap: %v", err)
	}
	if _, err := ReadSWFLimited(context.Background(), "e.swf", exact, SWFLimits{MaxBytes: int64(len(exact) - 1)}); errs.KindOf(err) != errs.TooLarge {
		t.Errorf("a trace one byte over the cap: %v", err)
	}
}

func swfLines(n int) string {
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d %d 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n", i, i)
	}
	return b.String()
}

func TestReadSWFStopsAtTheRecordLimitWhileReading(t *testing.T) {
	data := swfLines(10)
	if s, err := ReadSWFLimited(context.Background(), "t.swf", []byte(data), SWFLimits{MaxRecords: 10}); err != nil || len(s.Jobs) != 10 {
		t.Fatalf("10 records under a limit of 10: %v", err)
	}
	// A bad line after the limit is never reached: the limit stops the read.
	data += "this line is not SWF\n"
	_, err := ReadSWFLimited(context.Background(), "t.swf", []byte(data), SWFLimits{MaxRecords: 5})
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "t.swf" || !strings.Contains(err.Error(), "more than 5 job records (line 7)") {
		t.Errorf("11 lines under a limit of 5: %v, want TooLarge at line 7", err)
	}
}

func TestReadSWFChecksTheRecordsAgainstTheMemoryBudget(t *testing.T) {
	data := []byte(swfLines(5000))
	ctx := solvers.WithLimits(context.Background(), solvers.Limits{MemoryBytes: 256 << 10})
	_, err := ReadSWFLimited(ctx, "m.swf", data, SWFLimits{})
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "m.swf" || !strings.Contains(err.Error(), "SWF records") {
		t.Errorf("5000 records under a 256 KiB budget: %v, want TooLarge", err)
	}
	if s, err := ReadSWFLimited(context.Background(), "m.swf", data, SWFLimits{}); err != nil || len(s.Jobs) != 5000 {
		t.Errorf("5000 records under the default budget: %v", err)
	}
	cctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReadSWFLimited(cctx, "m.swf", data, SWFLimits{}); err == nil {
		t.Error("a canceled read finished")
	}
}
