package formats

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"schedlab/errs"
)

// WfFormat reading (WfCommons workflow instances, schema 1.4, 1.5 and 1.6).
//
// ReadWfFormat reads the JSON of a WfCommons workflow instance
// (https://github.com/wfcommons/WfFormat, wfcommons-schema.json, version
// 1.5): top-level name and schemaVersion, workflow.specification.tasks (id,
// name, parents, children, inputFiles, outputFiles), workflow.specification
// .files (id, sizeInBytes) and workflow.execution.tasks (id,
// runtimeInSeconds, coreCount) and machines. Decisions:
//
//   - schemaVersion "1.5" and "1.6" are read by the same code: 1.6 only
//     adds optional metrics objects under workflow.specification and
//     workflow.execution (the WfFormat README, "What's New in 1.6": «a
//     valid 1.5 instance is structurally a valid 1.6 instance»), which are
//     derivative and ignored here.
//   - schemaVersion "1.4" (one workflow.tasks list holding each task's
//     files, runtime and machine) is translated to 1.5 as the official
//     migration does and then read by the same steps; wfformat14.go states
//     the mapping and its sources. Errors name the 1.4 paths.
//   - Any other version is errs.Invalid on field "schemaVersion", so a file
//     is never half-understood.
//   - Edges are the union of every task's parents and children lists (the
//     schema states both; the five WfInstances files agree both ways). An id
//     in parents or children that names no task is an error; so is a cycle
//     (the error names a task on it), a duplicate task id, a task without an
//     execution record, an execution record naming no task, a negative or
//     non-finite runtime and a negative file size.
//   - A file named in inputFiles/outputFiles but missing from the files list
//     is an error: its size is unknown, so no transfer could be derived.
//   - Unknown JSON fields are ignored (the schema allows extensions such as
//     avgCPU, priority, command); trailing data after the object is an error.
//   - Errors are errs.Invalid (errs.TooLarge over the size limits) whose
//     Field names the file and the JSON path, e.g.
//     "montage.json workflow.execution.tasks[3].runtimeInSeconds".

// WfMaxBytes and WfMaxTasks bound what ReadWfFormat accepts. The largest
// WfInstances files (montage 2mass-20d) are tens of MB with ~10,000 tasks.
const (
	WfMaxBytes = 64 << 20
	WfMaxTasks = 100_000
)

// WfSchemaVersion is the WfFormat version ReadWfFormat was written
// against; WfSchemaVersions lists every version it reads.
const WfSchemaVersion = "1.5"

var WfSchemaVersions = []string{"1.4", "1.5", "1.6"}

// Workflow is a WfFormat workflow instance reduced to what a scheduler
// needs. Tasks keep the specification's order; Parents and Children hold
// indices into Tasks, ascending, without duplicates.
type Workflow struct {
	Name          string
	SchemaVersion string
	Tasks         []WfTask
	Files         map[string]int64 // file id → size in bytes
	Machines      []WfMachine
	Makespan      float64 // workflow.execution.makespanInSeconds (0 if absent), s
}

// WfTask is one task of a workflow.
type WfTask struct {
	ID       string
	Name     string
	Runtime  float64 // runtimeInSeconds on the machine that ran it, s
	Cores    float64 // coreCount (0 when absent)
	Machine  string  // the machine it ran on, when given ("machine" or first of "machines")
	Parents  []int
	Children []int
	Inputs   []string // input file ids (nil when none)
	Outputs  []string // output file ids (nil when none)
}

// WfMachine is one machine of the execution record.
type WfMachine struct {
	NodeName   string
	CoreCount  int
	SpeedInMHz float64
}

// EdgeBytes is the data a parent passes to a child: the total size of the
// files that are outputs of parent and inputs of child (0 when they share
// none: the edge is a pure precedence).
func (w *Workflow) EdgeBytes(parent, child int) int64 {
	outs := make(map[string]bool, len(w.Tasks[parent].Outputs))
	for _, f := range w.Tasks[parent].Outputs {
		outs[f] = true
	}
	var sum int64
	seen := map[string]bool{}
	for _, f := range w.Tasks[child].Inputs {
		if outs[f] && !seen[f] {
			seen[f] = true
			sum += w.Files[f]
		}
	}
	return sum
}

// wfRaw is the document as decoded. The 1.5/1.6 layout (specification,
// execution) and the 1.4 layout (tasks, machines, makespanInSeconds directly
// under workflow) use different keys, so one decoding holds either; the
// schemaVersion decides which half is read.
type wfRaw struct {
	Name          string  `json:"name"`
	SchemaVersion *string `json:"schemaVersion"`
	Workflow      *struct {
		Specification *wfSpec      `json:"specification"`
		Execution     *wfExecution `json:"execution"`
		wf14Workflow
	} `json:"workflow"`
}

