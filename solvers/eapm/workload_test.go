package eapm

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"schedlab/errs"
	"schedlab/solvers"
)

const (
	etcCSV   = "59.72,27.01\r\n105.96,55.72\r\n474.76,298.56\r\n"
	apcCSV   = "139.6,223.1\r\n137.2,215.0\r\n171.9,237.5\r\n"
	usersCSV = "type,tasks\n2,400\n0,12\n"
)

func csvFiles(etc, apc, users string) []solvers.File {
	return []solvers.File{{Field: "etc", Name: "etc.csv", Data: []byte(etc)}, {Field: "apc", Name: "apc.csv", Data: []byte(apc)}, {Field: "users", Name: "users.csv", Data: []byte(users)}}
}

func TestParseWorkloadCSVBuildsCanonicalJSON(t *testing.T) {
	w, err := New().ParseWorkload(context.Background(), csvFiles(etcCSV, apcCSV, usersCSV))
	if err != nil {
		t.Fatal(err)
	}
	if w.Format != "csv" || w.Name != "users" || w.Summary != "2 users, 2 machine types, 412 tasks" {
		t.Errorf("got %q %q %q", w.Format, w.Name, w.Summary)
	}
	in, err := loadWorkload(w)
	if err != nil {
		t.Fatal(err)
	}
	want := []User{{2, 400}, {0, 12}}
	if !reflect.DeepEqual(in.Users, want) || in.ETC[2][1] != 298.56 || in.APC[1][0] != 137.2 ||
		!reflect.DeepEqual(in.Machines, []int{1, 1}) || !reflect.DeepEqual(in.MachineNames, []string{"M0", "M1"}) {
		t.Errorf("round trip: %+v", in)
	}
	if err := w.Preview.Validate(); err != nil {
		t.Error(err)
	}
	for _, title := range []string{"ETC (s)", "APC (W)"} {
		found := false
		for _, h := range w.Preview.Heatmaps {
			found = found || h.Title == title
		}
		if !found {
			t.Errorf("preview lacks heat map %q", title)
		}
	}
	if w.Preview.Plot("User stream") == nil || w.Preview.Table("Users") == nil {
		t.Error("preview lacks the user stream")
	}
}

func TestParseWorkloadCSVByNameWithLabelsNamesAndMPT(t *testing.T) {
	files := []solvers.File{
		{Name: "data/ETC.csv", Data: []byte("task,fast,slow\nC-Ray,1,2\n7-Zip,3,4\n")},
		{Name: "EPC.csv", Data: []byte("5,6\n7,8\n")},
		{Name: "my_users.csv", Data: []byte("7-zip,3\r\n0,4\r\n")},
		{Name: "MPT.csv", Data: []byte("40\n2\n")},
	}
	w, err := New().ParseWorkload(context.Background(), files)
	if err != nil {
		t.Fatal(err)
	}
	in, _ := loadWorkload(w)
	if !reflect.DeepEqual(in.Users, []User{{1, 3}, {0, 4}}) || !reflect.DeepEqual(in.Machines, []int{40, 2}) ||
		!reflect.DeepEqual(in.TaskNames, []string{"C-Ray", "7-Zip"}) || !reflect.DeepEqual(in.MachineNames, []string{"fast", "slow"}) {
		t.Errorf("got %+v", in)
	}
}

func TestParseWorkloadJSONRoundTrip(t *testing.T) {
	doc := `{"name":"tiny","machine_types":["a","b"],"etc":[[1,2]],"apc":[[3,4]],"machines_per_type":[2,1],"users":[{"type":0,"tasks":5}]}`
	w, err := New().ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: "w.json", Data: []byte(doc)}})
	if err != nil {
		t.Fatal(err)
	}
	if w.Name != "tiny" || w.Format != "json" {
		t.Errorf("name %q format %q", w.Name, w.Format)
	}
	var back workloadJSON
	if err := json.Unmarshal(w.Data, &back); err != nil {
		t.Fatal(err)
	}
	if back.Format != FormatVersion || !reflect.DeepEqual(back.TaskTypes, []string{"T0"}) || !reflect.DeepEqual(back.MachinesPerType, []int{2, 1}) {
		t.Errorf("canonical: %+v", back)
	}
	// The canonical JSON parses again to the same canonical JSON.
	w2, err := New().ParseWorkload(context.Background(), []solvers.File{{Name: "again.json", Data: w.Data}})
	if err != nil || string(w2.Data) != string(w.Data) {
		t.Fatalf("second round trip: %v\n%s\n%s", err, w.Data, w2.Data)
	}
}

