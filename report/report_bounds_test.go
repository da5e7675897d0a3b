package report

import "testing"

func TestMetricBoundsAreChecked(t *testing.T) {
	zero, one := 0.0, 1.0
	ok := &Report{Metrics: []Metric{{Name: "accuracy", Value: 1, Min: &zero, Max: &one}}}
	if err := ok.Validate(); err != nil || !ok.Metrics[0].Bounded() {
		t.Errorf("a value at its bound: %v", err)
	}
	out := &Report{Metrics: []Metric{{Name: "accuracy", Value: 1.138, Min: &zero, Max: &one}}}
	if err := out.Validate(); err == nil {
		t.Error("accuracy 1.138 with a bound of 1 passed")
	}
	empty := &Report{Metrics: []Metric{{Name: "x", Value: 0, Min: &one, Max: &zero}}}
	if err := empty.Validate(); err == nil {
		t.Error("empty bounds passed")
	}
	if (Metric{Name: "makespan"}).Bounded() {
		t.Error("a metric without bounds is bounded")
	}
}
