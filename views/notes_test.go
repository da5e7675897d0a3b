package views

import (
	"testing"

	"schedlab/report"
)

// TestNotesAreHeadedByWhatTheReportIsOf: a run's notes say "How to read
// this run", a workload preview's "How to read this workload" (issue 42:
// workload pages said "run"); the summary's start of the first note is
// apart (.first-note), for the stylesheet to hide once the panel is open
// and the note is read in full below it.
func TestNotesAreHeadedByWhatTheReportIsOf(t *testing.T) {
	r := &report.Report{Notes: []string{"Machine: 256 processors (the header's MaxNodes). Job size from field 5.", "Another."}}
	for _, tc := range []struct {
		name string
		doc  func() string
		want string
	}{
		{"run", func() string {
			return renderDoc(t, ReportView(r, "abc")).Find("[data-testid=report-notes-heading]").Text()
		}, "How to read this run"},
		{"run of a variant", func() string {
			return renderDoc(t, RunReportView(r, "abc", "batch")).Find("[data-testid=report-notes-heading]").Text()
		}, "How to read this run"},
		{"workload", func() string { return renderDoc(t, PreviewView(r)).Find("[data-testid=report-notes-heading]").Text() }, "How to read this workload"},
	} {
		if got := tc.doc(); got != tc.want {
			t.Errorf("%s: notes headed %q, want %q", tc.name, got, tc.want)
		}
	}
	first := renderDoc(t, PreviewView(r)).Find("summary .first-note").Text()
	if first != ": Machine: 256 processors (the header's MaxNodes)." {
		t.Errorf("the summary starts the first note as %q", first)
	}
}
