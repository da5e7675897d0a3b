package formats

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/klauspost/compress/gzip"

	"schedlab/errs"
	"schedlab/report"
	"schedlab/solvers"
)

// SWF is a workload trace in the Standard Workload Format of the Parallel
// Workloads Archive (Feitelson et al.): ';' header comments, then one job a
// line with 18 whitespace-separated fields.
type SWF struct {
	Header SWFHeader
	Jobs   []SWFJob
	// Skipped is the number of blank lines skipped (hpc2n.swf has one).
	Skipped int
}

// SWFHeader holds the header comments a scheduler needs; the rest of the
// ';' lines are kept verbatim in Notes. Integers are 0 when the header
// does not give them.
type SWFHeader struct {
	Version        string
	Computer       string
	Installation   string
	MaxJobs        int
	MaxRecords     int
	MaxNodes       int
	MaxProcs       int
	UnixStartTime  int64
	TimeZoneString string
	// Notes are the other header lines (without the ';'), in file order.
	Notes []string
}

// SWFJob is one job record: the 18 SWF fields in order, -1 where the
// trace does not know the value. Times are seconds.
type SWFJob struct {
	Line      int     // 1-based line of the file (of the uncompressed text)
	ID        int     // 1 job number
	Submit    float64 // 2 submit time, s from the log's start
	Wait      float64 // 3 wait time, s
	Run       float64 // 4 run time, s
	Alloc     int     // 5 allocated processors
	CPU       float64 // 6 average CPU time used, s
	Mem       float64 // 7 used memory, KB per processor
	Req       int     // 8 requested processors
	ReqTime   float64 // 9 requested time (user estimate), s
	ReqMem    float64 // 10 requested memory, KB per processor
	Status    int     // 11 status (1 completed, 0 failed, 5 cancelled, -1 unknown)
	User      int     // 12 user id
	Group     int     // 13 group id
	App       int     // 14 executable (application) number
	Queue     int     // 15 queue number
	Partition int     // 16 partition number
	Preceding int     // 17 preceding job number
	Think     float64 // 18 think time from the preceding job, s
}

// SWFMaxBytes bounds the uncompressed size ReadSWF accepts (the full KTH
// trace is 2.6 MB; the largest archive logs are a few hundred MB).
const SWFMaxBytes = 256 << 20

// SWFMaxRecords bounds the job records ReadSWF accepts when the caller sets
// no lower limit (the largest archive logs have a few hundred thousand).
const SWFMaxRecords = 2_000_000

// swfFields is the number of fields of a job line.
const swfFields = 18

// swfJobBytes is the memory one kept record takes, for the budget check.
const swfJobBytes = int64(unsafe.Sizeof(SWFJob{}))

// SWFLimits bound what ReadSWFLimited reads. Zero fields take
// SWFMaxBytes and SWFMaxRecords.
type SWFLimits struct {
	MaxBytes   int64 // uncompressed bytes
	MaxRecords int   // job lines
}

// ReadSWF parses an SWF trace, gunzipping it first when data starts with
// the gzip magic (the archive ships its logs as .swf.gz). name is the
// user's file name, used in errors. A job line must have exactly 18
// numeric fields; the error names the line, the field's number and its SWF
// name. Values are not judged here (a runtime of -1 is a valid SWF value):
// which jobs a simulation can use is the caller's decision.
func ReadSWF(name string, data []byte) (*SWF, error) {
	return ReadSWFLimited(context.Background(), name, data, SWFLimits{})
}

// ReadSWFLimited is ReadSWF streaming under limits: it decompresses as it
// scans, and stops as soon as the uncompressed text passes lim.MaxBytes
// (a gzip bomb is refused at the cap, not after inflating it) or the job
// lines pass lim.MaxRecords, both errs.TooLarge naming the file. The kept
// records are checked against the memory budget in ctx (solvers.Reserve)
// as they grow, and ctx is honoured every few thousand lines.
func ReadSWFLimited(ctx context.Context, name string, data []byte, lim SWFLimits) (*SWF, error) {
	return ReadSWFFrom(ctx, name, bytes.NewReader(data), lim)
}

