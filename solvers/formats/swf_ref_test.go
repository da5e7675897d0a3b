package formats

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	kgzip "github.com/klauspost/compress/gzip"

	"schedlab/errs"
)

// readSWFReference is the reader as it was before the fused pass, kept as
// the reference: a bufio.Reader over the capped text, a bufio.Scanner over
// it, each line trimmed and, when it is a job line, parsed by parseSWFJob
// (strings.Fields and strconv.ParseFloat). ReadSWFFrom and ScanSWF must
// give what it gives, values and errors.
func readSWFReference(ctx context.Context, name string, r io.Reader, lim SWFLimits) (*SWF, error) {
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = SWFMaxBytes
	}
	if lim.MaxRecords <= 0 {
		lim.MaxRecords = SWFMaxRecords
	}
	raw := bufio.NewReaderSize(r, swfBlock)
	magic, _ := raw.Peek(2)
	gz := len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b
	var src io.Reader = raw
	if gz {
		zr, err := kgzip.NewReader(raw)
		if err != nil {
			return nil, errs.Invalidf(name, "not a valid gzip file: %v", err)
		}
		src = zr
	}
	cr := &cappedReader{r: src, left: lim.MaxBytes}
	br := bufio.NewReaderSize(cr, swfBlock)
	if head, _ := br.Peek(4096); !isText(head) {
		if cr.over {
			return nil, tooBig(name, gz, lim.MaxBytes)
		}
		return nil, errs.Invalidf(name, "not a text file: an SWF trace is plain text (or gzip-compressed text)")
	}
	out := &SWF{}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 0, swfBlock), 1<<20)
	line, reserved := 0, 0
	for sc.Scan() {
		line++
		text := sc.Bytes()
		if line == 1 {
			text = bytes.TrimPrefix(text, []byte("\ufeff"))
		}
		t := bytes.TrimSpace(text)
		switch {
		case len(t) == 0:
			out.Skipped++
			continue
		case t[0] == ';':
			if err := out.Header.parse(name, line, strings.TrimSpace(string(t[1:]))); err != nil {
				return nil, err
			}
			continue
		}
		if len(out.Jobs) >= lim.MaxRecords {
			return nil, errs.New(errs.TooLarge, name, "more than %d job records (line %d): over the limit of a workload", lim.MaxRecords, line)
		}
		j, err := parseSWFJob(name, line, string(t))
		if err != nil {
			return nil, err
		}
		if err := out.appendJob(ctx, name, j, &reserved, lim.MaxRecords); err != nil {
			return nil, err
		}
	}
	if cr.over {
		return nil, tooBig(name, gz, lim.MaxBytes)
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(name, line, gz, err)
	}
	if len(out.Jobs) == 0 {
		return nil, errs.Invalidf(name, "no job lines: an SWF trace has one job a line of 18 numbers after its ';' header")
	}
	return out, nil
}

// sameSWF fails unless the two reads gave the same trace or the same error.
func sameSWF(t *testing.T, what string, a *SWF, errA error, b *SWF, errB error) {
	t.Helper()
	if (errA == nil) != (errB == nil) || (errA != nil && (errA.Error() != errB.Error() || errs.KindOf(errA) != errs.KindOf(errB))) {
		t.Fatalf("%s: reference says %v, reader says %v", what, errA, errB)
	}
	if errA == nil && fmt.Sprintf("%+v", a) != fmt.Sprintf("%+v", b) {
		t.Fatalf("%s: reference and reader read different traces", what)
	}
}

