// Package views holds schedlab's pages as templ components. Views only
// render what handlers hand them (props structs); they never query the store
// or call a solver. One generic renderer, ReportView, draws every strategy's
// solvers.Report: metric cards, tables with CSV downloads, plots, Gantt
// charts, graphs and heat maps (the charts come from views/charts).
//
// One time frame per page: a report with a solvers.TimeFrame (Report.Time)
// has it stated once above its charts ("Times: hours since the first
// submission", data-testid="time-frame") and its Gantts and time plots
// drawn in it (charts.InFrame); metric cards in a time unit add the value
// for people from 2 min ("1 h 35 min" under 5,676 s). The compare page
// does the same when the runs share a frame (charts.JoinFrames). Tables
// keep the data's own numbers (their CSV is an export, e.g. Batsim's
// columns in trace seconds).
//
// Testable hooks: every element a test or a user script needs carries a
// data-testid attribute.
package views
