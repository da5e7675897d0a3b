package formats

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"schedlab/errs"
)

const tinySWF = `; Version: 2.2
; Computer: toy
; MaxJobs: 3
; MaxProcs: 8
; Note: hand-written
1 0 5 100 4 -1 -1 4 120 -1 1 1 1 -1 -1 -1 -1 -1

2 10.5 0 30 2 -1 -1 -1 60 -1 0 2 2 -1 -1 -1 -1 -1
   3   20   0  -1   1  -1  -1   1   -1  -1 -1  3  3 -1 -1 -1 -1 -1
`

func TestReadSWFHandWritten(t *testing.T) {
	s, err := ReadSWF("toy.swf", []byte(tinySWF))
	if err != nil {
		t.Fatal(err)
	}
	h := s.Header
	if h.Version != "2.2" || h.Computer != "toy" || h.MaxJobs != 3 || h.MaxProcs != 8 || h.Procs() != 8 {
		t.Errorf("header %+v", h)
	}
	if len(h.Notes) != 1 || h.Notes[0] != "Note: hand-written" {
		t.Errorf("notes %q", h.Notes)
	}
	if len(s.Jobs) != 3 || s.Skipped != 1 {
		t.Fatalf("%d jobs, %d skipped; want 3, 1", len(s.Jobs), s.Skipped)
	}
	j := s.Jobs[1]
	want := SWFJob{Line: 8, ID: 2, Submit: 10.5, Wait: 0, Run: 30, Alloc: 2, CPU: -1, Mem: -1, Req: -1, ReqTime: 60, ReqMem: -1, Status: 0,
		User: 2, Group: 2, App: -1, Queue: -1, Partition: -1, Preceding: -1, Think: -1}
	if j != want {
		t.Errorf("job 2 = %+v\nwant %+v", j, want)
	}
	if s.Jobs[2].Run != -1 || s.Jobs[2].ReqTime != -1 || s.Jobs[2].Line != 9 {
		t.Errorf("job 3 = %+v", s.Jobs[2])
	}
}

func TestReadSWFGzipEqualsPlain(t *testing.T) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(tinySWF))
	zw.Close()
	a, err := ReadSWF("toy.swf.gz", buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ReadSWF("toy.swf", []byte(tinySWF))
	if len(a.Jobs) != len(b.Jobs) || a.Jobs[2] != b.Jobs[2] || a.Header.MaxProcs != b.Header.MaxProcs {
		t.Errorf("gzip and plain differ: %+v vs %+v", a, b)
	}
}

func TestReadSWFErrorsNameLineAndField(t *testing.T) {
	cases := []struct {
		name, data, field, msg string
	}{
		{"short line", "; MaxProcs: 4\n1 0 0 10 1\n", "t.swf line 2", "5 fields"},
		{"word", "1 0 0 ten 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n", "t.swf line 1 field 4", "run time"},
		{"fractional processors", "1 0 0 10 1.5 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n", "t.swf line 1 field 5", "integer"},
		{"below -1", "1 0 0 10 1 -1 -1 -7 10 -1 1 1 1 -1 -1 -1 -1 -1\n", "t.swf line 1 field 8", "requested processors"},
		{"NaN", "1 0 0 NaN 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n", "t.swf line 1 field 4", "number"},
		{"bad MaxProcs", "; MaxProcs: lots\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1\n", "t.swf line 1", "MaxProcs"},
		{"header only", "; Version: 2\n", "t.swf", "no job lines"},
		{"binary", "\x00\x01\x02", "t.swf", "not a text file"},
		{"broken gzip", "\x1f\x8b\x08\x00garbage", "t.swf", "gzip"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadSWF("t.swf", []byte(c.data))
			if err == nil {
				t.Fatal("accepted")
			}
			if errs.KindOf(err) != errs.Invalid || errs.FieldOf(err) != c.field || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("got %v (kind %v, field %q); want Invalid, field %q, containing %q", err, errs.KindOf(err), errs.FieldOf(err), c.field, c.msg)
			}
		})
	}
}

