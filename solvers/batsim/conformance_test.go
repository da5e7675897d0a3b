package batsim

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docLine and tableRow are an item as the package doc and docs/batsim.md
// write it.
func docLine(c ConformanceItem) string {
	s := c.Item + ": " + c.Status
	if len(c.Tests) > 0 {
		s += " (" + strings.Join(c.Tests, ", ") + ")"
	}
	return s
}

func tableRow(c ConformanceItem) string {
	return "| " + strings.ReplaceAll(c.Item, "|", "\\|") + " | " + c.Status + " | " + strings.Join(c.Tests, ", ") + " |"
}

// TestConformanceTableIsWrittenAndHeld: the package doc and the docs page
// list every item of Conformance as it is, and every test an item names
// exists (the part before '/' is a Test function of this package; a
// subtest name is one of its cases).
func TestConformanceTableIsWrittenAndHeld(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("../../docs/batsim.md")
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	files, _ := filepath.Glob("*_test.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	flat := strings.Join(strings.Fields(strings.ReplaceAll(string(doc), "//", "")), " ")
	for _, c := range Conformance() {
		if !strings.Contains(flat, docLine(c)) {
			t.Errorf("doc.go lacks the line %q", docLine(c))
		}
		if !strings.Contains(string(page), tableRow(c)) {
			t.Errorf("docs/batsim.md lacks the row %q", tableRow(c))
		}
		for _, name := range c.Tests {
			fn, sub, _ := strings.Cut(name, "/")
			if !regexp.MustCompile(`func ` + fn + `\(t \*testing\.T\)`).MatchString(src.String()) {
				t.Errorf("%s: no test %s", c.Item, fn)
			}
			if sub != "" && !strings.Contains(src.String(), `"`+strings.ReplaceAll(sub, "_", " ")+`"`) && !strings.Contains(src.String(), "batsimtest."+strings.ToUpper(sub[:1])+sub[1:]) {
				t.Errorf("%s: no case %q in %s", c.Item, sub, fn)
			}
		}
	}
}

// ConformanceItem is one item of Batsim 4.2.1's protocol (docs/protocol.rst
// and src/protocol.cpp, server.cpp at tag v4.2.1): what schedlab does with
// it and the tests that hold it.
type ConformanceItem struct {
	Item   string
	Status string // supported, refused, not sent, off, …, in a few words
	Tests  []string
}

// Conformance is the conformance table of the package doc and of
// docs/batsim.md (TestConformanceTableIsWrittenAndHeld checks both and
// that every test named exists).
func Conformance() []ConformanceItem {
	bad := "TestBadDecisionsFailTheRunNamingTheDecision/"
	return []ConformanceItem{
		{"SIMULATION_BEGINS (config, compute_resources with properties and zone_properties, workloads, profiles)", "sent", []string{"TestScriptedScheduleIsApplied"}},
		{"JOB_SUBMITTED (id, subtime, walltime, res, profile: the fields of Batsim's SWF converters)", "sent", []string{"TestScriptedScheduleIsApplied"}},
		{"JOB_COMPLETED (job_state, return_code, alloc)", "sent", []string{"TestCompletionsComeBeforeSubmissionsAtOneTime", "TestRejectKillAndCallMeLater"}},
		{"JOB_KILLED (job_ids, job_progress) after the killed jobs' JOB_COMPLETED", "sent", []string{"TestRejectKillAndCallMeLater"}},
		{"REQUESTED_CALL", "sent", []string{"TestRejectKillAndCallMeLater", "TestThinkingTimeMessages"}},
		{"RESOURCE_STATE_CHANGED", "sent (energy on)", []string{"TestPowerStatesAndEnergy"}},
		{"ANSWER consumed_energy", "sent (energy on)", []string{"TestPowerStatesAndEnergy"}},
		{"NOTIFY no_more_static_job_to_submit", "sent", []string{"TestScriptedScheduleIsApplied"}},
		{"SIMULATION_ENDS (its reply must be empty)", "sent", []string{"TestScriptedScheduleIsApplied"}},
		{"NOTIFY of external events, FROM_JOB_MSG", "never sent (no external event lists, no message-passing profiles)", nil},
		{"thinking time: decisions timestamped after the message, applied at their timestamps", "supported", []string{"TestThinkingTimeSchedule", "TestThinkingTimeMessages"}},
		{"a decision timestamped after its reply's now", "refused, as Batsim", []string{bad + "timestamp_after_the_reply's_now"}},
		{"a reply whose now is before its message's", "refused (Batsim lets it pass)", []string{"TestBadDecisionProcessesFailTheirRun/backwards"}},
		{"interval sets (\"1-2 1-3 5 7\": unions of ids and ranges)", "supported", []string{"TestParseIntervals"}},
		{"EXECUTE_JOB with alloc (rigid: exactly res hosts)", "supported", []string{"TestScriptedScheduleIsApplied", bad + "wrong_size"}},
		{"EXECUTE_JOB mapping", "refused", []string{bad + "unsupported_field"}},
		{"EXECUTE_JOB storage_mapping, additional_io_job; storage resources", "refused (no storage)", []string{bad + "storage_mapping"}},
		{"compute sharing (two jobs on one host)", "refused, as Batsim with sharing off", []string{bad + "busy_resources"}},
		{"REJECT_JOB", "supported", []string{"TestRejectKillAndCallMeLater"}},
		{"KILL_JOB", "supported", []string{"TestRejectKillAndCallMeLater", "TestKillAndRequeueSchedule", bad + "kill_a_waiting_job"}},
		{"CALL_ME_LATER (strictly after the current time)", "supported; at or before now refused, as Batsim", []string{"TestRejectKillAndCallMeLater", bad + "call_at_exactly_now", bad + "call_in_the_past"}},
		{"REGISTER_PROFILE delay", "supported (dynamic_jobs)", []string{"TestKillAndRequeueSchedule"}},
		{"REGISTER_PROFILE parallel_homogeneous (com 0)", "supported with a host speed", []string{"TestParallelHomogeneousProfile", "TestDynamicRegistrationRefusals"}},
		{"REGISTER_PROFILE of other types", "refused", []string{"TestDynamicRegistrationRefusals"}},
		{"REGISTER_JOB (kill and requeue: pybatsim's resubmit_job)", "supported (dynamic_jobs)", []string{"TestKillAndRequeueSchedule", "TestDynamicRegistrationRefusals"}},
		{"acknowledged registration (JOB_SUBMITTED of a registered job)", "supported (dynamic_jobs_ack)", []string{"TestKillAndRequeueSchedule"}},
		{"NOTIFY registration_finished, continue_registration", "supported", []string{"TestRegistrationMustFinish", "TestKillAndRequeueSchedule"}},
		{"Redis (a REGISTER_JOB without its job)", "off: refused", []string{"TestDynamicRegistrationRefusals"}},
		{"SET_JOB_METADATA", "supported", []string{"TestMetadataAndChangeJobState", "TestKillAndRequeueSchedule", bad + "metadata_with_quotes"}},
		{"CHANGE_JOB_STATE a submitted job to REJECTED", "supported", []string{"TestMetadataAndChangeJobState"}},
		{"CHANGE_JOB_STATE to RUNNING or completed", "refused (use EXECUTE_JOB, KILL_JOB)", []string{bad + "job_state_running", bad + "job_state_unknown"}},
		{"SET_RESOURCE_STATE (pstates, switch times, energy)", "supported (energy)", []string{"TestPowerStatesAndEnergy", "TestPowerStateRefusals", bad + "pstate_without_power"}},
		{"QUERY consumed_energy", "supported (energy)", []string{"TestPowerStatesAndEnergy", bad + "energy_without_power"}},
		{"QUERY of anything else", "refused, as Batsim", []string{bad + "unknown_query"}},
		{"ANSWER estimate_waiting_time", "accepted (Batsim only logs it)", []string{"TestMetadataAndChangeJobState", bad + "unknown_answer"}},
		{"TO_JOB_MSG", "refused (no message-passing profiles)", []string{bad + "message_to_a_job"}},
		{"NOTIFY of other types from the decision process", "refused, as Batsim", []string{bad + "notify_unknown"}},
		{"profiles forwarded (the job's runtime)", "off by default; forward_runtime gives delay profiles", []string{"TestForwardedRuntimeIsADelayProfile"}},
		{"a reply over MaxReplyBytes", "refused when announced", []string{"TestBadDecisionProcessesFailTheirRun/huge"}},
	}
}