// ReadSWFFrom is ReadSWFLimited reading r as it goes (a file the command
// line opened): the text is read in blocks of swfBlock bytes, and a trace
// over lim.MaxRecords is refused at the first record past the limit, having
// read only up to it (and the block that holds it). It is ScanSWF keeping
// every record.
func ReadSWFFrom(ctx context.Context, name string, r io.Reader, lim SWFLimits) (*SWF, error) {
	out := &SWF{}
	reserved := 0
	maxRecords := cmp.Or(max(lim.MaxRecords, 0), SWFMaxRecords)
	sum, err := ScanSWF(ctx, name, r, lim, func(h *SWFHeader, j *SWFJob) error {
		out.Header.MaxRecords, out.Header.MaxJobs = h.MaxRecords, h.MaxJobs // the size hint
		return out.appendJob(ctx, name, *j, &reserved, maxRecords)
	})
	if err != nil {
		return nil, err
	}
	out.Header, out.Skipped = sum.Header, sum.Skipped
	return out, nil
}

// SWFSummary is what ScanSWF read besides the records it handed on.
type SWFSummary struct {
	Header  SWFHeader // the whole header, wherever its lines were
	Records int       // job records handed to the callback
	Skipped int       // blank lines skipped
}

// ScanSWF reads an SWF trace as ReadSWFFrom does (gzip or plain, under the
// same limits, with the same errors) but keeps no record: it hands each
// job record to fn in file order, as it is parsed, and returns the header
// and the counts. h is the header as read so far (a header line may follow
// job lines: the summary's Header is the whole one); j is valid only
// during the call (fn copies what it keeps, and reserves its memory with
// solvers.Reserve). An error from fn stops the read and is returned as it
// is. A trace over lim.MaxRecords is refused at the first record past the
// limit, before fn sees it; a trace with no job line is an error, as for
// ReadSWF.
//
// A job line of 18 plain decimal integers (almost every line of the
// archive's logs) is split and converted in one pass (scanSWFFast); any
// other line goes through the reference parser (parseSWFJob).
func ScanSWF(ctx context.Context, name string, r io.Reader, lim SWFLimits, fn func(h *SWFHeader, j *SWFJob) error) (*SWFSummary, error) {
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = SWFMaxBytes
	}
	if lim.MaxRecords <= 0 {
		lim.MaxRecords = SWFMaxRecords
	}
	src, cr, gz, err := openSWF(name, r, lim.MaxBytes)
	if err != nil {
		return nil, err
	}
	sum := &SWFSummary{}
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 0, swfBlock), 1<<20)
	line := 0
	var v [swfFields]float64
	var j SWFJob
	tooMany := func() error {
		return errs.New(errs.TooLarge, name, "more than %d job records (line %d): over the limit of a workload", lim.MaxRecords, line)
	}
	for sc.Scan() {
		line++
		if line%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		text := sc.Bytes()
		switch k := scanSWFFast(text, &v); {
		case k == swfLineJob:
			if sum.Records >= lim.MaxRecords {
				return nil, tooMany()
			}
			j = swfJobOf(line, &v)
		case k == swfLineBlank:
			sum.Skipped++
			continue
		default: // a header line, a BOM, anything the fast pass leaves
			if line == 1 {
				text = bytes.TrimPrefix(text, []byte("\ufeff"))
			}
			t := bytes.TrimSpace(text)
			switch {
			case len(t) == 0:
				sum.Skipped++
				continue
			case t[0] == ';':
				if err := sum.Header.parse(name, line, strings.TrimSpace(string(t[1:]))); err != nil {
					return nil, err
				}
				continue
			}
			if sum.Records >= lim.MaxRecords {
				return nil, tooMany()
			}
			if j, err = parseSWFJob(name, line, string(t)); err != nil {
				return nil, err
			}
		}
		sum.Records++
		if err := fn(&sum.Header, &j); err != nil {
			return nil, err
		}
	}
	if cr.over {
		return nil, tooBig(name, gz, lim.MaxBytes)
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(name, line, gz, err)
	}
	if sum.Records == 0 {
		return nil, errs.Invalidf(name, "no job lines: an SWF trace has one job a line of 18 numbers after its ';' header")
	}
	return sum, nil
}

