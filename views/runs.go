package views

// Kinds of RunColumn.
const (
	ColumnParam  = "param"
	ColumnMetric = "metric"
)

// RunColumn is a column of /runs chosen by ?cols=: a parameter or a
// metric, with each run's value (run id → text; absent: none).
type RunColumn struct {
	Kind   string // ColumnParam or ColumnMetric
	Name   string
	Values map[string]string
}

// Spec is the column as ?cols= spells it: "param:policy".
func (c RunColumn) Spec() string { return c.Kind + ":" + c.Name }
