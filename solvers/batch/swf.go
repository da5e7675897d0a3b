package batch

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"unsafe"

	"schedlab/errs"
	"schedlab/solvers"
	"schedlab/solvers/formats"
)

// SWFOptions say how SWF records become jobs.
type SWFOptions struct {
	// Procs is the machine size; 0 takes the header's MaxProcs (MaxNodes
	// when MaxProcs is missing).
	Procs int
	// Size is "requested" (field 8, default) or "allocated" (field 5);
	// either falls back to the other when it is -1.
	Size string
	// Estimates is "user" (field 9, the requested time, default) or
	// "exact" (the real runtime: a perfect estimate).
	Estimates string
}

// SWFJobs is what FromSWF made of a trace.
type SWFJobs struct {
	Jobs  []Job
	Procs int
	// Skipped counts records that cannot run: runtime ≤ 0 or unknown,
	// size ≤ 0 or unknown, size > Procs.
	Skipped                     int
	SkippedRuntime, SkippedSize int
	SkippedTooBig               int
	NoEstimate                  int // records without a requested time, given their runtime
	SizeFallbacks               int // records whose chosen size field was -1
	Notes                       []string
}

// FromSWF turns an SWF trace into jobs by the decisions of the package doc:
// the chosen size field with a fallback, the requested time or the exact
// runtime as the estimate (the runtime when the trace has no requested
// time, with a note), unusable records skipped and counted. It is an
// SWFBuilder fed the trace's records.
func FromSWF(s *formats.SWF, o SWFOptions) (*SWFJobs, error) {
	b := NewSWFBuilder(context.Background(), "file", o)
	b.jobs = make([]Job, 0, len(s.Jobs))
	b.reserved = len(s.Jobs)
	for i := range s.Jobs {
		if err := b.Add(&s.Header, &s.Jobs[i]); err != nil {
			return nil, err
		}
	}
	return b.Finish(&s.Header)
}

// SWFBuilder makes jobs from SWF records as they arrive (formats.ScanSWF
// hands them to Add), without keeping the records: Finish returns what
// FromSWF returns on the whole trace, the same jobs, counts, notes and
// errors. The machine size may come from the header, and a header line may
// follow job lines, so a record's size is judged against the machine only
// at Finish: Add keeps every record that has a runtime and a size, and
// Finish drops, in order, those larger than the machine. The kept jobs are
// reserved against the memory budget in ctx (solvers.Reserve on name) as
// their list grows. A builder is used once.
type SWFBuilder struct {
	ctx      context.Context
	name     string
	o        SWFOptions
	size     string // the size field, "" when the option is wrong
	exact    bool   // estimates=exact
	records  int
	jobs     []Job
	reserved int     // jobs the budget was asked for
	noEst    []int32 // indexes in jobs of those without a requested time
	maxSize  int     // the largest size kept
	out      SWFJobs // the counts so far
}

// swfJobBytes is the memory one kept job takes, for the budget check: the
// job and, at most, its index among those without a requested time.
const swfJobBytes = int64(unsafe.Sizeof(Job{})) + 4

// NewSWFBuilder starts a builder under the options o; name is the field a
// memory-budget refusal names (the file). Wrong options are reported by
// Finish, in FromSWF's order.
func NewSWFBuilder(ctx context.Context, name string, o SWFOptions) *SWFBuilder {
	b := &SWFBuilder{ctx: ctx, name: name, o: o, size: cmp.Or(o.Size, "requested")}
	if b.size != "requested" && b.size != "allocated" {
		b.size = ""
	}
	b.exact = o.Estimates == "exact"
	return b
}

// Add takes one record; h is the header read so far, whose size (MaxRecords
// or MaxJobs, up to 65,536) sizes the first allocation when it came before
// the records. j is not kept. Add has formats.ScanSWF's callback type.
func (b *SWFBuilder) Add(h *formats.SWFHeader, r *formats.SWFJob) error {
	b.records++
	if b.size == "" {
		return nil // Finish refuses the options
	}
	first, second := r.Req, r.Alloc
	if b.size == "allocated" {
		first, second = r.Alloc, r.Req
	}
	n := first
	if n == -1 && second != -1 {
		n = second
		b.out.SizeFallbacks++
	}
	switch {
	case r.Run <= 0:
		b.out.SkippedRuntime++
		return nil
	case n <= 0:
		b.out.SkippedSize++
		return nil
	}
	e := r.Run
	if !b.exact && r.ReqTime > 0 {
		e = r.ReqTime
	} else if !b.exact {
		b.noEst = append(b.noEst, int32(len(b.jobs)))
	}
	if len(b.jobs) == cap(b.jobs) && len(b.jobs) >= b.reserved {
		if err := b.grow(h); err != nil {
			return err
		}
	}
	b.maxSize = max(b.maxSize, n)
	b.jobs = append(b.jobs, Job{ID: r.ID, Submit: max(r.Submit, 0), Size: n, Estimate: e, Run: r.Run})
	return nil
}

// swfSizeHintMax bounds the jobs a header's size makes the builder
// allocate at once (65,536 jobs, 2.5 MiB).
const swfSizeHintMax = 1 << 16

