package errs

import (
	"math"
	"strconv"
)

// FormatBytes writes a byte count for a message in binary units: "4 GiB",
// "1.5 GiB", "64 MiB", "512 B". A negative count or math.MaxInt64 (a
// saturated estimate, or a uint64 above it converted) is "more than 8 EiB".
func FormatBytes(n int64) string {
	if n == math.MaxInt64 || n < 0 {
		return "more than 8 EiB"
	}
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	return strconv.FormatFloat(math.Round(v*100)/100, 'f', -1, 64) + " " + units[u]
}
