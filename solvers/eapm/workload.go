package eapm

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	"schedlab/errs"
	"schedlab/solvers"
	"schedlab/solvers/formats"
)

// FormatVersion names the native workload JSON schema (see doc.go).
const FormatVersion = "eapm/v1"

// workloadJSON is the native workload file and Workload.Data (see doc.go).
type workloadJSON struct {
	Format          string      `json:"format,omitempty"`
	Name            string      `json:"name,omitempty"`
	Source          string      `json:"source,omitempty"`
	MachineTypes    []string    `json:"machine_types,omitempty"`
	TaskTypes       []string    `json:"task_types,omitempty"`
	ETC             [][]float64 `json:"etc"`
	APC             [][]float64 `json:"apc"`
	MachinesPerType []int       `json:"machines_per_type,omitempty"`
	Users           []User      `json:"users"`
}

// csvLimits bound the uploaded CSV files.
var (
	matrixLimits = formats.Limits{MaxRows: MaxTaskTypes, MaxCols: MaxMachineTypes + 1}
	userLimits   = formats.Limits{MaxRows: MaxUsers, MaxCols: 16}
)

// parseWorkload reads an upload (solvers.Strategy.ParseWorkload; see
// doc.go for the formats).
func parseWorkload(files []solvers.File) (*solvers.Workload, error) {
	if len(files) == 0 {
		return nil, errs.Invalidf("file", "no file: upload one JSON workload, or etc, apc and users CSV files")
	}
	roles := map[string]solvers.File{}
	for _, f := range files {
		role := fileRole(f)
		if role == "" {
			return nil, errs.Invalidf(displayName(f), "cannot tell what this file is: name it etc.csv, apc.csv or users.csv (or upload one .json workload)")
		}
		if prev, dup := roles[role]; dup {
			return nil, errs.Invalidf(displayName(f), "a second %s file (the first was %s)", role, displayName(prev))
		}
		roles[role] = f
	}
	if f, ok := roles["json"]; ok {
		if len(roles) > 1 {
			return nil, errs.Invalidf(displayName(f), "a JSON workload comes alone, without CSV files")
		}
		in, wj, err := decodeJSON(displayName(f), f.Data)
		if err != nil {
			return nil, err
		}
		return newWorkload(in, cmp.Or(wj.Name, strings.TrimSuffix(path.Base(displayName(f)), path.Ext(displayName(f)))), "json", wj.Source)
	}
	for _, r := range []string{"etc", "apc", "users"} {
		if _, ok := roles[r]; !ok {
			return nil, errs.Invalidf(r, "missing the %s file (%s)", r, roleDoc[r])
		}
	}
	in, err := decodeCSV(roles)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(path.Base(displayName(roles["users"])), path.Ext(displayName(roles["users"])))
	return newWorkload(in, name, "csv", "")
}

var roleDoc = map[string]string{
	"etc":   "CSV, task types × machine types, seconds",
	"apc":   "CSV, task types × machine types, watts",
	"users": "CSV, one user per line in arrival order: type,tasks",
}

func displayName(f solvers.File) string {
	if f.Name != "" {
		return path.Base(f.Name)
	}
	if f.Field != "" {
		return f.Field
	}
	return "file"
}

// fileRole identifies a file by its form field, else by its name.
func fileRole(f solvers.File) string {
	switch strings.ToLower(f.Field) {
	case "etc", "apc", "users":
		return strings.ToLower(f.Field)
	case "mpt", "machines_per_type":
		return "mpt"
	case "json":
		return "json"
	}
	name := strings.ToLower(path.Base(f.Name))
	switch {
	case strings.HasSuffix(name, ".json"):
		return "json"
	case strings.Contains(name, "user"):
		return "users"
	case strings.Contains(name, "mpt"):
		return "mpt"
	case strings.Contains(name, "apc") || strings.Contains(name, "epc"):
		return "apc"
	case strings.Contains(name, "etc"):
		return "etc"
	}
	if strings.ToLower(f.Field) == "file" && bytes.HasPrefix(bytes.TrimSpace(f.Data), []byte("{")) {
		return "json"
	}
	return ""
}

