package bundle

import (
	"bufio"
	"compress/flate"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"schedlab/errs"
)

// Reader reads a bundle record by record, checking each as it comes.
type Reader struct {
	dec    *json.Decoder
	cr     *capReader
	check  *checker
	header Header
	exp    Experiment
	err    error // the error every later Next returns
}

// NewReader reads the gzip stream r up to its header and experiment
// records and checks them. limit caps the decompressed size (≤ 0:
// DefaultLimit). Errors are errs.Invalid naming the record and field, or
// errs.TooLarge naming the limit.
func NewReader(r io.Reader, limit int64) (*Reader, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	zr, err := gzip.NewReader(bufio.NewReader(r))
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrHeader) {
		return nil, &errs.Error{Kind: errs.Invalid, Field: "bundle", Err: errors.New("not a gzip file: a bundle is a " + FileSuffix + " file")}
	}
	if err != nil {
		return nil, streamErr(err, limit)
	}
	cr := &capReader{r: zr, left: limit, limit: limit}
	dec := json.NewDecoder(cr)
	dec.DisallowUnknownFields()
	br := &Reader{dec: dec, cr: cr, check: newChecker()}
	for br.check.stage < stageWorkloads {
		rec, err := br.next()
		if err == io.EOF {
			err = br.check.end()
		}
		if err != nil {
			return nil, err
		}
		if rec.Header != nil {
			br.header = *rec.Header
		} else {
			br.exp = *rec.Experiment
		}
	}
	return br, nil
}

// Header is the bundle's header record.
func (r *Reader) Header() Header { return r.header }

// Experiment is the bundle's experiment record.
func (r *Reader) Experiment() Experiment { return r.exp }

// Next returns the next workload or run (one of the two is set), checked;
// io.EOF once the bundle has ended complete (every run read, the gzip
// stream's checksum verified). Call it until io.EOF before trusting what
// it returned: truncation and a wrong count show only at the end.
func (r *Reader) Next() (*Workload, *Run, error) {
	if r.err != nil {
		return nil, nil, r.err
	}
	rec, err := r.next()
	if err == io.EOF {
		if err = r.check.end(); err == nil {
			err = io.EOF
		}
	}
	if err != nil {
		r.err = err
		return nil, nil, err
	}
	return rec.Workload, rec.Run, nil
}

// next decodes and checks one record.
func (r *Reader) next() (*record, error) {
	var rec record
	if err := r.dec.Decode(&rec); err != nil {
		if err == io.EOF {
			return nil, io.EOF
		}
		r.check.n++
		return nil, r.decodeErr(err)
	}
	if err := r.check.add(&rec); err != nil {
		return nil, err
	}
	return &rec, nil
}

// decodeErr turns an error of json.Decoder into the user's error.
func (r *Reader) decodeErr(err error) error {
	if e := streamErr(err, r.cr.limit); e != nil && !errs.Is(e, errs.Other) {
		return e
	}
	at := fmt.Sprintf("bundle record %d", r.check.n)
	var typ *json.UnmarshalTypeError
	var syn *json.SyntaxError
	if name, ok := errs.UnknownJSONField(err); ok {
		return errs.New(errs.Invalid, at, "unknown field %s (a bundle from a newer schedlab? this one reads format version %d)", name, Version)
	}
	switch {
	case errors.As(err, &typ):
		return &errs.Error{Kind: errs.Invalid, Field: at + " " + typ.Field, Err: fmt.Errorf("must be %s, got JSON %s", errs.JSONType(typ.Type), typ.Value)}
	case errors.As(err, &syn):
		return &errs.Error{Kind: errs.Invalid, Field: at, Err: fmt.Errorf("malformed JSON: %s", strings.TrimPrefix(syn.Error(), "json: "))}
	}
	return &errs.Error{Kind: errs.Invalid, Field: at, Err: fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "json: "))}
}

// streamErr classifies an error of the compressed stream: over the limit,
// truncated, corrupt; anything else is returned as errs.Other.
func streamErr(err error, limit int64) error {
	switch {
	case errors.Is(err, errTooLarge):
		return errs.New(errs.TooLarge, "bundle", "the bundle is larger than the limit of %s decompressed", size(limit))
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &errs.Error{Kind: errs.Invalid, Field: "bundle", Err: errors.New("the bundle is truncated: it ends in the middle of a record or of its gzip stream")}
	case errors.Is(err, gzip.ErrHeader):
		return &errs.Error{Kind: errs.Invalid, Field: "bundle", Err: errors.New("the bundle is damaged (a gzip member with a bad header)")}
	case errors.Is(err, gzip.ErrChecksum):
		return &errs.Error{Kind: errs.Invalid, Field: "bundle", Err: errors.New("the bundle is damaged (its gzip checksum does not match)")}
	}
	var ce flate.CorruptInputError
	if errors.As(err, &ce) {
		return errs.New(errs.Invalid, "bundle", "the bundle is damaged: %v", err)
	}
	return &errs.Error{Kind: errs.Other, Err: err}
}

// size names a byte count in MiB or KiB, as the server's limits are named.
func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	if n >= 1<<10 && n%(1<<10) == 0 {
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

var errTooLarge = errors.New("bundle over its size limit")

// capReader reads at most limit bytes of r; past that, errTooLarge.
type capReader struct {
	r           io.Reader
	left, limit int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// At the limit: the stream is over it if one more byte comes.
		var one [1]byte
		n, err := c.r.Read(one[:])
		if n > 0 {
			return 0, errTooLarge
		}
		return 0, err
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}
