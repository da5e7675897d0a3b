package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"schedlab/runner"
	"schedlab/runtypes"
	"schedlab/solvers/registry"
	"schedlab/store"
)

// FuzzUploadDispatch sends arbitrary multipart uploads (any strategy name,
// file field, file name and content, twice) through the whole route: the
// body cap, the form parser, the dispatch to the family's reader. Every
// answer must be a 201 that stores one workload, a 200 naming the stored
// workload it is identical to (uploads are de-duplicated) and storing
// nothing, or a 4xx with a JSON error that stores nothing; never a 5xx or a
// panic.
func FuzzUploadDispatch(f *testing.F) {
	f.Add("eapm", "etc", "etc.csv", []byte("1,2\n3,4\n"), "users", "users.csv", []byte("type,tasks\n0,3\n"))
	f.Add("dcop", "file", "w.json", []byte(`{"resources":["A"],"jobs":[]}`), "", "", []byte(nil))
	f.Add("gossip", "swf", "t.swf.gz", []byte("\x1f\x8b\x08\x00"), "file", "x.json", []byte("{}"))
	f.Add("cyclic", "swf", "t.swf", []byte("1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n"), "", "", []byte(nil))
	f.Add("critical", "wfformat", "w.json", []byte(`{"workflow":{}}`), "wfformat", "w2.json", []byte(`[]`))
	f.Add("", "", "", []byte(nil), "", "", []byte(nil))

	st, err := store.Open(filepath.Join(f.TempDir(), "fuzz.db"))
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	rn := runner.New(st, registry.Lookup, runner.Options{Workers: 1})
	e := echo.New()
	New(st, rn, registry.All(), Options{MaxUpload: 1 << 20}).Routes(e)

	f.Fuzz(func(t *testing.T, strategy, field1, name1 string, data1 []byte, field2, name2 string, data2 []byte) {
		var body bytes.Buffer
		mw := multipart.NewWriter(&body)
		mw.WriteField("strategy", strategy)
		for _, file := range []struct {
			field, name string
			data        []byte
		}{{field1, name1, data1}, {field2, name2, data2}} {
			if file.field == "" {
				continue
			}
			w, err := mw.CreateFormFile(file.field, file.name)
			if err != nil {
				return
			}
			w.Write(file.data)
		}
		mw.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		before, _ := st.ListWorkloads(ctx, "", 0)
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/api/workloads", &body)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, req)
		after, _ := st.ListWorkloads(ctx, "", 0)
		switch {
		case rec.Code == http.StatusCreated:
			if len(after) != len(before)+1 {
				t.Fatalf("201 but %d → %d workloads", len(before), len(after))
			}
		case rec.Code == http.StatusOK:
			// An upload identical to a stored workload answers that one
			// ("existing": true, 200) and stores nothing.
			var w struct {
				ID       string `json:"id"`
				Existing bool   `json:"existing"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &w); err != nil || !w.Existing {
				t.Fatalf("200 that is not an existing workload: %s", rec.Body)
			}
			if len(after) != len(before) || !slices.ContainsFunc(before, func(b runtypes.Workload) bool { return b.ID == w.ID }) {
				t.Fatalf("200 with existing workload %s, but %d → %d workloads, or it was not stored before", w.ID, len(before), len(after))
			}
		case rec.Code >= 400 && rec.Code < 500:
			if !bytes.Contains(rec.Body.Bytes(), []byte(`"error"`)) {
				t.Fatalf("%d without a JSON error: %s", rec.Code, rec.Body)
			}
			if len(after) != len(before) {
				t.Fatalf("refused (%d) but %d → %d workloads", rec.Code, len(before), len(after))
			}
		default:
			t.Fatalf("%d: %s", rec.Code, rec.Body)
		}
	})
}
