// Package views holds schedlab's pages as templ components. Views only
// render what handlers hand them (props structs); they never query the store
// or call a solver. One generic renderer, ReportView, draws every strategy's
// report.Report: metric cards, tables with CSV downloads, plots, Gantt
// charts, graphs and heat maps (the charts come from views/charts).
//
// One time frame per page: a report with a report.TimeFrame (Report.Time)
// has it stated once above its charts ("Times: hours since the first
// submission", data-testid="time-frame") and its Gantts and time plots
// drawn in it (charts.InFrame); metric cards in a time unit add the value
// for people from 2 min ("1 h 35 min" under 5,676 s). The compare page
// does the same when the runs share a frame (charts.JoinFrames). Tables
// keep the data's own numbers (their CSV is an export, e.g. Batsim's
// columns in trace seconds).
//
// Notes: a report's notes sit in one collapsed panel headed "How to read
// this run" (a workload preview's: "this workload", PreviewView) whose
// summary starts the first note while closed; open, that start is hidden
// (app.css) since the note is read in full below it: shown in both places
// it read twice (issue 42). A run's page reloads when its run's status
// changes (data-reload-on-change, static/app.js), so a run that started
// after the page was drawn says when, in the server's time zone as its
// creation does. A Gantt's CSV (app.js ganttCSV) is one row per bar:
// lane, job, start, end and length in the chart's unit (and origin),
// kind, group; "moved" on a compare panel.
//
// Testable hooks: every element a test or a user script needs carries a
// data-testid attribute.
package views