type wfExecution struct {
	MakespanInSeconds float64      `json:"makespanInSeconds"`
	Tasks             []wfExecTask `json:"tasks"`
	Machines          []wfMachine  `json:"machines"`
}

type wfExecTask struct {
	ID               string   `json:"id"`
	RuntimeInSeconds *float64 `json:"runtimeInSeconds"`
	CoreCount        float64  `json:"coreCount"`
	Machine          string   `json:"machine"`
	Machines         []string `json:"machines"`
}

type wfMachine struct {
	NodeName string `json:"nodeName"`
	CPU      struct {
		CoreCount  int     `json:"coreCount"`
		SpeedInMHz float64 `json:"speedInMHz"`
	} `json:"cpu"`
}

// ReadWfFormat parses a WfFormat 1.4, 1.5 or 1.6 workflow instance; name
// is the user's file name, used in errors. See the decisions above and, for
// 1.4, in wfformat14.go.
func ReadWfFormat(name string, data []byte) (*Workflow, error) {
	rd := wfReader{name: name}
	raw, err := rd.decode(data)
	if err != nil {
		return nil, err
	}
	w := &Workflow{Name: raw.Name, SchemaVersion: *raw.SchemaVersion}
	spec, ex := raw.Workflow.Specification, raw.Workflow.Execution
	if w.SchemaVersion == "1.4" {
		rd = wfReader{name: name, specTasks: "workflow.tasks", execTasks: "workflow.tasks", exec: "workflow", machines: "workflow.machines"}
		if spec, ex, err = rd.from14(&raw.Workflow.wf14Workflow); err != nil {
			return nil, err
		}
	} else {
		rd = wfReader{name: name, specTasks: "workflow.specification.tasks", execTasks: "workflow.execution.tasks", exec: "workflow.execution", machines: "workflow.execution.machines"}
	}
	if w.Files, err = rd.files(spec); err != nil {
		return nil, err
	}
	index, err := rd.tasks(spec, w)
	if err != nil {
		return nil, err
	}
	if err := rd.edges(spec, index, w); err != nil {
		return nil, err
	}
	if err := rd.execution(ex, index, w); err != nil {
		return nil, err
	}
	return w, nil
}

// wfReader reads one uploaded file; its errors name the file and the
// JSON path. The paths of the task lists, the execution record and the
// machines differ between 1.4 and 1.5, so the shared steps take them from
// here.
type wfReader struct {
	name                 string
	specTasks, execTasks string // "workflow.specification.tasks", "workflow.execution.tasks" (1.5); both "workflow.tasks" (1.4)
	exec, machines       string // "workflow.execution", "workflow.execution.machines" (1.5); "workflow", "workflow.machines" (1.4)
}

func (rd wfReader) field(f string) string {
	if rd.name == "" {
		return f
	}
	if f == "" {
		return rd.name
	}
	return rd.name + " " + f
}

type wfSpec struct {
	Tasks []wfSpecTask `json:"tasks"`
	Files []wfFile     `json:"files"`
}

type wfSpecTask struct {
	Name        string   `json:"name"`
	ID          string   `json:"id"`
	Parents     []string `json:"parents"`
	Children    []string `json:"children"`
	InputFiles  []string `json:"inputFiles"`
	OutputFiles []string `json:"outputFiles"`
}

type wfFile struct {
	ID          string   `json:"id"`
	SizeInBytes *float64 `json:"sizeInBytes"`
}

