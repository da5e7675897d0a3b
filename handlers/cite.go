package handlers

import (
	"context"

	"github.com/labstack/echo/v4"

	"schedlab/buildinfo"
	"schedlab/runtypes"
	"schedlab/store"
	"schedlab/views"
)

// maxCitedWorkloads bounds the workloads a Cite block looks up and lists
// (an experiment over many instances names the rest by count; each has
// its checksums on its own page).
const maxCitedWorkloads = 12

// absURL is path on this server as the request reached it.
func absURL(c echo.Context, path string) string {
	return c.Scheme() + "://" + c.Request().Host + path
}

// citeOf is the Cite block of the runs behind a page at path: each
// distinct build that executed them (in the runs' order, with its count)
// and each workload they ran on.
func (s *Server) citeOf(ctx context.Context, c echo.Context, what, path string, runs []*runtypes.Run) views.Cite {
	var builds []store.BuildCount
	at := map[runtypes.Build]int{}
	var workloads []string
	seen := map[string]bool{}
	more := 0
	for _, r := range runs {
		if i, ok := at[r.Build]; ok {
			builds[i].Runs++
		} else {
			at[r.Build] = len(builds)
			builds = append(builds, store.BuildCount{Build: r.Build, Runs: 1})
		}
		switch {
		case r.WorkloadID == "" || seen[r.WorkloadID]:
		case len(workloads) >= maxCitedWorkloads:
			seen[r.WorkloadID] = true
			more++
		default:
			seen[r.WorkloadID] = true
			workloads = append(workloads, r.WorkloadID)
		}
	}
	return s.citeFrom(ctx, c, what, path, builds, workloads, more)
}

// citeFrom makes a Cite block of builds and workload IDs (more: workloads
// not listed). The server's own build is named too when it executed none
// of the runs.
func (s *Server) citeFrom(ctx context.Context, c echo.Context, what, path string, builds []store.BuildCount, workloads []string, more int) views.Cite {
	out := views.Cite{What: what, Link: absURL(c, path), MoreWorkloads: more}
	cur := buildinfo.Current()
	served := true
	for _, bc := range builds {
		b := buildinfo.Build(bc.Build)
		served = served && b != cur
		out.Builds = append(out.Builds, views.CiteBuild{Version: b.VersionText(), Commit: b.CommitText(), Recorded: !b.Zero(), Runs: bc.Runs})
	}
	if served {
		out.Served = views.CiteBuild{Version: cur.VersionText(), Commit: cur.CommitText(), Recorded: true}
	}
	for _, id := range workloads {
		if w, err := s.store.GetWorkloadInfo(ctx, id); err == nil {
			out.Workloads = append(out.Workloads, views.CiteWorkload{ID: w.ID, Name: w.Name, SHA256: w.SHA256,
				UploadSHA256: w.UploadSHA256, Generated: w.Format == "preset"})
		}
	}
	return out
}
