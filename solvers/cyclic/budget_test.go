package cyclic

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/solvers"
)

func TestBudgetRefusesAGeneratorOverTheBudget(t *testing.T) {
	// Inside the declared limits: 1000 nodes, 1000 jobs, T = 100000, load 0.95.
	p := solvers.Params{"nodes": "1000", "jobs": "1000", "interval": "100000", "local_load": "0.95"}
	ctx := solvers.WithBudget(context.Background(), solvers.Budget{Memory: 16 << 20})
	_, err := New().Generate(ctx, PresetToporkov2014, p, 1)
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "nodes" {
		t.Errorf("the largest domain under 16 MiB: %v, want TooLarge on nodes", err)
	}
}

func TestBudgetRefusesARunOverTheBudget(t *testing.T) {
	w := genWorkload(t, solvers.Params{"nodes": "200", "jobs": "200"})
	ctx := solvers.WithBudget(context.Background(), solvers.Budget{Memory: 1 << 20})
	_, err := New().Run(ctx, w, VariantFair, solvers.Params{"cycles": "100000"}, nil)
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "cycles" {
		t.Errorf("100000 cycles of 200 jobs under 1 MiB: %v, want TooLarge on cycles", err)
	}
}

func TestTraceUploadStopsAtItsRecordLimitAndItsByteCap(t *testing.T) {
	// More records than a workload holds under a small memory budget: the
	// reader refuses them as they arrive.
	var b strings.Builder
	b.WriteString("; MaxProcs: 8\n")
	for i := 1; i <= 20000; i++ {
		fmt.Fprintf(&b, "%d %d 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n", i, i)
	}
	ctx := solvers.WithBudget(context.Background(), solvers.Budget{Memory: 1 << 20})
	_, err := New().ParseWorkload(ctx, []solvers.File{{Field: "swf", Name: "big.swf", Data: []byte(b.String())}})
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "big.swf" {
		t.Errorf("20000 records under 1 MiB: %v, want TooLarge on the file", err)
	}
	// A gzip of 512 MiB of blank lines (multi-member, about 0.5 MB) is
	// refused at the reader's byte cap.
	t.Run("byte cap", func(t *testing.T) {
		if testing.Short() {
			// The reader's cap is formats' TestReadSWFRefusesAGzipBombAtTheCap
			// (at 8 MiB in -short, at the default 256 MiB in the full suite).
			t.Skip("slow tier (reads 256 MiB of blank lines, some 3 CPU-seconds): go test ./... runs it")
		}
		var member bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
		zw.Write(bytes.Repeat([]byte{'\n'}, 1<<20))
		zw.Close()
		bomb := bytes.Repeat(member.Bytes(), 512)
		_, err := New().ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "bomb.swf.gz", Data: bomb}})
		if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "bomb.swf.gz" {
			t.Errorf("a gzip bomb: %v, want TooLarge on the file", err)
		}
	})
}

func TestBatchOnATraceRefusesProcessorsOverTheBudget(t *testing.T) {
	swf := "; MaxProcs: 10000000\n1 0 0 10 5000000 -1 -1 5000000 20 -1 1 1 1 1 1 1 -1 -1\n2 1 0 10 5000000 -1 -1 5000000 20 -1 1 1 1 1 1 1 -1 -1\n"
	w, err := New().ParseWorkload(context.Background(), []solvers.File{{Field: "swf", Name: "wide.swf", Data: []byte(swf)}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := solvers.WithBudget(context.Background(), solvers.Budget{Memory: 64 << 20})
	if _, err := New().Run(ctx, w, VariantBatch, nil, nil); errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "procs" {
		t.Errorf("batch on 10 million processors under 64 MiB: %v, want TooLarge on procs", err)
	}
	if _, err := New().Run(ctx, w, VariantCSS, nil, nil); errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "procs" {
		t.Errorf("css on 10 million processors as nodes under 64 MiB: %v, want TooLarge on procs", err)
	}
}

// FuzzTraceFromSWF loads SWF traces as an upload does: no panic, errors
// are Invalid or TooLarge, and a loaded trace has records within the limit
// that batch can read back.
func FuzzTraceFromSWF(f *testing.F) {
	f.Add([]byte("; MaxProcs: 8\n1 0 5 100 4 -1 -1 4 120 -1 1 1 1 -1 -1 -1 -1 -1\n"))
	f.Add([]byte("; MaxNodes: 2\n\n2 10.5 0 30 2 -1 -1 -1 60 -1 0 2 2 -1 -1 -1 -1 -1\n"))
	f.Add([]byte("1 0 0 10 1\n"))
	f.Add([]byte("\x1f\x8b\x08\x00"))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n"))
	zw.Close()
	f.Add(gz.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := traceFromSWF(context.Background(), "f.swf", data)
		if err != nil {
			if k := errs.KindOf(err); k != errs.Invalid && k != errs.TooLarge {
				t.Fatalf("error of kind %v: %v", k, err)
			}
			return
		}
		if len(tr.Jobs) == 0 || len(tr.Jobs) > MaxTraceJobs {
			t.Fatalf("%d records", len(tr.Jobs))
		}
		if s := tr.swf(); len(s.Jobs) != len(tr.Jobs) {
			t.Fatalf("swf() has %d records, the trace %d", len(s.Jobs), len(tr.Jobs))
		}
	})
}
