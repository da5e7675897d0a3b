package batch

import (
	"strings"
	"testing"

	"schedlab/solvers/formats"
)

// TestFromSWFNoteSaysWhereMachineAndSizesCameFrom: the first note names
// the header field the machine size came from and the SWF field the job
// sizes were read from; a trace with -1 requested processors throughout
// (the Lublin model's logs) reads "from the allocated processors field",
// not "(N records fell back to the other field)" (issue 42).
func TestFromSWFNoteSaysWhereMachineAndSizesCameFrom(t *testing.T) {
	const rec = " -1 1 1 1 -1 -1 -1 -1 -1\n"
	cases := []struct {
		name, trace string
		o           SWFOptions
		want        string
	}{
		{"every record requested", "; MaxProcs: 8\n1 0 0 10 4 -1 -1 2 20" + rec + "2 1 0 10 4 -1 -1 3 20" + rec, SWFOptions{},
			"Machine: 8 processors (the header's MaxProcs). Job size from the requested processors field (SWF field 8)."},
		{"no requested processors (Lublin)", "; MaxNodes: 8\n1 0 0 10 4 -1 -1 -1 20" + rec + "2 1 0 10 2 -1 -1 -1 20" + rec, SWFOptions{},
			"Machine: 8 processors (the header's MaxNodes, as it gives no MaxProcs). Job size from the allocated processors field (SWF field 5): the requested processors field (8) is -1 in every record."},
		{"some without", "; MaxProcs: 8\n1 0 0 10 4 -1 -1 -1 20" + rec + "2 1 0 10 2 -1 -1 1 20" + rec + "3 2 0 10 2 -1 -1 3 20" + rec, SWFOptions{Procs: 6},
			"Machine: 6 processors (the procs parameter). Job size from the requested processors field (SWF field 8), and from the allocated processors field (5) in the 1 of 3 records where it is -1."},
		{"allocated chosen", "; MaxProcs: 8\n1 0 0 10 -1 -1 -1 2 20" + rec + "2 1 0 10 2 -1 -1 1 20" + rec, SWFOptions{Size: "allocated"},
			"Machine: 8 processors (the header's MaxProcs). Job size from the allocated processors field (SWF field 5), and from the requested processors field (8) in the 1 of 2 records where it is -1."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := formats.ReadSWF("t.swf", []byte(tc.trace))
			if err != nil {
				t.Fatal(err)
			}
			j, err := FromSWF(s, tc.o)
			if err != nil {
				t.Fatal(err)
			}
			if len(j.Notes) == 0 || j.Notes[0] != tc.want {
				t.Errorf("first note %q\nwant          %q", strings.Join(j.Notes, " | "), tc.want)
			}
		})
	}
}