func TestParseWorkloadRejectsBadInputNamingFileLineAndField(t *testing.T) {
	users14 := "type,tasks\n" + strings.Repeat("0,1\n", 12) + "0,-3\n"
	cases := []struct {
		name  string
		files []solvers.File
		kind  errs.Kind
		field string
		msg   string
	}{
		{"negative tasks", csvFiles(etcCSV, apcCSV, users14), errs.Invalid, "users.csv line 14 column tasks", "tasks must be a positive integer, got -3"},
		{"fractional tasks", csvFiles(etcCSV, apcCSV, "0,1.5\n"), errs.Invalid, "users.csv line 1 column tasks", "positive integer, got 1.5"},
		{"unknown type name", csvFiles(etcCSV, apcCSV, "gpu,3\n"), errs.Invalid, "users.csv line 1 column type", "unknown task type"},
		{"type out of range", csvFiles(etcCSV, apcCSV, "0,3\n3,4\n"), errs.Invalid, "users.csv line 2 column type", "between 0 and 2"},
		{"negative type", csvFiles(etcCSV, apcCSV, "-1,4\n"), errs.Invalid, "users.csv line 1 column type", "between 0 and 2"},
		{"empty user stream", csvFiles(etcCSV, apcCSV, "type,tasks\n"), errs.Invalid, "users.csv", "no users"},
		{"empty users file", csvFiles(etcCSV, apcCSV, ""), errs.Invalid, "users.csv", "empty"},
		{"users header without tasks", csvFiles(etcCSV, apcCSV, "type,foo\n0,1\n"), errs.Invalid, "users.csv line 1", "needs a type and a tasks column"},
		{"three columns without header", csvFiles(etcCSV, apcCSV, "0,1,2\n"), errs.Invalid, "users.csv line 1", "two: type,tasks"},
		{"ragged etc", csvFiles("1,2\n3\n", "1,2\n3,4\n", "0,1\n"), errs.Invalid, "etc.csv line 2", "1 cells, expected 2"},
		{"malformed csv", csvFiles("1,\"2\n", apcCSV, "0,1\n"), errs.Invalid, "etc.csv line", "malformed CSV"},
		{"shape mismatch", csvFiles(etcCSV, "1,2\n3,4\n", usersCSV), errs.Invalid, "apc.csv", "APC is 2×2"},
		{"zero time", csvFiles("0,2\n1,1\n4,4\n", apcCSV, usersCSV), errs.Invalid, "etc.csv line 1 column 1", "time must be between"},
		{"negative power", csvFiles(etcCSV, "1,2\n1,-5\n1,1\n", usersCSV), errs.Invalid, "apc.csv line 2 column 2", "power must be between"},
		{"non-finite time", csvFiles("1,Inf\n1,1\n1,1\n", apcCSV, usersCSV), errs.Invalid, "etc.csv line 1 column 2", "finite"},
		{"not a number", csvFiles(etcCSV, "1,2\n1,x\n1,1\n", usersCSV), errs.Invalid, "apc.csv line 2 column 2", "not a number"},
		{"missing users", csvFiles(etcCSV, apcCSV, "")[:2], errs.Invalid, "users", "missing the users file"},
		{"missing etc", csvFiles(etcCSV, apcCSV, usersCSV)[1:], errs.Invalid, "etc", "missing the etc file"},
		{"no files", nil, errs.Invalid, "file", "no file"},
		{"unknown file", []solvers.File{{Name: "notes.txt", Data: []byte("x")}}, errs.Invalid, "notes.txt", "cannot tell"},
		{"duplicate role", append(csvFiles(etcCSV, apcCSV, usersCSV), solvers.File{Name: "etc2.csv"}), errs.Invalid, "etc2.csv", "a second etc file"},
		{"bad mpt", append(csvFiles(etcCSV, apcCSV, usersCSV), solvers.File{Name: "mpt.csv", Data: []byte("1\n0\n")}), errs.Invalid, "mpt.csv line 2 column 1", "between 1 and"},
		{"json unknown field", jsonFile(`{"etc":[[1]],"apc":[[1]],"users":[{"type":0,"tasks":1}],"gamma":1.2}`), errs.Invalid, "w.json", `unknown field "gamma"`},
		{"json unknown user field", jsonFile(`{"etc":[[1]],"apc":[[1]],"users":[{"type":0,"n":1}]}`), errs.Invalid, "w.json", `unknown field "n"`},
		{"json wrong type", jsonFile("{\"etc\":[[1]],\n\"apc\":[[1]],\n\"users\":[{\"type\":0,\"tasks\":\"many\"}]}"), errs.Invalid, "w.json line 3 users.tasks", "expected int"},
		{"json syntax", jsonFile("{\"etc\":[[1]],\n\"apc\":[[1],}"), errs.Invalid, "w.json line 2", "malformed JSON"},
		{"json truncated", jsonFile(`{"etc":[[1]]`), errs.Invalid, "w.json", "unexpected end"},
		{"json trailing data", jsonFile(`{"etc":[[1]],"apc":[[1]],"users":[{"type":0,"tasks":1}]} {}`), errs.Invalid, "w.json", "after the workload"},
		{"json missing users", jsonFile(`{"etc":[[1]],"apc":[[1]]}`), errs.Invalid, "w.json users", "missing"},
		{"json empty users", jsonFile(`{"etc":[[1]],"apc":[[1]],"users":[]}`), errs.Invalid, "w.json users", "empty"},
		{"json ragged etc", jsonFile(`{"etc":[[1,2],[1]],"apc":[[1,2],[1,2]],"users":[{"type":0,"tasks":1}]}`), errs.Invalid, "w.json etc row 2", "1 columns"},
		{"json apc rows", jsonFile(`{"etc":[[1,2]],"apc":[[1,2],[1,2]],"users":[{"type":0,"tasks":1}]}`), errs.Invalid, "w.json apc", "2 rows"},
		{"json zero tasks", jsonFile(`{"etc":[[1]],"apc":[[1]],"users":[{"type":0,"tasks":1},{"type":0,"tasks":0}]}`), errs.Invalid, "w.json users[1].tasks", "positive integer"},
		{"json type out of range", jsonFile(`{"etc":[[1]],"apc":[[1]],"users":[{"type":1,"tasks":1}]}`), errs.Invalid, "w.json users[0].type", "between 0 and 0"},
		{"json wrong format", jsonFile(`{"format":"eapm/v9","etc":[[1]],"apc":[[1]],"users":[{"type":0,"tasks":1}]}`), errs.Invalid, "w.json format", "unknown format"},
		{"json names count", jsonFile(`{"machine_types":["a","b"],"etc":[[1]],"apc":[[1]],"users":[{"type":0,"tasks":1}]}`), errs.Invalid, "w.json machine_types", "2 names for 1"},
		{"json with csv", append(jsonFile(`{}`), csvFiles(etcCSV, apcCSV, usersCSV)[0]), errs.Invalid, "w.json", "comes alone"},
		{"json empty", jsonFile(""), errs.Invalid, "w.json", "empty"},
		{"too many task types", csvFiles(strings.Repeat("1\n", MaxTaskTypes+1), strings.Repeat("1\n", MaxTaskTypes+1), "0,1\n"), errs.TooLarge, "etc.csv line", "more than 1000 rows"},
		{"too many machine types", csvFiles(strings.Repeat("1,", MaxMachineTypes+1)+"1\n", "1\n", "0,1\n"), errs.TooLarge, "etc.csv line 1", "columns, at most"},
		{"too many users", csvFiles("1\n", "1\n", strings.Repeat("0,1\n", MaxUsers+2)), errs.TooLarge, "users.csv", "more than 1000000 rows"},
		{"too many cells", csvFiles(strings.Repeat("1,", 99)+"1\n", strings.Repeat("1,", 99)+"1\n", strings.Repeat("0,1\n", MaxCells/100+1)), errs.TooLarge, "users.csv", "allocation cells"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, err := New().ParseWorkload(context.Background(), c.files)
			if err == nil {
				t.Fatalf("accepted: %s", w.Summary)
			}
			if k := errs.KindOf(err); k != c.kind {
				t.Errorf("kind %v, want %v: %v", k, c.kind, err)
			}
			if f := errs.FieldOf(err); !strings.HasPrefix(f, c.field) {
				t.Errorf("field %q, want %q (%v)", f, c.field, err)
			}
			if !strings.Contains(err.Error(), c.msg) {
				t.Errorf("message %q lacks %q", err, c.msg)
			}
		})
	}
}

