package runcmd

import (
	"bufio"
	"cmp"
	"fmt"
	"os"
	"path/filepath"

	"schedlab/report"
)

// writeBatsimOut writes a batch run's Batsim files, prefix_jobs.csv and
// prefix_schedule.csv (Batsim's --export prefix convention; prefix's
// directory made if missing), from rep
// (report.WriteBatsimFiles): the server's /api/runs/:id/batsim/ files.
func writeBatsimOut(rep *report.Report, prefix string) error {
	if _, err := report.BatsimTable(rep); err != nil {
		return fmt.Errorf("--batsim-out: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(prefix), 0o755); err != nil {
		return fmt.Errorf("--batsim-out: %w", err)
	}
	jobs, err := os.Create(prefix + "_jobs.csv")
	if err != nil {
		return fmt.Errorf("--batsim-out: %w", err)
	}
	sched, err := os.Create(prefix + "_schedule.csv")
	if err != nil {
		jobs.Close()
		return fmt.Errorf("--batsim-out: %w", err)
	}
	jw, sw := bufio.NewWriterSize(jobs, 256<<10), bufio.NewWriter(sched)
	err = report.WriteBatsimFiles(rep, report.BatsimRunOf(rep), jw, sw)
	for _, e := range []error{jw.Flush(), sw.Flush(), jobs.Close(), sched.Close()} {
		err = cmp.Or(err, e)
	}
	if err != nil {
		return fmt.Errorf("--batsim-out: %w", err)
	}
	return nil
}
