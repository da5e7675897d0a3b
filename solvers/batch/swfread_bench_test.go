package batch

import (
	"bytes"
	"context"
	"os"
	"testing"

	"schedlab/solvers/formats"
)

// BenchmarkReadFromSWFFullKTH is the trace-to-jobs path through the
// records (the command line's before ScanSWF): read the whole gz KTH trace
// into []formats.SWFJob, then FromSWF.
func BenchmarkReadFromSWFFullKTH(b *testing.B) {
	data, err := os.ReadFile("../formats/testdata/swf/KTH-SP2-1996-2.1-cln.swf.gz")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, err := formats.ReadSWFFrom(context.Background(), "kth.swf.gz", bytes.NewReader(data), formats.SWFLimits{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := FromSWF(s, SWFOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScanSWFBuilderFullKTH is the streaming trace-to-jobs path (the
// command line's): ScanSWF hands each record of the gz KTH trace to an
// SWFBuilder; no []formats.SWFJob is built.
func BenchmarkScanSWFBuilderFullKTH(b *testing.B) {
	data, err := os.ReadFile("../formats/testdata/swf/KTH-SP2-1996-2.1-cln.swf.gz")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := viaBuilder(context.Background(), data, formats.SWFLimits{}, SWFOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
