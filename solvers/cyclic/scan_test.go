package cyclic

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkLoadScan prints the failure rate U of fair (k = 1, proctime,
// independent cycles) against the owners' local load on toporkov2014 (how
// fig3Loads were found); an engineer's tool, never run by go test:
//
//	CYCLIC_SCAN=1000 go test ./solvers/cyclic -run XXX -bench LoadScan -benchtime 1x
func BenchmarkLoadScan(t *testing.B) {
	env := os.Getenv("CYCLIC_SCAN")
	if env == "" {
		env = "1000"
	}
	cycles, err := strconv.Atoi(env)
	if err != nil {
		t.Fatal(err)
	}
	loads := []float64{0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5}
	if l := os.Getenv("CYCLIC_SCAN_LOADS"); l != "" {
		loads = nil
		for _, f := range strings.Split(l, ",") {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatal(err)
			}
			loads = append(loads, v)
		}
	}
	for _, l := range loads {
		g := Toporkov2014()
		g.LocalLoad = l
		u, err := failureRate(context.Background(), g, cycles)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Printf("local_load %.2f  U %.4f\n", l, u)
	}
}
