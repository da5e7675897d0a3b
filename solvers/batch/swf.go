package batch

import (
	"fmt"

	"schedlab/errs"
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
// time, with a note), unusable records skipped and counted.
func FromSWF(s *formats.SWF, o SWFOptions) (*SWFJobs, error) {
	p := o.Procs
	if p == 0 {
		p = s.Header.Procs()
	}
	if p <= 0 {
		return nil, errs.Invalidf("processors", "the trace's header has no MaxProcs or MaxNodes: give the machine size")
	}
	size := o.Size
	if size == "" {
		size = "requested"
	}
	if size != "requested" && size != "allocated" {
		return nil, errs.Invalidf("size", "must be requested or allocated, got %q", size)
	}
	est := o.Estimates
	if est == "" {
		est = "user"
	}
	if est != "user" && est != "exact" {
		return nil, errs.Invalidf("estimates", "must be user or exact, got %q", est)
	}
	out := &SWFJobs{Procs: p}
	for _, r := range s.Jobs {
		first, second := r.Req, r.Alloc
		if size == "allocated" {
			first, second = r.Alloc, r.Req
		}
		n := first
		if n == -1 && second != -1 {
			n = second
			out.SizeFallbacks++
		}
		switch {
		case r.Run <= 0:
			out.SkippedRuntime++
			continue
		case n <= 0:
			out.SkippedSize++
			continue
		case n > p:
			out.SkippedTooBig++
			continue
		}
		e := r.Run
		if est == "user" {
			if r.ReqTime > 0 {
				e = r.ReqTime
			} else {
				out.NoEstimate++
			}
		}
		out.Jobs = append(out.Jobs, Job{ID: r.ID, Submit: max(r.Submit, 0), Size: n, Estimate: e, Run: r.Run})
	}
	out.Skipped = out.SkippedRuntime + out.SkippedSize + out.SkippedTooBig
	if len(out.Jobs) == 0 {
		return nil, errs.Invalidf("file", "none of the trace's %d records can run (%d with runtime ≤ 0, %d with size ≤ 0, %d larger than %d processors)",
			len(s.Jobs), out.SkippedRuntime, out.SkippedSize, out.SkippedTooBig, p)
	}
	out.Notes = append(out.Notes, fmt.Sprintf("Machine: %d processors; job size from the %s processors field (%d records fell back to the other field).", p, size, out.SizeFallbacks))
	if out.Skipped > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("Skipped %d of %d records: %d with runtime ≤ 0 or unknown, %d with size ≤ 0 or unknown, %d larger than the machine. Metrics are over the %d simulated jobs.",
			out.Skipped, len(s.Jobs), out.SkippedRuntime, out.SkippedSize, out.SkippedTooBig, len(out.Jobs)))
	}
	if est == "exact" {
		out.Notes = append(out.Notes, "Estimates: exact (each job's real runtime), a perfect-information baseline.")
	} else if out.NoEstimate > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("Warning: %d records have no requested time (-1); their runtime is used as the estimate, so they are scheduled with perfect information.", out.NoEstimate))
	}
	return out, nil
}