// swfSizeHintMax bounds the records a header's size can make the reader
// allocate at once: 65,536 records (10 MiB); a larger trace grows by
// doubling from there, each growth checked against the budget.
const swfSizeHintMax = 1 << 16

// swfBlock is the size of the blocks an SWF trace is read in.
const swfBlock = 64 << 10

// openSWF starts reading an SWF trace, inflating it if it is gzip, with
// the uncompressed text capped at maxBytes; a first block that is not text
// (a gzip of zeros, a binary) is refused at once. The reader it returns
// gives the first block read for that check, then the capped text itself
// (no second buffer between the inflater and the line scanner).
func openSWF(name string, r io.Reader, maxBytes int64) (io.Reader, *cappedReader, bool, error) {
	raw := bufio.NewReaderSize(r, swfBlock)
	magic, _ := raw.Peek(2)
	gz := len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b
	var src io.Reader = raw
	if gz {
		zr, err := gzip.NewReader(raw)
		if err != nil {
			return nil, nil, gz, errs.Invalidf(name, "not a valid gzip file: %v", err)
		}
		src = zr
	}
	cr := &cappedReader{r: src, left: maxBytes}
	head := make([]byte, 4096)
	n, _ := readHead(cr, head)
	head = head[:n]
	if !isText(head) {
		if cr.over {
			return nil, nil, gz, tooBig(name, gz, maxBytes)
		}
		return nil, nil, gz, errs.Invalidf(name, "not a text file: an SWF trace is plain text (or gzip-compressed text)")
	}
	// An error that ended the first block is not kept, as bufio.Reader.Peek
	// gave it once: the text is read on from cr, which gives it again
	// (gzip errors stay), or EOF at the cap (which hides what lies past it).
	return io.MultiReader(bytes.NewReader(head), cr), cr, gz, nil
}

// readHead reads into p until it is full or the first error, as
// bufio.Reader.Peek does (an empty read is retried a few times).
func readHead(r io.Reader, p []byte) (int, error) {
	n, empties := 0, 0
	for n < len(p) {
		m, err := r.Read(p[n:])
		n += m
		if err != nil {
			return n, err
		}
		if m > 0 {
			empties = 0
		} else if empties++; empties >= 100 {
			return n, io.ErrNoProgress
		}
	}
	return n, nil
}

// appendJob keeps a job record; before the record list grows (doubling),
// the growth is checked against the memory budget in ctx. The first
// growth takes the header's MaxRecords (or MaxJobs) when it came before
// the records, up to swfSizeHintMax records and maxRecords, so a trace
// whose header tells its size is read into one allocation; a header that
// lies only makes the first allocation larger (at most 10 MiB) or smaller.
func (out *SWF) appendJob(ctx context.Context, name string, j SWFJob, reserved *int, maxRecords int) error {
	if len(out.Jobs) == cap(out.Jobs) && len(out.Jobs) >= *reserved {
		n := max(2*len(out.Jobs), 1024)
		if len(out.Jobs) == 0 {
			if hint := cmp.Or(out.Header.MaxRecords, out.Header.MaxJobs); hint > n && hint <= min(maxRecords, swfSizeHintMax) {
				n = hint
			}
		}
		if err := solvers.Reserve(ctx, name, solvers.SatMul(int64(n+len(out.Jobs)), swfJobBytes), fmt.Sprintf("%d SWF records", n)); err != nil {
			return err
		}
		*reserved = n
		out.Jobs = slices.Grow(out.Jobs, n-len(out.Jobs))
	}
	out.Jobs = append(out.Jobs, j)
	return nil
}

