package cyclic

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"schedlab/errs"
)

// endlessSWF is an SWF trace of as many records as it is asked for, made as
// it is read; each has a runtime of 0, so batch keeps none of them and the
// test holds no memory. lines counts the records made so far.
type endlessSWF struct {
	lines int
	buf   []byte
}

func (e *endlessSWF) Read(p []byte) (int, error) {
	for len(e.buf) < len(p) {
		if e.lines == 0 {
			e.buf = append(e.buf, "; MaxProcs: 8\n"...)
		}
		e.lines++
		e.buf = fmt.Appendf(e.buf, "%d %d 0 0 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n", e.lines, e.lines)
	}
	n := copy(p, e.buf)
	e.buf = e.buf[:copy(e.buf, e.buf[n:])]
	return n, nil
}

// TestRunFileRefusesTheRecordLimitWhileStreaming: the command line's path
// (records straight into the batch jobs) refuses a trace of more than
// MaxTraceJobs records at the first record past the limit, having read
// only up to it (and the block that holds it), not after reading it all.
func TestRunFileRefusesTheRecordLimitWhileStreaming(t *testing.T) {
	fr := New()
	src := &endlessSWF{}
	_, err := fr.RunFile(context.Background(), "endless.swf", src, VariantBatch, nil, nil)
	want := fmt.Sprintf("more than %d job records (line %d)", MaxTraceJobs, MaxTraceJobs+2)
	if errs.KindOf(err) != errs.TooLarge || errs.FieldOf(err) != "endless.swf" || !strings.Contains(err.Error(), want) {
		t.Fatalf("an endless trace: %v, want TooLarge on the file saying %q", err, want)
	}
	if src.lines > MaxTraceJobs+1<<16 {
		t.Errorf("refused after making %d records: it read past the limit of %d", src.lines, MaxTraceJobs)
	}
}
