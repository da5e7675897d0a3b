package formats

import (
	"fmt"
	"math"
	"strings"

	"schedlab/errs"
)

// WfFormat 1.4 reading.
//
// Layout (wfcommons/WfFormat, wfcommons-schema.json at commit
// 333767ead1b73bd71fc0b4e03307c0ddd45af3e4, the last one before 1.5): the
// workflow object holds makespanInSeconds, executedAt, machines (nodeName,
// cpu.count, cpu.speed in MHz) and one tasks list; a task holds name
// (required), type (required), id, parents (task references), files (each
// name, sizeInBytes and link "input" or "output", all three required),
// runtimeInSeconds, cores and machine. The real 1.4 instances also list
// children, though the schema does not name it.
//
// ReadWfFormat reads a 1.4 instance as the official 1.4 → 1.5 migration
// (wfcommons/WfFormat tools/wfcommons-migrate-instance.py, _migrate_to_15,
// as of commit 017160621265bc22d8d6f1cd6f8c875e287fc292) would turn it
// into 1.5, and then reads that with the 1.5 steps, so an instance and its
// migration give the same Workflow (the test compares the makeflow BLAST
// instance with its 1.5 form in WfInstances, which is the migration's
// output). The mapping:
//
//   - Task id: the name when the 1.4 id is a substring of it (the real
//     instances: name "blastall_ID000002", id "ID000002"), else
//     name + "_" + id; a task without id gets name + "_" + its position.
//   - parents and children may name a task by its name, its 1.4 id or its
//     new id (the first task to claim a reference keeps it); edges are the
//     union of both lists, as in 1.5.
//   - A file's id is its path (when given) followed by its name; its size
//     is sizeInBytes; link "input" (any case) makes it an input of the task,
//     "output" an output.
//   - A task that has no parent after the union gets, as parents, the first
//     task (in list order) that outputs one of its input files (the
//     migration's "infer them from the files" step).
//   - runtimeInSeconds → runtime, cores → core count, machine → the
//     machine; machines[].cpu.count → core count, cpu.speed → MHz;
//     makespanInSeconds → the makespan (0 when absent, as for 1.5).
//
// Where the migration is lenient, this reader is strict, and says where
// (paths are the 1.4 ones, e.g. "blast.json workflow.tasks[3].files[1].link"):
// an empty task name, two tasks whose ids come out equal, a parent or child
// naming no task (the migration keeps it as is, and the 1.5 reader then
// rejects it), a
// file without a name or size or with a link other than input/output (the
// migration treats any other link as output), the same file listed with two
// different sizes (the migration keeps the first), a task without
// runtimeInSeconds (the migration writes 0; a missing runtime is not a 0 s
// task). type is not read (a scheduler has no use for it).
//
// Checked beyond the test files: 149 real 1.4 instances, those of
// wfcommons/makeflow-instances @ 384a6614 (30: BLAST, BWA) and
// wfcommons/pegasus-instances @ b84cba5e (119: 1000genome, cycles,
// epigenomics, montage, seismology, soykb, srasearch) that were readable in
// the stored copies and have a 1.5 form in wfcommons/WfInstances @
// f085867f; each reads without error and gives the same
// Workflow as that 1.5 form (149 of 149 pairs, reflect.DeepEqual but for
// SchemaVersion; a one-off check, the files are not in the repository).

type wf14Workflow struct {
	MakespanInSeconds *float64      `json:"makespanInSeconds"`
	Machines          []wf14Machine `json:"machines"`
	Tasks             []wf14Task    `json:"tasks"`
}

type wf14Machine struct {
	NodeName string `json:"nodeName"`
	CPU      struct {
		Count int     `json:"count"`
		Speed float64 `json:"speed"`
	} `json:"cpu"`
}

type wf14Task struct {
	Name             string     `json:"name"`
	ID               *string    `json:"id"`
	Parents          []string   `json:"parents"`
	Children         []string   `json:"children"`
	Files            []wf14File `json:"files"`
	RuntimeInSeconds *float64   `json:"runtimeInSeconds"`
	Cores            *float64   `json:"cores"`
	Machine          string     `json:"machine"`
}

type wf14File struct {
	Name        string   `json:"name"`
	Path        string   `json:"path"`
	SizeInBytes *float64 `json:"sizeInBytes"`
	Link        string   `json:"link"`
}

// check14 checks the task count of a 1.4 document (the same limit as 1.5).
func (rd wfReader) check14(wf *wf14Workflow) error {
	if len(wf.Tasks) == 0 {
		return errs.Invalidf(rd.field("workflow.tasks"), "no tasks (a WfFormat 1.4 instance lists its tasks in workflow.tasks)")
	}
	if len(wf.Tasks) > WfMaxTasks {
		return errs.New(errs.TooLarge, rd.field("workflow.tasks"), "%d tasks, at most %d", len(wf.Tasks), WfMaxTasks)
	}
	return nil
}

// wf14ID is the 1.5 id the migration gives the task at position i.
func wf14ID(t *wf14Task, i int) string {
	if t.ID == nil {
		return fmt.Sprintf("%s_%d", t.Name, i)
	}
	if strings.Contains(t.Name, *t.ID) {
		return t.Name
	}
	return t.Name + "_" + *t.ID
}

