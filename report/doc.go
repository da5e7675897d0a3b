// Package report is the Report every run returns, the common language of
// the pages, the store and a compare: metrics, tables (and the paging of
// large ones: PageOutRows, TablePageRows, the one definition the store
// pages by), plots, Gantts, graphs; its JSON (EncodeReport, DecodeReport)
// and CSV; the formatting of its numbers and times (FormatNumber,
// HumanDuration, TimeFrame). It is a leaf (it imports only errs), so the
// store reads the report's own table type and paging instead of mirrors
// of them (issue 44 item 5).
//
// A report that draws times has one TimeFrame (Report.Time): the unit and
// clock of its Gantt bars and of the x of its plots marked XTime, the
// origin the page counts from and its name, and the unit the page shows
// (NewTimeFrame chooses h, min or s from the span for data in seconds;
// slots and time units are shown as they are). The renderer applies it to
// every chart of the page and states it once; notes that speak of times
// write them with the frame's At and Duration so that they read in the
// same unit. Tables keep the data's numbers (their CSV is an export).
//
// A metric says what kind of number it is (Metric.Kind: a result, a cost
// of the method, information about the input) and, where some variant of
// its family computes it only by construction, the variants it is
// meaningful for (Metric.Variants: DCOP's messages, bytes and cycles for
// the distributed DPOP variants, not for the centralized exact search that
// reports 0). Every variant's report keeps the same metrics; a compare
// ranks only results, only among runs of one family, and only the runs a
// metric is meaningful for, showing the others as "n/a". The conformance
// suite (solvers/solverstest) checks that a family's metrics name only its own
// variants.
//
// Batsim's output files (batsimout.go, issue 39): a batch run's report
// carries its jobs in the table BatsimJobsTable, and BatsimJobs writes
// Batsim 4.2.1's _jobs.csv and _schedule.csv from it — the columns,
// order, number format and aggregates of oar-team/batsim's
// src/export.cpp (JobsTracer) at v4.2.1, the final state by its
// do_delay_task walltime rule (src/jobs_execution.cpp), workload_name
// "w0" (src/batsim.cpp). The server, the command line and a run stored
// before the files existed all write them from the same table, so the
// reports themselves did not change. What the table cannot say is
// written as Batsim writes it without the model (consumed_energy -1,
// consumed_joules 0, no power-state switches) or refused (an external
// run that rejected or killed jobs: the table neither lists nor marks
// them).
package report
