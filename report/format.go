package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The formatting of numbers, counts, durations and byte counts for
// people, in one place: reports' notes and tables, pages, error messages.

// FormatNumber writes v with at most 2 decimals and no trailing zeros
// ("12.5", "48", "0.04").
func FormatNumber(v float64) string {
	v = math.Round(v*100) / 100
	if v == 0 {
		v = 0 // no "-0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// FormatCount writes n of a unit that does not convert to seconds, singular for
// exactly one: "1 slot", "3 slots", "2.5 time units".
func FormatCount(n float64, unit string) string {
	num := FormatNumber(n)
	if unit == "" {
		return num
	}
	if num == "1" || num == "-1" {
		return num + " " + strings.TrimSuffix(unit, "s")
	}
	return num + " " + pluralUnit(unit)
}

func pluralUnit(u string) string {
	if u == "" || strings.HasSuffix(u, "s") {
		return u
	}
	return u + "s"
}

// HumanDuration writes a length of sec seconds as people read it, in its
// two largest units, each rounded at the last one shown: "250 ms", "4.5 s",
// "42 s", "3 min 20 s", "11 h 47 min", "2 d 3 h"; a zero second part is
// left out ("3 min", "11 h"). The JavaScript of the Gantt tooltip
// (views/charts) writes the same text; its browser test compares the two.
func HumanDuration(sec float64) string {
	if math.IsNaN(sec) || math.IsInf(sec, 0) {
		return fmt.Sprint(sec)
	}
	if sec < 0 {
		return "−" + HumanDuration(-sec)
	}
	if sec >= 1e15 { // beyond int64 seconds' exactness: days
		return FormatNumber(sec/86400) + " d"
	}
	two := func(a int64, ua string, b int64, ub string) string {
		if b == 0 {
			return strconv.FormatInt(a, 10) + " " + ua
		}
		return strconv.FormatInt(a, 10) + " " + ua + " " + strconv.FormatInt(b, 10) + " " + ub
	}
	switch {
	case sec == 0:
		return "0 s"
	case sec < 0.9995:
		return strconv.FormatFloat(math.Round(sec*1000), 'f', -1, 64) + " ms"
	case sec < 9.95:
		return strconv.FormatFloat(math.Round(sec*10)/10, 'f', -1, 64) + " s"
	case sec < 59.5:
		return strconv.FormatFloat(math.Round(sec), 'f', -1, 64) + " s"
	}
	if s := int64(math.Round(sec)); s < 3600 {
		return two(s/60, "min", s%60, "s")
	}
	if m := int64(math.Round(sec / 60)); m < 24*60 {
		return two(m/60, "h", m%60, "min")
	}
	h := int64(math.Round(sec / 3600))
	return two(h/24, "d", h%24, "h")
}

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