// from14 translates a 1.4 workflow into the 1.5 specification and
// execution, checking on the way what the 1.5 steps could only report
// under 1.5 paths. References that name no task are kept as they are, so
// the 1.5 edge step reports them at workflow.tasks[i].parents[k].
func (rd wfReader) from14(wf *wf14Workflow) (*wfSpec, *wfExecution, error) {
	ids := make([]string, len(wf.Tasks))
	owner := make(map[string]int, len(wf.Tasks))
	for i := range wf.Tasks {
		t := &wf.Tasks[i]
		if t.Name == "" {
			return nil, nil, errs.Invalidf(rd.field(fmt.Sprintf("workflow.tasks[%d].name", i)), "empty task name")
		}
		ids[i] = wf14ID(t, i)
		if j, dup := owner[ids[i]]; dup {
			return nil, nil, errs.Invalidf(rd.field(fmt.Sprintf("workflow.tasks[%d].name", i)), "task id %q (from name and id) is also that of tasks[%d]", ids[i], j)
		}
		owner[ids[i]] = i
	}
	ref := make(map[string]string, 3*len(wf.Tasks))
	for i, t := range wf.Tasks {
		for _, r := range []string{t.Name, deref(t.ID), ids[i]} {
			if _, taken := ref[r]; r != "" && !taken {
				ref[r] = ids[i]
			}
		}
	}
	resolve := func(rs []string) []string {
		out := make([]string, len(rs))
		for k, r := range rs {
			if id, ok := ref[r]; ok {
				out[k] = id
			} else {
				out[k] = r
			}
		}
		return out
	}

	spec := &wfSpec{Tasks: make([]wfSpecTask, len(wf.Tasks))}
	ex := &wfExecution{Tasks: make([]wfExecTask, len(wf.Tasks))}
	if wf.MakespanInSeconds != nil {
		ex.MakespanInSeconds = *wf.MakespanInSeconds
	}
	size := map[string]float64{}
	producer := map[string]int{}
	hasParent := make([]bool, len(wf.Tasks))
	for i, t := range wf.Tasks {
		tp := fmt.Sprintf("workflow.tasks[%d]", i)
		st := wfSpecTask{Name: t.Name, ID: ids[i], Parents: resolve(t.Parents), Children: resolve(t.Children)}
		hasParent[i] = hasParent[i] || len(t.Parents) > 0
		for _, c := range st.Children {
			if j, ok := owner[c]; ok {
				hasParent[j] = true
			}
		}
		for k, f := range t.Files {
			fp := fmt.Sprintf("%s.files[%d]", tp, k)
			if f.Name == "" {
				return nil, nil, errs.Invalidf(rd.field(fp+".name"), "empty file name")
			}
			id := f.Path + f.Name
			if f.SizeInBytes == nil {
				return nil, nil, errs.Invalidf(rd.field(fp+".sizeInBytes"), "missing for file %q", id)
			}
			s := *f.SizeInBytes
			if math.IsNaN(s) || s < 0 || s > 1e18 || s != math.Trunc(s) {
				return nil, nil, errs.Invalidf(rd.field(fp+".sizeInBytes"), "must be a whole number of bytes ≥ 0, got %v (file %q)", s, id)
			}
			if prev, seen := size[id]; !seen {
				size[id] = s
				spec.Files = append(spec.Files, wfFile{ID: id, SizeInBytes: f.SizeInBytes})
			} else if prev != s {
				return nil, nil, errs.Invalidf(rd.field(fp+".sizeInBytes"), "file %q is listed with %v bytes here and %v bytes before", id, s, prev)
			}
			switch strings.ToLower(f.Link) {
			case "input":
				st.InputFiles = appendUnique(st.InputFiles, id)
			case "output":
				st.OutputFiles = appendUnique(st.OutputFiles, id)
				if _, ok := producer[id]; !ok {
					producer[id] = i
				}
			default:
				return nil, nil, errs.Invalidf(rd.field(fp+".link"), "must be \"input\" or \"output\", got %q (file %q)", f.Link, id)
			}
		}
		spec.Tasks[i] = st
		et := wfExecTask{ID: ids[i], RuntimeInSeconds: t.RuntimeInSeconds, Machine: t.Machine}
		if t.Cores != nil {
			if c := *t.Cores; math.IsNaN(c) || c < 0 {
				return nil, nil, errs.Invalidf(rd.field(tp+".cores"), "must be ≥ 1, got %v", c)
			}
			et.CoreCount = *t.Cores
		}
		ex.Tasks[i] = et
	}
	// A task without a declared parent gets the producers of its inputs.
	for i := range spec.Tasks {
		if hasParent[i] {
			continue
		}
		st := &spec.Tasks[i]
		for _, f := range st.InputFiles {
			if p, ok := producer[f]; ok && p != i {
				st.Parents = appendUnique(st.Parents, ids[p])
			}
		}
	}
	for _, m := range wf.Machines {
		var em wfMachine
		em.NodeName = m.NodeName
		em.CPU.CoreCount = m.CPU.Count
		em.CPU.SpeedInMHz = m.CPU.Speed
		ex.Machines = append(ex.Machines, em)
	}
	return spec, ex, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func appendUnique(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}