// scanAll is ReadSWFFrom by ScanSWF, keeping copies of the records it is
// handed and checking the header it is shown is the one read so far.
func scanAll(ctx context.Context, name string, r io.Reader, lim SWFLimits) (*SWF, error) {
	var jobs []SWFJob
	sum, err := ScanSWF(ctx, name, r, lim, func(h *SWFHeader, j *SWFJob) error {
		jobs = append(jobs, *j)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if sum.Records != len(jobs) {
		return nil, fmt.Errorf("summary says %d records, %d handed on", sum.Records, len(jobs))
	}
	return &SWF{Header: sum.Header, Jobs: jobs, Skipped: sum.Skipped}, nil
}

// swfEdgeCases are traces the fast pass must leave to the reference, or
// read as it would.
var swfEdgeCases = map[string]string{
	"tiny":          tinySWF,
	"bom":           "\ufeff; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n",
	"bom job":       "\ufeff1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n",
	"crlf":          "; MaxProcs: 4\r\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\r\n\r\n",
	"no newline":    "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1",
	"tabs":          "; MaxProcs: 4\n\t1\t0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\t\n",
	"floats":        "; MaxProcs: 4\n1 0.5 0 1e1 1 -1 -1 1 20.0 -1 1 1 1 1 1 1 -1 -1\n",
	"minus zero":    "; MaxProcs: 4\n1 -0 0 10 1 -0 -1 1 20 -1 1 1 1 1 1 1 -1 -0\n",
	"below -1":      "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -2 -1 1 1 1 1 1 1 -1 -1\n",
	"lone minus":    "; MaxProcs: 4\n1 0 0 10 1 - -1 1 20 -1 1 1 1 1 1 1 -1 -1\n",
	"double minus":  "; MaxProcs: 4\n1 0 0 10 1 --1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n",
	"minus inside":  "; MaxProcs: 4\n1 0 0 10 1 1-1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n",
	"17 fields":     "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1\n",
	"19 fields":     "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1 7\n",
	"16 digits":     "; MaxProcs: 4\n1234567890123456 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n",
	"15 digits":     "; MaxProcs: 4\n123456789012345 0 0 999999999999999 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n",
	"int field 0.5": "; MaxProcs: 4\n1 0 0 10 0.5 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n",
	"nbsp":          "; MaxProcs: 4\n1\u00a00 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n",
	"nel end":       "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\u0085\n",
	"control byte":  "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\x01\n",
	"plus":          "; MaxProcs: 4\n+1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n",
	"header after":  "1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n; MaxProcs: 4\n",
	"bad header":    "; MaxProcs: four\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n",
	"only header":   "; MaxProcs: 4\n\n",
	"empty":         "",
	"binary":        "1 0\x00",
	"spaces only":   "   \n\t\n",
	"long line":     "; MaxProcs: 4\n" + strings.Repeat(" ", 1<<20) + "1\n",
	"long line -1":  "; MaxProcs: 4\n" + strings.Repeat(" ", 1<<20-1) + "\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n",
}

// TestReadSWFAgreesWithTheReference reads the three committed traces and
// the edge cases by ReadSWFFrom, by ScanSWF and by the reference reader
// (whole, and one byte at a time): the same traces, the same errors. With
// limits too: records and bytes caps that cut the traces.
func TestReadSWFAgreesWithTheReference(t *testing.T) {
	inputs := map[string][]byte{}
	for _, f := range []string{"KTH-SP2-1996-2.1-cln.swf.gz", "NASA-iPSC-1993-3.1-cln.swf.gz", "hpc2n.swf", "KTH-SP2-1996-2.1-cln.first2000.swf"} {
		data, err := os.ReadFile(filepath.Join("testdata", "swf", f))
		if err != nil {
			t.Fatal(err)
		}
		inputs[f] = data
	}
	for k, v := range swfEdgeCases {
		inputs[k] = []byte(v)
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write([]byte(v))
		zw.Close()
		inputs[k+".gz"] = gz.Bytes()
		inputs[k+" corrupt.gz"] = gz.Bytes()[:max(10, gz.Len()-6)]
	}
	ctx := context.Background()
	for name, data := range inputs {
		for _, lim := range []SWFLimits{{}, {MaxRecords: 1000}, {MaxRecords: 1}, {MaxBytes: 100_000}, {MaxBytes: 60}} {
			what := fmt.Sprintf("%s %+v", name, lim)
			want, errWant := readSWFReference(ctx, "f.swf", bytes.NewReader(data), lim)
			got, err := ReadSWFFrom(ctx, "f.swf", bytes.NewReader(data), lim)
			sameSWF(t, what, want, errWant, got, err)
			if len(data) < 100_000 || lim.MaxBytes == 60 {
				got, err = ReadSWFFrom(ctx, "f.swf", iotest.OneByteReader(bytes.NewReader(data)), lim)
				sameSWF(t, what+" by bytes", want, errWant, got, err)
			}
			got, err = scanAll(ctx, "f.swf", bytes.NewReader(data), lim)
			sameSWF(t, what+" ScanSWF", want, errWant, got, err)
		}
	}
	// The cases that must fail do, so the comparison compares errors too.
	for _, k := range []string{"below -1", "17 fields", "bad header", "only header", "long line", "binary"} {
		if _, err := ReadSWF("f.swf", []byte(swfEdgeCases[k])); err == nil {
			t.Errorf("%s: read without an error", k)
		}
	}
}

// TestScanSWFStopsOnTheCallbacksError: an error from the callback ends the
// read at that record and comes back as it is.
func TestScanSWFStopsOnTheCallbacksError(t *testing.T) {
	stop := errs.Invalidf("x", "stop")
	n := 0
	_, err := ScanSWF(context.Background(), "t.swf", strings.NewReader(tinySWF), SWFLimits{}, func(h *SWFHeader, j *SWFJob) error {
		n++
		if h.MaxProcs != 8 || j.ID != n {
			t.Errorf("record %d: header %+v, job %+v", n, h, j)
		}
		if n == 2 {
			return stop
		}
		return nil
	})
	if err != stop || n != 2 {
		t.Errorf("after %d records: %v, want the callback's error after 2", n, err)
	}
}
