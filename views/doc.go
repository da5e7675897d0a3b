// Package views holds schedlab's pages as templ components. Views only
// render what handlers hand them (props structs); they never query the store
// or call a solver. One generic renderer, ReportView, draws every strategy's
// solvers.Report: metric cards, tables with CSV downloads, plots, Gantt
// charts, graphs and heat maps (the charts come from views/charts).
//
// Testable hooks: every element a test or a user script needs carries a
// data-testid attribute.
package views
