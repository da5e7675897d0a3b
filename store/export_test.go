package store

import "database/sql"

// The internal tests' helpers, for the external tests (bundle_test.go,
// bundle_bench_test.go: package bundle imports store, so tests that go
// through a bundle file are in package store_test).
var (
	OpenTemp      = openTemp
	AddWorkload   = addWorkload
	AddExperiment = addExperiment
	Sweep         = sweep
	Claim         = claim
	Count         = count
	CheckKind     = checkKind
)

// DB is the store's database handle, for benchmarks that fill it.
func DB(s *Store) *sql.DB { return s.db }