// scanError says why reading stopped after line lines.
func scanError(name string, line int, gz bool, err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return errs.Invalidf(fmt.Sprintf("%s line %d", name, line+1), "line longer than 1 MiB: not an SWF trace")
	}
	if gz {
		return errs.Invalidf(name, "gzip data is corrupt: %v", err)
	}
	return errs.Invalidf(name, "read: %v", err)
}

func tooBig(name string, gz bool, max int64) error {
	if gz {
		return errs.New(errs.TooLarge, name, "the uncompressed trace is larger than %s", report.FormatBytes(max))
	}
	return errs.New(errs.TooLarge, name, "the trace is larger than %s", report.FormatBytes(max))
}

// cappedReader reads at most left bytes of r, then reports io.EOF and
// sets over if r had more.
type cappedReader struct {
	r    io.Reader
	left int64
	over bool
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// One byte more tells a file of exactly the cap from a larger one.
		var b [1]byte
		if n, _ := io.ReadFull(c.r, b[:]); n > 0 {
			c.over = true
		}
		return 0, io.EOF
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

// isText reports whether the first 4 KiB of data hold no NUL byte, enough
// to tell a binary file from a trace.
func isText(data []byte) bool {
	head := data[:min(len(data), 4096)]
	return bytes.IndexByte(head, 0) < 0
}

// swfFieldNames are the SWF names of the 18 fields, for error messages.
var swfFieldNames = [swfFields]string{
	"job number", "submit time", "wait time", "run time", "allocated processors",
	"average CPU time", "used memory", "requested processors", "requested time",
	"requested memory", "status", "user id", "group id", "executable number",
	"queue number", "partition number", "preceding job", "think time",
}

// What scanSWFFast made of a line.
const (
	swfLineOther = iota // anything else: the reference path decides
	swfLineBlank        // ASCII spaces only (or nothing)
	swfLineJob          // 18 plain integers ≥ -1, in v
)

// swfClass sorts bytes for scanSWFFast: digits, the ASCII spaces
// strings.Fields splits on, '-', and everything else (a '.', an 'e', a ';',
// a byte ≥ 0x80 that may be part of a Unicode space or a BOM).
var swfClass = func() (c [256]uint8) {
	for _, b := range []byte(" \t\n\v\f\r") {
		c[b] = swfSpace
	}
	for b := '0'; b <= '9'; b++ {
		c[b] = swfDigit
	}
	c['-'] = swfMinus
	return c
}()

const (
	swfOther = iota
	swfSpace
	swfDigit
	swfMinus
)

// scanSWFFast reads a raw line (not trimmed) in one pass, splitting the
// fields and converting them at once: it says swfLineJob, with the values
// in v, for a line of exactly 18 fields that are each an optional '-' and
// 1 to 15 decimal digits (below 2^53, so exact) and not below -1, which is
// what scanSWFJob and parseSWFJob make of it; swfLineBlank for a line of
// ASCII spaces; swfLineOther for any other line (a header, a float, a
// wrong field count, a value below -1, a byte ≥ 0x80), which the caller
// reads by the reference path.
func scanSWFFast(t []byte, v *[swfFields]float64) int {
	n := 0       // fields done
	var x int64  // the field's digits so far
	digits := 0  // how many
	neg := false // the field began with '-'
	for i := 0; i <= len(t); i++ {
		c := byte(' ') // the line's end ends its last field
		if i < len(t) {
			c = t[i]
		}
		if d := c - '0'; d <= 9 {
			x = x*10 + int64(d)
			digits++
			continue
		}
		switch swfClass[c] {
		case swfSpace:
			if digits == 0 {
				if neg {
					return swfLineOther // a lone '-'
				}
				continue
			}
		case swfMinus:
			if digits == 0 && !neg {
				neg = true
				continue
			}
			return swfLineOther
		default:
			return swfLineOther
		}
		if n == swfFields || digits > 15 || neg && x > 1 {
			return swfLineOther // a 19th field, too long, below -1
		}
		v[n] = float64(x)
		if neg {
			v[n] = -v[n]
		}
		n++
		x, digits, neg = 0, 0, false
	}
	switch n {
	case 0:
		return swfLineBlank
	case swfFields:
		return swfLineJob
	}
	return swfLineOther
}

func parseSWFJob(name string, line int, t string) (SWFJob, error) {
	fs := strings.Fields(t)
	if len(fs) != swfFields {
		return SWFJob{}, errs.Invalidf(fmt.Sprintf("%s line %d", name, line), "a job line has %d fields, want %d (SWF: job number, submit, wait, run time, ... think time)", len(fs), swfFields)
	}
	var v [swfFields]float64
	for i, f := range fs {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return SWFJob{}, errs.Invalidf(fmt.Sprintf("%s line %d field %d", name, line, i+1), "%s must be a number, got %q", swfFieldNames[i], f)
		}
		if x < -1 {
			return SWFJob{}, errs.Invalidf(fmt.Sprintf("%s line %d field %d", name, line, i+1), "%s is %v: SWF values are ≥ 0, or -1 when unknown", swfFieldNames[i], f)
		}
		if isIntField(i) && (x != math.Trunc(x) || math.Abs(x) > 1<<53) {
			return SWFJob{}, errs.Invalidf(fmt.Sprintf("%s line %d field %d", name, line, i+1), "%s must be an integer, got %q", swfFieldNames[i], f)
		}
		v[i] = x
	}
	return swfJobOf(line, &v), nil
}

