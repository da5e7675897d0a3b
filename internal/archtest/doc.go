// Package archtest holds the test that keeps the layers of
// docs/architecture.md: it reads the page's layer table and `go list` over
// the module, and fails on an import against them. It has no code of its own.
package archtest
