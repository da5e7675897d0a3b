package formats

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
)

// kthText is the uncompressed text of the full KTH trace (2.6 MB).
func kthText(b *testing.B) []byte {
	data, err := os.ReadFile(filepath.Join("testdata", "swf", "KTH-SP2-1996-2.1-cln.swf.gz"))
	if err != nil {
		b.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	text, err := io.ReadAll(zr)
	if err != nil {
		b.Fatal(err)
	}
	return text
}

// BenchmarkReadSWFKTHText reads the uncompressed KTH text with
// ReadSWFFrom, every record kept: the parse without the inflater.
func BenchmarkReadSWFKTHText(b *testing.B) {
	text := kthText(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadSWFFrom(context.Background(), "kth.swf", bytes.NewReader(text), SWFLimits{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScanSWFKTHText scans the uncompressed KTH text with ScanSWF and
// a callback that keeps nothing: the line scanner alone.
func BenchmarkScanSWFKTHText(b *testing.B) {
	text := kthText(b)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ScanSWF(context.Background(), "kth.swf", bytes.NewReader(text), SWFLimits{}, func(*SWFHeader, *SWFJob) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInflateKTH inflates the gzip KTH trace with the inflater the
// reader uses and discards the text: the floor of reading a .swf.gz,
// before any parsing.
func BenchmarkInflateKTH(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("testdata", "swf", "KTH-SP2-1996-2.1-cln.swf.gz"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		zr, err := kgzip.NewReader(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, zr); err != nil {
			b.Fatal(err)
		}
	}
}
