package eapm

import "schedlab/solvers"

// Stored bytes of a preset's workload: Tarplee's matrices (30 task types ×
// 9 machine types, with the preview's heat maps) are about 15 KiB; a user
// is one line of the canonical JSON and of the preview's table.
const (
	storedMatrixBytes = 32 << 10
	storedUserBytes   = 64
)

// sizeOf30Users bounds a preset of 30 users (tarplee, case 1, case 3),
// whose size no parameter changes: field is the one a refusal names.
func sizeOf30Users[C any](field string) func(C) solvers.Estimate {
	return func(C) solvers.Estimate {
		return solvers.Estimate{Bytes: storedMatrixBytes + 30*storedUserBytes, Field: field}
	}
}

// sizeCase2 bounds zhang2022-case2: n users.
func sizeCase2(c Case2Config) solvers.Estimate {
	return solvers.Estimate{Bytes: storedMatrixBytes + int64(c.Users())*storedUserBytes, Field: "n"}
}
