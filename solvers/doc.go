// Package solvers is the contract between schedlab's algorithms and the rest
// of the application: the Strategy interface every family implements, the
// Report every run returns, parameters with their documented specs, and the
// catalogue of the five strategy families.
//
// Solvers are pure Go: no HTTP, SQL or templ. Everything they need comes in
// as arguments (workload bytes, parameters, a seed, a context and a progress
// callback) and everything they produce goes out as a Report, which the
// store keeps as JSON and one generic renderer draws.
package solvers
