package batsim

import (
	"slices"
	"testing"

	"schedlab/solvers/batch"
)

// FuzzParseIntervals: any string either is refused in words or reads as
// ascending distinct ids that read back the same from Batsim's own
// writing of them (batch.Intervals).
func FuzzParseIntervals(f *testing.F) {
	for _, s := range []string{"0-3 7", "1-2 1-3 5 7", "", "1-0", " 5 ", "-1", "3-3 3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ids, err := ParseIntervals(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		if len(ids) == 0 {
			t.Fatal("an empty set accepted")
		}
		for i := 1; i < len(ids); i++ {
			if ids[i] <= ids[i-1] {
				t.Fatalf("%q: ids not ascending and distinct: %v", s, ids)
			}
		}
		back, err := ParseIntervals(batch.Intervals(ids))
		if err != nil || !slices.Equal(back, ids) {
			t.Fatalf("%q: %v does not read back (%v, %v)", s, ids, back, err)
		}
	})
}

// FuzzDecodeReply: any bytes either are refused in words or decode into
// events with a type and a finite timestamp.
func FuzzDecodeReply(f *testing.F) {
	for _, s := range []string{
		`{"now":0,"events":[]}`,
		`{"now":2,"events":[{"timestamp":2,"type":"EXECUTE_JOB","data":{"job_id":"w0!1","alloc":"0-1"}}]}`,
		`{"now": 0, "events": [`,
		`[1,2]`,
		`{"now":0,"events":[{"timestamp":0,"type":"NOTIFY","data":null}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		_, evs, err := decodeReply(b)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		for _, ev := range evs {
			if ev.Type == "" {
				t.Fatalf("%q: an event without a type accepted", b)
			}
		}
	})
}