// TestReadSWFRealTraces reads the archive logs and checks what their
// provenance file says of them.
func TestReadSWFRealTraces(t *testing.T) {
	cases := []struct {
		file           string
		jobs, procs    int
		skipped        int
		reqTimeMissing bool
	}{
		{"KTH-SP2-1996-2.1-cln.swf.gz", 27992, 100, 0, false},
		{"KTH-SP2-1996-2.1-cln.first2000.swf", 2000, 100, 0, false},
		{"NASA-iPSC-1993-3.1-cln.swf.gz", 18239, 128, 0, true},
		{"hpc2n.swf", 3170, 240, 1, false},
	}
	for _, c := range cases {
		data, err := os.ReadFile("testdata/swf/" + c.file)
		if err != nil {
			t.Fatal(err)
		}
		s, err := ReadSWF(c.file, data)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if len(s.Jobs) != c.jobs || s.Header.Procs() != c.procs || s.Skipped != c.skipped {
			t.Errorf("%s: %d jobs, %d procs, %d skipped; want %d, %d, %d", c.file, len(s.Jobs), s.Header.Procs(), s.Skipped, c.jobs, c.procs, c.skipped)
		}
		missing := true
		for _, j := range s.Jobs {
			missing = missing && j.ReqTime == -1
		}
		if missing != c.reqTimeMissing {
			t.Errorf("%s: requested time missing everywhere = %v, want %v", c.file, missing, c.reqTimeMissing)
		}
	}
}

func FuzzReadSWF(f *testing.F) {
	f.Add([]byte(tinySWF))
	f.Add([]byte("; MaxProcs: 4\n1 0 0 10 1\n"))
	f.Add([]byte("\x1f\x8b\x08\x00"))
	f.Add([]byte("\ufeff; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\r\n2 1 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1"))
	f.Add([]byte("1 0 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n; MaxProcs: 4\n \n2 1.5 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ReadSWF("f.swf", data)
		// Read in blocks of one byte: the same result.
		s1, err1 := ReadSWFFrom(context.Background(), "f.swf", iotest.OneByteReader(bytes.NewReader(data)), SWFLimits{})
		if (err == nil) != (err1 == nil) || (err != nil && err.Error() != err1.Error()) || (err == nil && !reflect.DeepEqual(s, s1)) {
			t.Fatalf("read whole: %v; read by bytes: %v", err, err1)
		}
		// The reader of before the fused pass (parseSWFJob on every job
		// line), and ScanSWF handing the records on: the same, values
		// and errors, with and without a byte cap that cuts the text.
		ref, errRef := readSWFReference(context.Background(), "f.swf", bytes.NewReader(data), SWFLimits{})
		sameSWF(t, "ReadSWF", ref, errRef, s, err)
		s2, err2 := scanAll(context.Background(), "f.swf", bytes.NewReader(data), SWFLimits{})
		sameSWF(t, "ScanSWF", ref, errRef, s2, err2)
		lim := SWFLimits{MaxBytes: int64(len(data)/2 + 1), MaxRecords: 2}
		ref, errRef = readSWFReference(context.Background(), "f.swf", bytes.NewReader(data), lim)
		s2, err2 = scanAll(context.Background(), "f.swf", bytes.NewReader(data), lim)
		sameSWF(t, "ScanSWF under limits", ref, errRef, s2, err2)
		if err != nil {
			if k := errs.KindOf(err); k != errs.Invalid && k != errs.TooLarge {
				t.Fatalf("error of kind %v: %v", k, err)
			}
			return
		}
		if len(s.Jobs) == 0 {
			t.Fatal("no jobs and no error")
		}
		for _, j := range s.Jobs {
			if j.Line < 1 || j.Run < -1 || j.Req < -1 || j.ReqTime < -1 {
				t.Fatalf("job out of range: %+v", j)
			}
		}
	})
}

// FuzzScanSWFJob checks the fast line scanner against parseSWFJob, the
// reference: the same record wherever it reads a job, for any line.
func FuzzScanSWFJob(f *testing.F) {
	f.Add("1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1")
	f.Add("1 0.5 0 10 1 -1 -1 1 1e3 -1 1 1 1 1 1 1 -1 -1")
	f.Add("1 -0 0 10 1 -1 -1 1 -2 -1 1 1 1 1 1 1 -1 -1")
	f.Add("1\u00a00 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1")
	f.Add("9999999999999999 0 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1")
	f.Add("1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1")
	f.Add("  1 -0 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\r")
	f.Add("1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 - ")
	f.Add(" \t ")
	f.Fuzz(func(t *testing.T, line string) {
		a, errA := parseSWFJob("f.swf", 3, line)
		// The fused pass on the raw line: a job only where parseSWFJob
		// reads the same values (-0 included), blank only where the
		// trimmed line is empty.
		var v [swfFields]float64
		switch scanSWFFast([]byte(line), &v) {
		case swfLineJob:
			if errA != nil || fmt.Sprintf("%+v", swfJobOf(3, &v)) != fmt.Sprintf("%+v", a) {
				t.Fatalf("%q: parse %+v (%v), fused pass %+v", line, a, errA, swfJobOf(3, &v))
			}
		case swfLineBlank:
			if len(bytes.TrimSpace([]byte(line))) != 0 {
				t.Fatalf("%q: the fused pass says blank", line)
			}
		}
	})
}
