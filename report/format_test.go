package report

import (
	"math"
	"testing"
)

func TestFormatBytes(t *testing.T) {
	for n, want := range map[int64]string{
		4 << 30: "4 GiB", 1536 << 20: "1.5 GiB", 64 << 20: "64 MiB", 512: "512 B", 0: "0 B", 1 << 40: "1 TiB",
		1023: "1023 B", 1025 << 10: "1 MiB", math.MaxInt64: "more than 8 EiB", -1: "more than 8 EiB",
	} {
		if got := FormatBytes(n); got != want {
			t.Errorf("FormatBytes(%d) = %q, want %q", n, got, want)
		}
	}
}