func swfJobOf(line int, v *[swfFields]float64) SWFJob {
	return SWFJob{
		Line: line, ID: int(v[0]), Submit: v[1], Wait: v[2], Run: v[3], Alloc: int(v[4]),
		CPU: v[5], Mem: v[6], Req: int(v[7]), ReqTime: v[8], ReqMem: v[9], Status: int(v[10]),
		User: int(v[11]), Group: int(v[12]), App: int(v[13]), Queue: int(v[14]),
		Partition: int(v[15]), Preceding: int(v[16]), Think: v[17],
	}
}

// isIntField reports whether SWF field i (0-based) is a count or an id.
func isIntField(i int) bool {
	switch i {
	case 0, 4, 7, 10, 11, 12, 13, 14, 15, 16:
		return true
	}
	return false
}

// parse reads one header comment "Key: value"; unknown keys and free text
// go to Notes. A known numeric key with a non-numeric value is an error
// naming the line, since a wrong MaxProcs would silently change a
// simulation.
func (h *SWFHeader) parse(name string, line int, t string) error {
	key, val, ok := strings.Cut(t, ":")
	if !ok {
		if t != "" {
			h.Notes = append(h.Notes, t)
		}
		return nil
	}
	key, val = strings.TrimSpace(key), strings.TrimSpace(val)
	num := func(dst *int) error {
		n, err := strconv.Atoi(val)
		if err != nil || n < 0 {
			return errs.Invalidf(fmt.Sprintf("%s line %d", name, line), "header %s must be a non-negative integer, got %q", key, val)
		}
		*dst = n
		return nil
	}
	switch key {
	case "Version":
		h.Version = val
	case "Computer":
		h.Computer = val
	case "Installation":
		h.Installation = val
	case "MaxJobs":
		return num(&h.MaxJobs)
	case "MaxRecords":
		return num(&h.MaxRecords)
	case "MaxNodes":
		return num(&h.MaxNodes)
	case "MaxProcs":
		return num(&h.MaxProcs)
	case "UnixStartTime":
		n, err := strconv.ParseInt(val, 10, 64)
		if err != nil {
			return errs.Invalidf(fmt.Sprintf("%s line %d", name, line), "header UnixStartTime must be an integer, got %q", val)
		}
		h.UnixStartTime = n
	case "TimeZoneString":
		h.TimeZoneString = val
	default:
		h.Notes = append(h.Notes, t)
	}
	return nil
}

// Procs returns the machine size a simulation should use: MaxProcs, or
// MaxNodes when the header has no MaxProcs, or 0 when it has neither.
func (h *SWFHeader) Procs() int {
	if h.MaxProcs > 0 {
		return h.MaxProcs
	}
	return h.MaxNodes
}
