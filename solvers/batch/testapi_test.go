package batch

import (
	"encoding/csv"
	"io"
	"strconv"
)

// WriteBatsimCSV writes one line per job in Batsim's jobs.csv columns.
func WriteBatsimCSV(w io.Writer, jobs []Job, r *Result) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(BatsimColumns()); err != nil {
		return err
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	for i, j := range jobs {
		pl := r.Placements[i]
		exec := pl.End - pl.Start
		wait := pl.Start - j.Submit
		turn := pl.End - j.Submit
		stretch := 0.0
		if exec > 0 {
			stretch = turn / exec
		}
		rec := []string{strconv.Itoa(j.ID), f(j.Submit), strconv.Itoa(j.Size), f(j.Estimate),
			f(pl.Start), f(exec), f(pl.End), f(wait), f(turn), f(stretch), Intervals(pl.Procs)}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// Policies lists the policies in the order a user chooses among them.
func Policies() []Policy { return []Policy{FCFS, EASY, Conservative} }
