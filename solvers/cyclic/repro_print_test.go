package cyclic

import (
	"context"
	"fmt"
	"os"
	"testing"

	"schedlab/solvers"
)

// BenchmarkReproducePrint prints the reproduce report's tables and notes
// (an engineer's tool for the package doc and the notes: go test never
// runs it); CYCLIC_PRINT=<cycles> sets the cycles (default the reproduce's).
//
//	CYCLIC_PRINT=100 go test ./solvers/cyclic -run XXX -bench ReproducePrint -benchtime 1x
func BenchmarkReproducePrint(b *testing.B) {
	p := solvers.Params{}
	if cycles := os.Getenv("CYCLIC_PRINT"); cycles != "" {
		p["cycles"] = cycles
	}
	for range b.N {
		r, err := New().Reproduce(context.Background(), p, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := r.Validate(); err != nil {
			b.Fatal(err)
		}
		for _, tb := range r.Tables {
			fmt.Println("##", tb.Title)
			fmt.Println(tb.Columns)
			for _, row := range tb.Rows {
				for _, v := range row {
					if f, ok := v.(float64); ok {
						fmt.Printf("%.4g\t", f)
					} else {
						fmt.Printf("%v\t", v)
					}
				}
				fmt.Println()
			}
		}
		for _, n := range r.Notes {
			fmt.Println("-", n)
		}
	}
}