// decodeJSON reads the native workload strictly: unknown fields, trailing
// data and wrong types are errors naming the file and, where known, the line.
func decodeJSON(name string, data []byte) (*Instance, *workloadJSON, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var wj workloadJSON
	if err := dec.Decode(&wj); err != nil {
		return nil, nil, jsonError(name, data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, nil, errs.Invalidf(name, "unexpected data after the workload object")
	}
	if wj.Format != "" && wj.Format != FormatVersion {
		return nil, nil, errs.Invalidf(name+" format", "unknown format %q, expected %q", wj.Format, FormatVersion)
	}
	if wj.ETC == nil {
		return nil, nil, errs.Invalidf(name+" etc", "missing: the ETC matrix (task types × machine types, seconds)")
	}
	if wj.APC == nil {
		return nil, nil, errs.Invalidf(name+" apc", "missing: the APC matrix (task types × machine types, watts)")
	}
	if wj.Users == nil {
		return nil, nil, errs.Invalidf(name+" users", "missing: the user stream [{\"type\": 0, \"tasks\": 400}, ...]")
	}
	in := &Instance{MachineNames: wj.MachineTypes, TaskNames: wj.TaskTypes, ETC: wj.ETC, APC: wj.APC,
		Machines: wj.MachinesPerType, Users: wj.Users, Gamma: 1, C: 1}
	if err := in.Validate(); err != nil {
		return nil, nil, prefixField(name, err)
	}
	return in, &wj, nil
}

func prefixField(name string, err error) error {
	var e *errs.Error
	if errors.As(err, &e) && e.Field != "" {
		e.Field = name + " " + e.Field
	}
	return err
}

func jsonError(name string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return errs.Invalidf(formats.Line(name, lineOf(data, syn.Offset)), "malformed JSON: %v", syn)
	case errors.As(err, &typ):
		return errs.Invalidf(fmt.Sprintf("%s line %d %s", name, lineOf(data, typ.Offset), typ.Field),
			"expected %s, got JSON %s", typ.Type, typ.Value)
	case errors.Is(err, io.EOF):
		return errs.Invalidf(name, "the file is empty")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errs.Invalidf(name, "malformed JSON: unexpected end of file")
	}
	return errs.Invalidf(name, "%v", strings.TrimPrefix(err.Error(), "json: "))
}