// decode reads the document and checks its size, schema version and that
// it has a specification with tasks.
func (rd wfReader) decode(data []byte) (*wfRaw, error) {
	if len(data) > WfMaxBytes {
		return nil, errs.New(errs.TooLarge, rd.field(""), "%d bytes, at most %d", len(data), WfMaxBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw wfRaw
	if err := dec.Decode(&raw); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			// The 1.4 fields sit in an embedded struct, whose type name
			// encoding/json puts in the path.
			f := strings.Replace(te.Field, "wf14Workflow.", "", 1)
			return nil, errs.Invalidf(rd.field(f), "must be %s, got %s", TypeName(te.Type), te.Value)
		}
		return nil, errs.Invalidf(rd.field(""), "not a WfFormat JSON document: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errs.Invalidf(rd.field(""), "trailing data after the JSON object")
	}
	if raw.SchemaVersion == nil {
		return nil, errs.Invalidf(rd.field("schemaVersion"), "missing: a WfFormat instance states its schema version (this reader supports %s)", strings.Join(WfSchemaVersions, ", "))
	}
	if !slices.Contains(WfSchemaVersions, *raw.SchemaVersion) {
		return nil, errs.Invalidf(rd.field("schemaVersion"), "unsupported WfFormat schema version %q (this reader supports %s)", *raw.SchemaVersion, strings.Join(WfSchemaVersions, ", "))
	}
	if raw.Workflow == nil {
		return nil, errs.Invalidf(rd.field("workflow"), "missing")
	}
	if *raw.SchemaVersion == "1.4" {
		return &raw, rd.check14(&raw.Workflow.wf14Workflow)
	}
	if raw.Workflow.Specification == nil {
		return nil, errs.Invalidf(rd.field("workflow.specification"), "missing")
	}
	spec := raw.Workflow.Specification
	if len(spec.Tasks) == 0 {
		return nil, errs.Invalidf(rd.field("workflow.specification.tasks"), "no tasks")
	}
	if len(spec.Tasks) > WfMaxTasks {
		return nil, errs.New(errs.TooLarge, rd.field("workflow.specification.tasks"), "%d tasks, at most %d", len(spec.Tasks), WfMaxTasks)
	}
	return &raw, nil
}

func (rd wfReader) files(spec *wfSpec) (map[string]int64, error) {
	files := make(map[string]int64, len(spec.Files))
	for i, f := range spec.Files {
		fp := fmt.Sprintf("workflow.specification.files[%d]", i)
		if f.ID == "" {
			return nil, errs.Invalidf(rd.field(fp+".id"), "empty file id")
		}
		if f.SizeInBytes == nil {
			return nil, errs.Invalidf(rd.field(fp+".sizeInBytes"), "missing for file %q", f.ID)
		}
		s := *f.SizeInBytes
		if math.IsNaN(s) || s < 0 || s > 1e18 || s != math.Trunc(s) {
			return nil, errs.Invalidf(rd.field(fp+".sizeInBytes"), "must be a whole number of bytes ≥ 0, got %v (file %q)", s, f.ID)
		}
		if _, dup := files[f.ID]; dup {
			return nil, errs.Invalidf(rd.field(fp+".id"), "duplicate file id %q", f.ID)
		}
		files[f.ID] = int64(s)
	}
	return files, nil
}

// tasks reads the tasks and their files into w and returns the index of
// each task id.
func (rd wfReader) tasks(spec *wfSpec, w *Workflow) (map[string]int, error) {
	index := make(map[string]int, len(spec.Tasks))
	w.Tasks = make([]WfTask, len(spec.Tasks))
	for i, t := range spec.Tasks {
		tp := fmt.Sprintf("%s[%d]", rd.specTasks, i)
		if t.ID == "" {
			return nil, errs.Invalidf(rd.field(tp+".id"), "empty task id")
		}
		if j, dup := index[t.ID]; dup {
			return nil, errs.Invalidf(rd.field(tp+".id"), "duplicate task id %q (also tasks[%d])", t.ID, j)
		}
		index[t.ID] = i
		w.Tasks[i] = WfTask{ID: t.ID, Name: t.Name, Runtime: -1}
		for _, l := range []struct {
			key   string
			files []string
			dst   *[]string
		}{{"inputFiles", t.InputFiles, &w.Tasks[i].Inputs}, {"outputFiles", t.OutputFiles, &w.Tasks[i].Outputs}} {
			for k, f := range l.files {
				if _, ok := w.Files[f]; !ok {
					return nil, errs.Invalidf(rd.field(fmt.Sprintf("%s.%s[%d]", tp, l.key, k)), "unknown file %q (not in workflow.specification.files)", f)
				}
			}
			if len(l.files) > 0 { // nil when empty, whether the list was [] or absent (and for 1.4)
				*l.dst = l.files
			}
		}
	}
	return index, nil
}

// edges sets each task's parents and children: the union of both lists,
// sorted; a self-edge or a cycle is an error.
func (rd wfReader) edges(spec *wfSpec, index map[string]int, w *Workflow) error {
	par := make([]map[int]bool, len(w.Tasks))
	for i := range par {
		par[i] = map[int]bool{}
	}
	for i, t := range spec.Tasks {
		tp := fmt.Sprintf("%s[%d]", rd.specTasks, i)
		for _, l := range []struct {
			key, role string
			ids       []string
		}{{"parents", "parent", t.Parents}, {"children", "child", t.Children}} {
			for k, id := range l.ids {
				j, ok := index[id]
				f := rd.field(fmt.Sprintf("%s.%s[%d]", tp, l.key, k))
				if !ok {
					return errs.Invalidf(f, "unknown task id %q", id)
				}
				if j == i {
					return errs.Invalidf(f, "task %q is its own %s (a cycle)", id, l.role)
				}
				if l.role == "parent" {
					par[i][j] = true
				} else {
					par[j][i] = true
				}
			}
		}
	}
	for i := range w.Tasks {
		for j := range par[i] {
			w.Tasks[i].Parents = append(w.Tasks[i].Parents, j)
			w.Tasks[j].Children = append(w.Tasks[j].Children, i)
		}
	}
	for i := range w.Tasks {
		slices.Sort(w.Tasks[i].Parents)
		slices.Sort(w.Tasks[i].Children)
	}
	if c := findCycle(w.Tasks); c >= 0 {
		return errs.Invalidf(rd.field(fmt.Sprintf("%s[%d]", rd.specTasks, c)), "the parents/children lists form a cycle through task %q: a workflow must be acyclic", w.Tasks[c].ID)
	}
	return nil
}

// execution reads the makespan, every task's runtime, cores and machine,
// and the machines.
func (rd wfReader) execution(ex *wfExecution, index map[string]int, w *Workflow) error {
	if ex == nil {
		return errs.Invalidf(rd.field(rd.exec), "missing: task runtimes come from %s", rd.execTasks)
	}
	if math.IsNaN(ex.MakespanInSeconds) || ex.MakespanInSeconds < 0 {
		return errs.Invalidf(rd.field(rd.exec+".makespanInSeconds"), "must be ≥ 0, got %v", ex.MakespanInSeconds)
	}
	w.Makespan = ex.MakespanInSeconds
	for i, t := range ex.Tasks {
		tp := fmt.Sprintf("%s[%d]", rd.execTasks, i)
		j, ok := index[t.ID]
		if !ok {
			return errs.Invalidf(rd.field(tp+".id"), "unknown task id %q (not in %s)", t.ID, rd.specTasks)
		}
		if w.Tasks[j].Runtime >= 0 {
			return errs.Invalidf(rd.field(tp+".id"), "second execution record for task %q", t.ID)
		}
		if t.RuntimeInSeconds == nil {
			return errs.Invalidf(rd.field(tp+".runtimeInSeconds"), "missing for task %q", t.ID)
		}
		r := *t.RuntimeInSeconds
		if math.IsNaN(r) || math.IsInf(r, 0) || r < 0 {
			return errs.Invalidf(rd.field(tp+".runtimeInSeconds"), "must be ≥ 0 s, got %v (task %q)", r, t.ID)
		}
		if t.CoreCount < 0 || math.IsNaN(t.CoreCount) {
			return errs.Invalidf(rd.field(tp+".coreCount"), "must be ≥ 1, got %v", t.CoreCount)
		}
		w.Tasks[j].Runtime = r
		w.Tasks[j].Cores = t.CoreCount
		w.Tasks[j].Machine = t.Machine
		if w.Tasks[j].Machine == "" && len(t.Machines) > 0 {
			w.Tasks[j].Machine = t.Machines[0]
		}
	}
	for i, t := range w.Tasks {
		if t.Runtime < 0 {
			return errs.Invalidf(rd.field(rd.execTasks), "no execution record (runtimeInSeconds) for task %q (%s[%d])", t.ID, rd.specTasks, i)
		}
	}
	for i, m := range ex.Machines {
		if m.CPU.CoreCount < 0 || m.CPU.SpeedInMHz < 0 || math.IsNaN(m.CPU.SpeedInMHz) {
			return errs.Invalidf(rd.field(fmt.Sprintf("%s[%d].cpu", rd.machines, i)), "negative core count or speed")
		}
		w.Machines = append(w.Machines, WfMachine{NodeName: m.NodeName, CoreCount: m.CPU.CoreCount, SpeedInMHz: m.CPU.SpeedInMHz})
	}
	return nil
}

// findCycle returns a task on a cycle, or -1 when the graph is acyclic
// (Kahn's algorithm: the tasks never freed are on or behind a cycle; one on
// a cycle is found by walking parents among them).
func findCycle(ts []WfTask) int {
	indeg := make([]int, len(ts))
	for i := range ts {
		indeg[i] = len(ts[i].Parents)
	}
	queue := make([]int, 0, len(ts))
	for i, d := range indeg {
		if d == 0 {
			queue = append(queue, i)
		}
	}
	seen := 0
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		seen++
		for _, c := range ts[v].Children {
			indeg[c]--
			if indeg[c] == 0 {
				queue = append(queue, c)
			}
		}
	}
	if seen == len(ts) {
		return -1
	}
	// Walk parents inside the unfreed set until a task repeats.
	v := slices.IndexFunc(indeg, func(d int) bool { return d > 0 })
	visited := map[int]bool{}
	for !visited[v] {
		visited[v] = true
		for _, p := range ts[v].Parents {
			if indeg[p] > 0 {
				v = p
				break
			}
		}
	}
	return v
}
