package bundle

import (
	"compress/gzip"
	"encoding/json"
	"io"
)

// Writer writes a bundle: NewWriter (header and experiment), Workload for
// each workload, Run for each run, then Close. Every record is checked as
// the Reader checks it, so what a Writer writes reads back; after an
// error nothing more is written, and a bundle not Closed has no gzip
// trailer, which a Reader refuses as truncated.
type Writer struct {
	zw    *gzip.Writer
	enc   *json.Encoder
	check *checker
	err   error
}

// NewWriter starts a bundle on w with its header and experiment records.
// It writes nothing when either is refused.
func NewWriter(w io.Writer, h Header, e Experiment) (*Writer, error) {
	c := newChecker()
	if err := c.add(&record{Header: &h}); err != nil {
		return nil, err
	}
	if err := c.add(&record{Experiment: &e}); err != nil {
		return nil, err
	}
	zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed) // a valid level: no error
	enc := json.NewEncoder(zw)
	enc.SetEscapeHTML(false) // keep embedded JSON byte for byte
	bw := &Writer{zw: zw, enc: enc, check: c}
	bw.encode(&record{Header: &h})
	bw.encode(&record{Experiment: &e})
	return bw, bw.err
}

func (w *Writer) encode(rec *record) {
	if w.err == nil {
		w.err = w.enc.Encode(rec)
	}
}

func (w *Writer) add(rec *record) error {
	if w.err != nil {
		return w.err
	}
	if err := w.check.add(rec); err != nil {
		w.err = err
		return err
	}
	w.encode(rec)
	return w.err
}

// Workload writes a workload record; all come before the first run.
func (w *Writer) Workload(x *Workload) error { return w.add(&record{Workload: x}) }

// Run writes a run record.
func (w *Writer) Run(x *Run) error { return w.add(&record{Run: x}) }

// Close checks that every run was written and ends the gzip stream. It
// does not close the underlying writer.
func (w *Writer) Close() error {
	if w.err != nil {
		return w.err
	}
	if err := w.check.end(); err != nil {
		w.err = err
		return err
	}
	w.err = w.zw.Close()
	return w.err
}