// grow makes room for more jobs (doubling, or the header's size the first
// time), reserving it first.
func (b *SWFBuilder) grow(h *formats.SWFHeader) error {
	n := max(2*len(b.jobs), 1024)
	if len(b.jobs) == 0 {
		if hint := cmp.Or(h.MaxRecords, h.MaxJobs); hint > n && hint <= swfSizeHintMax {
			n = hint
		}
	}
	if err := solvers.Reserve(b.ctx, b.name, solvers.SatMul(int64(n+len(b.jobs)), swfJobBytes), fmt.Sprintf("%d jobs", n)); err != nil {
		return err
	}
	b.reserved = n
	b.jobs = slices.Grow(b.jobs, n-len(b.jobs))
	return nil
}

// machineSource says where the machine size came from: the Procs option,
// or the header's MaxProcs, or its MaxNodes (SWFHeader.Procs).
func machineSource(procs int, h *formats.SWFHeader) string {
	switch {
	case procs != 0:
		return "the procs parameter"
	case h.MaxProcs > 0:
		return "the header's MaxProcs"
	}
	return "the header's MaxNodes, as it gives no MaxProcs"
}

// swfField is the SWF field number of a size option's field.
var swfField = map[string]int{"requested": 8, "allocated": 5}

// sizeNote says which field the jobs' sizes were read from, of records
// records: the chosen one, the other where it is -1, or the other in
// every record (a Lublin model trace has -1 requested processors
// throughout, so its sizes are the allocated ones).
func (b *SWFBuilder) sizeNote(records int) string {
	other := "allocated"
	if b.size == "allocated" {
		other = "requested"
	}
	fb := b.out.SizeFallbacks
	switch {
	case fb == 0:
		return fmt.Sprintf("Job size from the %s processors field (SWF field %d).", b.size, swfField[b.size])
	case fb == records:
		return fmt.Sprintf("Job size from the %s processors field (SWF field %d): the %s processors field (%d) is -1 in every record.",
			other, swfField[other], b.size, swfField[b.size])
	}
	return fmt.Sprintf("Job size from the %s processors field (SWF field %d), and from the %s processors field (%d) in the %d of %d records where it is -1.",
		b.size, swfField[b.size], other, swfField[other], fb, records)
}

// Finish judges the kept records against the machine (the Procs option,
// else the whole header h) and returns the jobs, or FromSWF's error.
func (b *SWFBuilder) Finish(h *formats.SWFHeader) (*SWFJobs, error) {
	p := cmp.Or(b.o.Procs, h.Procs())
	if p <= 0 {
		return nil, errs.Invalidf("processors", "the trace's header has no MaxProcs or MaxNodes: give the machine size")
	}
	if b.size == "" {
		return nil, errs.Invalidf("size", "must be requested or allocated, got %q", b.o.Size)
	}
	est := cmp.Or(b.o.Estimates, "user")
	if est != "user" && est != "exact" {
		return nil, errs.Invalidf("estimates", "must be user or exact, got %q", est)
	}
	out := &b.out
	out.Procs = p
	out.Jobs = b.jobs
	out.NoEstimate = len(b.noEst)
	if b.maxSize > p {
		// Drop the jobs larger than the machine, in order, and the
		// missing estimates among them.
		kept, k := b.jobs[:0], 0
		out.NoEstimate = 0
		for i, j := range b.jobs {
			noEst := k < len(b.noEst) && int(b.noEst[k]) == i
			if noEst {
				k++
			}
			if j.Size > p {
				out.SkippedTooBig++
				continue
			}
			if noEst {
				out.NoEstimate++
			}
			kept = append(kept, j)
		}
		clear(b.jobs[len(kept):])
		out.Jobs = kept
	}
	b.jobs, b.noEst = nil, nil
	records := b.records
	out.Skipped = out.SkippedRuntime + out.SkippedSize + out.SkippedTooBig
	if len(out.Jobs) == 0 {
		return nil, errs.Invalidf("file", "none of the trace's %d records can run (%d with runtime ≤ 0, %d with size ≤ 0, %d larger than %d processors)",
			records, out.SkippedRuntime, out.SkippedSize, out.SkippedTooBig, p)
	}
	out.Notes = append(out.Notes, fmt.Sprintf("Machine: %d processors (%s). %s", p, machineSource(b.o.Procs, h), b.sizeNote(records)))
	if out.Skipped > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("Skipped %d of %d records: %d with runtime ≤ 0 or unknown, %d with size ≤ 0 or unknown, %d larger than the machine. Metrics are over the %d simulated jobs.",
			out.Skipped, records, out.SkippedRuntime, out.SkippedSize, out.SkippedTooBig, len(out.Jobs)))
	}
	if est == "exact" {
		out.Notes = append(out.Notes, "Estimates: exact (each job's real runtime), a perfect-information baseline.")
	} else if out.NoEstimate > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("Warning: %d records have no requested time (-1); their runtime is used as the estimate, so they are scheduled with perfect information.", out.NoEstimate))
	}
	return out, nil
}