func jsonFile(s string) []solvers.File {
	return []solvers.File{{Field: "file", Name: "w.json", Data: []byte(s)}}
}

func TestSummaryUsesThousandsSeparators(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 17112: "17,112", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func FuzzParseWorkloadJSON(f *testing.F) {
	f.Add([]byte(`{"etc":[[1,2]],"apc":[[3,4]],"users":[{"type":0,"tasks":5}]}`))
	f.Add([]byte(`{"machine_types":["a"],"task_types":["t"],"etc":[[1e-6]],"apc":[[1e9]],"machines_per_type":[3],"users":[{"type":0,"tasks":1000000000}]}`))
	f.Add([]byte(`{"etc":[[0]],"apc":[[1]],"users":[]}`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`{"etc":null}`))
	s := New()
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := s.ParseWorkload(context.Background(), []solvers.File{{Field: "file", Name: "f.json", Data: data}})
		checkParsed(t, s, w, err)
	})
}

func FuzzParseWorkloadCSV(f *testing.F) {
	f.Add([]byte(etcCSV), []byte(apcCSV), []byte(usersCSV))
	f.Add([]byte("a,b\nx,1,2\n"), []byte("1,2\n"), []byte("x,1\n"))
	f.Add([]byte("1\n"), []byte("1\n"), []byte("0,1\n0,2\n"))
	f.Add([]byte("1,2\r\n"), []byte("1,NaN\r\n"), []byte("type,tasks\r\n0,-3\r\n"))
	s := New()
	f.Fuzz(func(t *testing.T, etc, apc, users []byte) {
		w, err := s.ParseWorkload(context.Background(), csvFiles(string(etc), string(apc), string(users)))
		checkParsed(t, s, w, err)
	})
}

// checkParsed: an error is Invalid or TooLarge and names a field; a
// workload validates, round-trips, previews and runs.
func checkParsed(t *testing.T, s *solvers.Strategy, w *solvers.Workload, err error) {
	t.Helper()
	if err != nil {
		if k := errs.KindOf(err); k != errs.Invalid && k != errs.TooLarge {
			t.Fatalf("error of kind %v: %v", k, err)
		}
		if errs.FieldOf(err) == "" {
			t.Fatalf("error names no field: %v", err)
		}
		return
	}
	in, err := loadWorkload(w)
	if err != nil {
		t.Fatalf("canonical JSON does not load: %v", err)
	}
	if err := w.Preview.Validate(); err != nil {
		t.Fatalf("preview: %v", err)
	}
	if len(in.Users) > 50 || in.M() > 20 {
		return // keep the fuzzer fast
	}
	r, err := s.Run(t.Context(), w, "", nil, nil)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if err := r.Validate(); err != nil {
		t.Fatalf("run report: %v", err)
	}
}