func lineOf(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// decodeCSV reads etc, apc and users CSV files (and an optional mpt file of
// machines per type).
func decodeCSV(roles map[string]solvers.File) (*Instance, error) {
	etcName, apcName := displayName(roles["etc"]), displayName(roles["apc"])
	etc, err := formats.ReadMatrix(etcName, roles["etc"].Data, matrixLimits)
	if err != nil {
		return nil, err
	}
	apc, err := formats.ReadMatrix(apcName, roles["apc"].Data, matrixLimits)
	if err != nil {
		return nil, err
	}
	if etc.Rows() != apc.Rows() || etc.Cols() != apc.Cols() {
		return nil, errs.Invalidf(apcName, "APC is %d×%d (task types × machine types) but ETC (%s) is %d×%d",
			apc.Rows(), apc.Cols(), etcName, etc.Rows(), etc.Cols())
	}
	for _, mx := range []struct {
		name string
		m    *formats.Matrix
		what string
	}{{etcName, etc, "time"}, {apcName, apc, "power"}} {
		for r, row := range mx.m.Values {
			for c, v := range row {
				if !(v >= MinValue && v <= MaxValue) {
					return nil, errs.Invalidf(formats.Cell(mx.name, mx.m.Lines[r], c+1+mx.m.LabelColumn),
						"%s must be between %g and %g, got %g", mx.what, MinValue, MaxValue, v)
				}
			}
		}
	}
	if etc.Cols() > MaxMachineTypes {
		return nil, errs.New(errs.TooLarge, etcName, "%d machine types, at most %d", etc.Cols(), MaxMachineTypes)
	}
	in := &Instance{ETC: etc.Values, APC: apc.Values, Gamma: 1, C: 1}
	in.MachineNames = etc.ColNames
	if in.MachineNames == nil {
		in.MachineNames = apc.ColNames
	}
	in.TaskNames = etc.RowNames
	if in.TaskNames == nil {
		in.TaskNames = apc.RowNames
	}
	if f, ok := roles["mpt"]; ok {
		if in.Machines, err = readMPT(displayName(f), f.Data, etc.Cols()); err != nil {
			return nil, err
		}
	}
	if in.Users, err = readUsers(displayName(roles["users"]), roles["users"].Data, in); err != nil {
		return nil, err
	}
	if err := in.Validate(); err != nil {
		return nil, err
	}
	return in, nil
}

// readMPT reads machines per type: one count per line or one row of counts.
func readMPT(name string, data []byte, m int) ([]int, error) {
	mx, err := formats.ReadMatrix(name, data, formats.Limits{MaxRows: MaxMachineTypes, MaxCols: MaxMachineTypes})
	if err != nil {
		return nil, err
	}
	var out []int
	for r, row := range mx.Values {
		for c, v := range row {
			if v != float64(int(v)) || v < 1 || v > MaxMachinesPerType {
				return nil, errs.Invalidf(formats.Cell(name, mx.Lines[r], c+1+mx.LabelColumn), "machines per type must be a whole number between 1 and %d, got %g", MaxMachinesPerType, v)
			}
			out = append(out, int(v))
		}
	}
	if len(out) != m {
		return nil, errs.Invalidf(name, "%d counts for %d machine types", len(out), m)
	}
	return out, nil
}

// readUsers reads the user stream: one user per row in arrival order, columns
// type and tasks. With a header the columns are found by name (type or
// task_type; tasks, a or count) and other columns are ignored; without one
// there must be exactly two. A type is a 0-based task type index or a task
// type name.
func readUsers(name string, data []byte, in *Instance) ([]User, error) {
	recs, err := formats.ReadRecords(name, data, userLimits)
	if err != nil {
		return nil, err
	}
	typeCol, tasksCol := 0, 1
	if formats.LooksLikeHeader(recs[0].Fields) {
		typeCol, tasksCol = -1, -1
		for k, h := range recs[0].Fields {
			switch strings.ToLower(h) {
			case "type", "task_type", "tasktype", "task type":
				typeCol = k
			case "tasks", "a", "count", "n_tasks", "bag":
				tasksCol = k
			}
		}
		if typeCol < 0 || tasksCol < 0 {
			return nil, errs.Invalidf(formats.Line(name, recs[0].Line), "the header needs a type and a tasks column, got %q", strings.Join(recs[0].Fields, ","))
		}
		recs = recs[1:]
	} else if len(recs[0].Fields) != 2 {
		return nil, errs.Invalidf(formats.Line(name, recs[0].Line), "%d columns; without a header the file has two: type,tasks", len(recs[0].Fields))
	}
	if len(recs) == 0 {
		return nil, errs.Invalidf(name, "no users, only a header")
	}
	if len(recs) > MaxUsers {
		return nil, errs.New(errs.TooLarge, name, "%d users, at most %d", len(recs), MaxUsers)
	}
	if len(recs)*in.M() > MaxCells {
		return nil, errs.New(errs.TooLarge, name, "%d users × %d machine types = %d allocation cells, over the budget of %d", len(recs), in.M(), len(recs)*in.M(), MaxCells)
	}
	byName := map[string]int{}
	for t := range in.T() {
		byName[strings.ToLower(in.TaskName(t))] = t
	}
	users := make([]User, len(recs))
	for i, r := range recs {
		ts := r.Fields[typeCol]
		t, err := strconv.Atoi(ts)
		if err != nil {
			var ok bool
			if t, ok = byName[strings.ToLower(ts)]; !ok {
				return nil, errs.Invalidf(formats.Cell(name, r.Line, "type"), "unknown task type %q: use an index 0–%d or a task type name", clipText(ts), in.T()-1)
			}
		}
		if t < 0 || t >= in.T() {
			return nil, errs.Invalidf(formats.Cell(name, r.Line, "type"), "task type must be between 0 and %d (the ETC matrix has %d rows), got %d", in.T()-1, in.T(), t)
		}
		a, err := strconv.Atoi(r.Fields[tasksCol])
		if err != nil || a < 1 {
			return nil, errs.Invalidf(formats.Cell(name, r.Line, "tasks"), "tasks must be a positive integer, got %s", clipText(r.Fields[tasksCol]))
		}
		if a > MaxTasks {
			return nil, errs.Invalidf(formats.Cell(name, r.Line, "tasks"), "tasks must be at most %d, got %d", MaxTasks, a)
		}
		users[i] = User{Type: t, Tasks: a}
	}
	return users, nil
}

func clipText(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

// canonical returns the native JSON of an instance (names and counts filled).
func canonical(in *Instance, name, source string) []byte {
	wj := workloadJSON{Format: FormatVersion, Name: name, Source: source,
		ETC: in.ETC, APC: in.APC, Users: in.Users,
		MachineTypes: make([]string, in.M()), TaskTypes: make([]string, in.T()), MachinesPerType: make([]int, in.M())}
	for j := range wj.MachineTypes {
		wj.MachineTypes[j] = in.MachineName(j)
		wj.MachinesPerType[j] = in.MachineCount(j)
	}
	for t := range wj.TaskTypes {
		wj.TaskTypes[t] = in.TaskName(t)
	}
	b, err := json.Marshal(wj)
	if err != nil {
		panic("eapm: cannot encode a validated instance: " + err.Error())
	}
	return b
}

func newWorkload(in *Instance, name, format, source string) (*solvers.Workload, error) {
	return &solvers.Workload{Name: name, Format: format, Summary: summary(in),
		Data: canonical(in, name, source), Preview: preview(in)}, nil
}

// loadWorkload reads a Workload's canonical Data back into an instance of
// the run's own. The decoded instance is kept in w.Decoded (when the caller
// keeps one) and shared by the runs of w; each run gets a shallow copy, so
// applyConfig's γ, c and machine counts replace fields of the copy. No run
// changes the shared slices' elements (TestSharedDecodedInstanceIsNotChanged).
func loadWorkload(w *solvers.Workload) (*Instance, error) {
	if w == nil || len(w.Data) == 0 {
		return nil, errs.Invalidf("workload", "the workload has no data")
	}
	v, err := w.Decoded.Get("eapm", func() (any, error) {
		in, _, err := decodeJSON("workload", w.Data)
		return in, err
	})
	if err != nil {
		return nil, err
	}
	in := *v.(*Instance)
	return &in, nil
}

func summary(in *Instance) string {
	return fmt.Sprintf("%s users, %s machine types, %s tasks", thousands(len(in.Users)), thousands(in.M()), thousands(in.TotalTasks()))
}

// thousands formats 17112 as "17,112".
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
