// Package solvers is the contract between schedlab's algorithms and the rest
// of the application: the Strategy every family is (one concrete type
// whose optional capabilities are func fields, nil when absent; issue 44:
// one implementation and its test doubles needed no interface, and type
// assertions on optional interfaces hid which capabilities a caller
// relied on), and parameters with their
// documented specs.
//
// Solvers are pure Go: no HTTP, SQL or templ. Everything they need comes in
// as arguments (workload bytes, parameters, a seed, a context and a progress
// callback) and everything they produce goes out as a report.Report, which
// the store keeps as JSON and one generic renderer draws.
//
// A family's variants are one table: rows that embed Variant beside what
// only the family knows of each (its algorithm; whether it is exact, the
// paper's or ours, needs an SWF trace). Its run looks the row up
// (LookupVariant) and asks the row, never compares names, and the lists of
// variants a metric or a parameter is for are drawn from the same rows
// (VariantNames), so a new variant is one row.
package solvers
