package cyclic

import (
	"context"
	"fmt"
	"os"
	"testing"

	"schedlab/solvers"
)

// TestReproducePrint prints the reproduce report's tables; it runs only
// with CYCLIC_PRINT=<cycles> (for the engineer's note, not CI).
func TestReproducePrint(t *testing.T) {
	cycles := os.Getenv("CYCLIC_PRINT")
	if cycles == "" {
		t.Skip("set CYCLIC_PRINT=<cycles> to print the reproduce report")
	}
	r, err := New().Reproduce(context.Background(), solvers.Params{"cycles": cycles}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Validate(); err != nil {
		t.Fatal(err)
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
