package formats

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

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
	t.Run("default cap", func(t *testing.T) {
		if testing.Short() {
			// The cap's mechanism is the 8 MiB case above, in -short too.
			t.Skip("slow tier (reads 256 MiB of blank lines, some 3 CPU-seconds): go test ./... runs it")
		}
		before := allocated()
		if _, err := ReadSWF("bomb.swf.gz", bomb); errs.KindOf(err) != errs.TooLarge || !strings.Contains(err.Error(), "256 MiB") {
			t.Errorf("1 GiB bomb under the default cap: %v, want TooLarge", err)
		}
		if d := allocated() - before; d > 64<<20 {
			t.Errorf("refusing the bomb at the default cap allocated %d MiB: it should stream", d>>20)
		}
	})
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
	ctx := solvers.WithBudget(context.Background(), solvers.Budget{Memory: 256 << 10})
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

// swfGenerator is an endless SWF trace made as it is read: a header line,
// then job records; it counts the bytes and records it has handed out.
type swfGenerator struct {
	pending []byte
	next    int // the next record's number
	records int // records handed out, whole or in part
	bytes   int64
}

func (g *swfGenerator) Read(p []byte) (int, error) {
	if len(g.pending) == 0 {
		if g.next == 0 {
			g.pending = []byte("; MaxProcs: 8\n")
		} else {
			g.pending = fmt.Appendf(nil, "%d %d 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n", g.next, g.next)
			g.records++
		}
		g.next++
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	g.bytes += int64(n)
	return n, nil
}

func TestReadSWFFromRefusesAtTheLimitHavingReadOnlyUpToIt(t *testing.T) {
	const limit = 20000
	for _, gz := range []bool{false, true} {
		g := &swfGenerator{}
		var src io.Reader = g
		if gz {
			// A gzip stream made as it is read: the trace is endless.
			pr, pw := io.Pipe()
			go func() {
				zw := gzip.NewWriter(pw)
				_, err := io.Copy(zw, io.LimitReader(g, 1<<30))
				pw.CloseWithError(err)
			}()
			defer pr.Close()
			src = pr
		}
		_, err := ReadSWFFrom(context.Background(), "endless.swf", src, SWFLimits{MaxRecords: limit})
		if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "endless.swf" ||
			!strings.Contains(err.Error(), fmt.Sprintf("more than %d job records (line %d)", limit, limit+2)) {
			t.Fatalf("gzip %v: an endless trace under a limit of %d: %v, want TooLarge naming the limit at line %d", gz, limit, err, limit+2)
		}
		// Only up to the limit: the records a block past it holds at most
		// (each record is at least 40 bytes; the reader reads blocks of
		// 64 KiB, the gzip writer's output adds its own buffer).
		slack := 3 * swfBlock / 40
		if g.records > limit+1+slack {
			t.Errorf("gzip %v: %d records read (%d bytes) to refuse at %d: it read past the limit", gz, g.records, g.bytes, limit)
		}
	}
}

// TestReadSWFFromEqualsReadSWF reads the archive traces in blocks of one
// byte and whole: the same records.
func TestReadSWFFromEqualsReadSWF(t *testing.T) {
	for _, file := range []string{"KTH-SP2-1996-2.1-cln.first2000.swf", "hpc2n.swf", "NASA-iPSC-1993-3.1-cln.swf.gz"} {
		data, err := os.ReadFile(filepath.Join("testdata", "swf", file))
		if err != nil {
			t.Fatal(err)
		}
		a, err := ReadSWF(file, data)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ReadSWFFrom(context.Background(), file, iotest.OneByteReader(bytes.NewReader(data)), SWFLimits{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: read one byte at a time differs from read whole", file)
		}
		if len(a.Jobs) < 1000 {
			t.Errorf("%s: %d records", file, len(a.Jobs))
		}
	}
}

// BenchmarkReadSWFFullKTH reads the whole KTH trace as the archive ships
// it (gzip, 28,490 records).
func BenchmarkReadSWFFullKTH(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "swf", "KTH-SP2-1996-2.1-cln.swf.gz"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadSWFFrom(context.Background(), "kth.swf.gz", bytes.NewReader(data), SWFLimits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadSWFTakesTheHeadersSizeAsAHintOnly: a header that tells the
// number of records sizes the first allocation; one that lies changes
// nothing read, and a huge claim allocates no more than the hint's cap.
func TestReadSWFTakesTheHeadersSizeAsAHintOnly(t *testing.T) {
	body := swfLines(3000)[len("; MaxProcs: 8\n"):]
	measure := func(header string) (*SWF, uint64) {
		before := allocated()
		s, err := ReadSWF("h.swf", []byte("; MaxProcs: 8\n"+header+body))
		if err != nil {
			t.Fatal(err)
		}
		n := allocated() - before
		for i := range s.Jobs {
			s.Jobs[i].Line = 0 // a header line moves them
		}
		return s, n
	}
	plain, grown := measure("")
	told, once := measure("; MaxRecords: 3000\n")
	lying, _ := measure("; MaxRecords: 10\n")
	huge, hugeAlloc := measure("; MaxJobs: 1500000\n")
	for _, s := range []*SWF{told, lying, huge} {
		if !reflect.DeepEqual(s.Jobs, plain.Jobs) {
			t.Fatal("the header's size changed the records read")
		}
	}
	if once >= grown || once < 3000*uint64(swfJobBytes) {
		t.Errorf("with the size told, %d bytes allocated; growing, %d", once, grown)
	}
	if hugeAlloc > 2*swfSizeHintMax*uint64(swfJobBytes) {
		t.Errorf("a header claiming 1,500,000 records made the reader allocate %d bytes", hugeAlloc)
	}
}
