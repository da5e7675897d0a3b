package cyclic

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"schedlab/errs"
	"schedlab/solvers"
	"schedlab/solvers/formats"
)

// A Batsim JSON workload (issue 39; formats.ReadBatsimWorkload) uploaded
// in field "batsim" — or as a .json file whose top level has jobs,
// profiles and nb_res — with, optionally, a SimGrid platform in field
// "platform" (or a .xml file; formats.ReadSimGridPlatform) becomes a
// trace like an SWF one (Format "swf": the batch variants, external
// decision processes and the cycle variants run it as they run a trace):
// per job its number, subtime, the runtime its profile gives, res as
// both requested and allocated processors, its walltime as the requested
// time (-1 when it has none). The machine is the platform's compute
// hosts, else nb_res; the run parameter procs overrides either. A
// platform's speed is needed only by profiles given in flops, and its
// hosts must then all have the same speed (the batch model's processors
// are identical).

func isBatsimFile(f solvers.File) bool {
	if f.Field == "batsim" {
		return true
	}
	return (f.Field == "" || f.Field == "file") && strings.HasSuffix(strings.ToLower(f.Name), ".json") && formats.LooksLikeBatsimWorkload(f.Data)
}

func isPlatformFile(f solvers.File) bool {
	return f.Field == "platform" || (f.Field == "" || f.Field == "file") && strings.HasSuffix(strings.ToLower(f.Name), ".xml")
}

// batsimUpload reads the files of an upload that holds a Batsim workload:
// ok false when it holds none.
func batsimUpload(ctx context.Context, files []solvers.File) (w *solvers.Workload, ok bool, err error) {
	var work, plat *solvers.File
	for i := range files {
		switch f := &files[i]; {
		case isBatsimFile(*f):
			if work != nil {
				return nil, true, errs.Invalidf(f.Field, "two Batsim workloads (%s, %s): upload one", work.Name, f.Name)
			}
			work = f
		case isPlatformFile(*f):
			if plat != nil {
				return nil, true, errs.Invalidf(f.Field, "two platforms (%s, %s): upload one", plat.Name, f.Name)
			}
			plat = f
		}
	}
	if work == nil {
		if plat != nil {
			return nil, true, errs.Invalidf("platform", "a SimGrid platform (%s) goes with a Batsim workload (field batsim), which is missing", plat.Name)
		}
		return nil, false, nil
	}
	if n := len(files) - 1 - btoi(plat != nil); n > 0 {
		return nil, true, errs.Invalidf("file", "a Batsim workload is uploaded alone or with its SimGrid platform; %d other files were given", n)
	}
	w, err = batsimTraceWorkload(ctx, *work, plat)
	return w, true, err
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// batsimTraceWorkload reads a Batsim workload (and platform) into a
// stored trace.
func batsimTraceWorkload(ctx context.Context, f solvers.File, plat *solvers.File) (*solvers.Workload, error) {
	var p *formats.Platform
	speed := 0.0
	if plat != nil {
		var err error
		if p, err = formats.ReadSimGridPlatform(plat.Name, plat.Data); err != nil {
			return nil, err
		}
		speed = p.Speed
	}
	bw, err := formats.ReadBatsimWorkload(ctx, f.Name, f.Data, speed, formats.BatsimLimits{MaxJobs: MaxTraceJobs})
	if err != nil {
		if p != nil && p.Speed == 0 && strings.Contains(err.Error(), "needs the hosts' speed") {
			return nil, errs.Invalidf(plat.Name, "its compute hosts have speeds from %g to %g flop/s: a profile given in flops needs identical hosts (%v)", p.MinSpeed, p.MaxSpeed, err)
		}
		return nil, err
	}
	if err := solvers.Reserve(ctx, f.Name, solvers.SatMul(int64(len(bw.Jobs)), 6*8+6*24+8), "the trace as stored"); err != nil {
		return nil, err
	}
	t := &Trace{Name: f.Name, Computer: "Batsim workload", MaxProcs: bw.NbRes, Jobs: make([][6]float64, len(bw.Jobs))}
	machine := fmt.Sprintf("nb_res %d", bw.NbRes)
	if p != nil {
		t.MaxProcs = p.Hosts
		machine = fmt.Sprintf("%d compute hosts of %s (nb_res %d)", p.Hosts, plat.Name, bw.NbRes)
	}
	for i, j := range bw.Jobs {
		t.Jobs[i] = [6]float64{float64(j.Num), j.Subtime, j.Runtime, float64(j.Res), float64(j.Res), j.Walltime}
	}
	data, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(f.Name, ".json")
	if name == "" {
		name = "batsim"
	}
	prev := tracePreview(t)
	prev.Notes = append(prev.Notes, fmt.Sprintf("A Batsim workload: %d jobs (profiles by type: %s); the machine is %s. Each job runs for the time its profile gives, as a rigid job of res processors; its walltime is its requested time.", len(bw.Jobs), bw.ProfileTypes(), machine))
	if p != nil && p.Speed > 0 {
		prev.Notes = append(prev.Notes, fmt.Sprintf("Profiles in flops run at the platform's speed, %g flop/s, with no communication.", p.Speed))
	}
	if bw.Renumbered {
		prev.Notes = append(prev.Notes, fmt.Sprintf("Some job ids are not whole numbers: jobs are numbered 1..%d in file order (the first, %q, is job 1).", len(bw.Jobs), bw.Jobs[0].ID))
	}
	summary := fmt.Sprintf("Batsim workload: %d jobs, %d processors", len(bw.Jobs), t.MaxProcs)
	return &solvers.Workload{Name: name, Format: FormatSWF, Summary: summary, Data: data, Preview: prev}, nil
}
