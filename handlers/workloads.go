package handlers

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime/multipart"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/execute"
	"schedlab/runtypes"
	"schedlab/solvers"
	"schedlab/store"
	"schedlab/views"
)

// workloadsStore is what the workloads pages (workloads.go, cite.go) read and store (*store.Store).
type workloadsStore interface {
	GetWorkload(ctx context.Context, id string) (*runtypes.Workload, error)
	GetWorkloadInfo(ctx context.Context, id string) (*runtypes.Workload, error)
	CreateWorkload(ctx context.Context, w *runtypes.Workload) error
	FindWorkloadByContent(ctx context.Context, strategy string, data []byte, owner string) (*runtypes.Workload, error)
	ListWorkloadsPage(ctx context.Context, strategy, owner string, limit int, cursor store.Cursor) ([]runtypes.Workload, store.Cursor, error)
	ListRuns(ctx context.Context, f store.RunFilter) ([]runtypes.Run, error)
}

// upload reads a multipart workload upload: field "strategy", optional
// "name", and one or more files in any file fields ("file" for native JSON,
// or the strategy's own Upload fields). The body is capped at maxUpload.
// upload parses and stores the uploaded workload files; an upload
// identical to a workload of the user's already stored (same strategy and
// canonical data) returns that one with existing true, stored once, unless
// the form asks for a copy (copy=1).
func (s *Server) upload(c echo.Context) (w *runtypes.Workload, existing bool, err error) {
	req := c.Request()
	req.Body = http.MaxBytesReader(c.Response(), req.Body, s.maxUpload)
	if err := req.ParseMultipartForm(8 << 20); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, false, errs.New(errs.TooLarge, "file", "upload is larger than the limit of %d MiB", s.maxUpload>>20)
		}
		return nil, false, errs.Invalidf("file", "expected a multipart/form-data upload with the workload files: %v", err)
	}
	defer req.MultipartForm.RemoveAll()
	st, err := s.lookup(req.FormValue("strategy"))
	if err != nil {
		return nil, false, err
	}
	files, err := uploadedFiles(req.MultipartForm)
	if err != nil {
		return nil, false, err
	}
	if len(files) == 0 {
		return nil, false, errs.Invalidf("file", "no file uploaded: choose the workload file(s)")
	}
	parsed, err := execute.Parse(req.Context(), st, files, s.runner.Budget())
	if err != nil {
		return nil, false, binaryUploads(st, files, err)
	}
	if req.FormValue("copy") != "1" {
		stored, err := s.store.FindWorkloadByContent(req.Context(), st.Info.Name, parsed.Data, ownerID(c))
		if err == nil {
			return stored, true, nil
		}
		if !errs.Is(err, errs.NotFound) {
			return nil, false, err
		}
	}
	name := cmp.Or(strings.TrimSpace(req.FormValue("name")), parsed.Name, strings.TrimSuffix(files[0].Name, path.Ext(files[0].Name)))
	sum, size := uploadChecksum(files)
	w, err = s.save(c, st, name, parsed, sum, size)
	return w, false, err
}

// uploadedFiles are the files of a multipart form, by field name then in
// order, empty file inputs left out.
func uploadedFiles(form *multipart.Form) ([]solvers.File, error) {
	var files []solvers.File
	for _, field := range slices.Sorted(maps.Keys(form.File)) {
		for _, fh := range form.File[field] {
			if fh.Filename == "" && fh.Size == 0 {
				continue // an empty file input
			}
			f, err := fh.Open()
			if err != nil {
				return nil, errs.Invalidf(field, "cannot read %s: %v", fh.Filename, err)
			}
			data, err := io.ReadAll(f)
			f.Close()
			if err != nil {
				return nil, errs.Invalidf(field, "cannot read %s: %v", fh.Filename, err)
			}
			files = append(files, solvers.File{Field: field, Name: fh.Filename, Data: data})
		}
	}
	return files, nil
}

// binaryFormats are the file types a user may pick by mistake for a
// workload's text, told by their first bytes (their published
// signatures): a refusal names the type ("this is a PNG image") rather
// than a parser's complaint about its first byte.
var binaryFormats = []struct {
	magic, what string
}{
	{"\x89PNG\r\n\x1a\n", "a PNG image"},
	{"\xff\xd8\xff", "a JPEG image"},
	{"GIF87a", "a GIF image"},
	{"GIF89a", "a GIF image"},
	{"%PDF-", "a PDF document"},
	{"PK\x03\x04", "a ZIP archive (or a file made of one: .xlsx, .docx, .ods, .jar)"},
	{"PK\x05\x06", "an empty ZIP archive"},
	{"\x1f\x8b", "a gzip-compressed file"},
	{"BZh", "a bzip2-compressed file"},
	{"\xfd7zXZ\x00", "an xz-compressed file"},
	{"(\xb5/\xfd", "a Zstandard-compressed file"},
	{"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"},
	{"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "a legacy Microsoft Office document (.xls, .doc)"},
	{"SQLite format 3\x00", "an SQLite database"},
	{"\x7fELF", "an ELF executable"},
	{"II*\x00", "a TIFF image"},
	{"MM\x00*", "a TIFF image"},
}

// binaryKind names the known binary format data starts with, or "".
func binaryKind(data []byte) string {
	for _, f := range binaryFormats {
		if bytes.HasPrefix(data, []byte(f.magic)) {
			return f.what
		}
	}
	if len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP" {
		return "a WebP image"
	}
	return ""
}

// binaryUploads is err, the parse error of files, or, when some of them
// are of a known binary format that their field does not read, a problem
// for each of those naming its format (and err besides when it is about
// another field). gzip is read where the field accepts .gz (an SWF
// trace, solvers.Upload.Accept): a gzip file there failed for its
// content, which err says.
func binaryUploads(st *solvers.Strategy, files []solvers.File, err error) error {
	gz := map[string]bool{}
	for _, up := range st.Uploads {
		gz[up.Field] = strings.Contains(up.Accept, ".gz")
	}
	var problems []error
	fields := map[string]bool{}
	for _, f := range files {
		what := binaryKind(f.Data)
		if what == "" || (gz[f.Field] && bytes.HasPrefix(f.Data, []byte("\x1f\x8b"))) {
			continue
		}
		field := cmp.Or(f.Field, f.Name)
		fields[field], fields[f.Name] = true, true
		problems = append(problems, errs.Invalidf(field, "%s: this is %s, not text: this field reads %s", f.Name, what, textOf(st, f.Field)))
	}
	if len(problems) == 0 {
		return err
	}
	for _, e := range errs.All(err) {
		if !fields[errs.FieldOf(e)] && errs.KindOf(e) == errs.Invalid {
			problems = append(problems, e)
		}
	}
	return errs.Join(problems)
}

// textOf says what a family's upload field reads, for a refusal.
func textOf(st *solvers.Strategy, field string) string {
	for _, up := range st.Uploads {
		if up.Field == field {
			return up.Label
		}
	}
	return "the workload's native JSON (a stored workload's data download)"
}

// uploadChecksum is the checksum and total size of the files as uploaded
// (runtypes.Workload.UploadSHA256): the hex SHA-256 of one file, as sha256sum
// prints it; of several, a line "HEX  NAME" per file in upload order.
func uploadChecksum(files []solvers.File) (string, int) {
	lines := make([]string, 0, len(files))
	size := 0
	for _, f := range files {
		sum := sha256.Sum256(f.Data)
		size += len(f.Data)
		lines = append(lines, hex.EncodeToString(sum[:])+"  "+f.Name)
	}
	if len(lines) == 1 {
		return lines[0][:sha256.Size*2], size
	}
	return strings.Join(lines, "\n"), size
}

// save stores a parsed workload in one transaction.
// uploadSum and uploadBytes describe the uploaded file(s) (uploadChecksum);
// "" and 0 for a generated workload.
func (s *Server) save(c echo.Context, st *solvers.Strategy, name string, w *solvers.Workload, uploadSum string, uploadBytes int) (*runtypes.Workload, error) {
	var preview json.RawMessage
	if w.Preview != nil {
		b, err := json.Marshal(w.Preview)
		if err != nil {
			return nil, errs.Wrap(errs.Internal, err)
		}
		preview = b
	}
	sw := &runtypes.Workload{Strategy: st.Info.Name, Name: name, Format: w.Format, Summary: w.Summary, Data: w.Data,
		Preview: preview, Owner: ownerID(c), UploadSHA256: uploadSum, UploadBytes: uploadBytes}
	if err := s.store.CreateWorkload(c.Request().Context(), sw); err != nil {
		return nil, err
	}
	return sw, nil
}

// generateRequest is the body of POST /api/workloads/generate; the page form
// sends the same as fields (params as the remaining fields).
type generateRequest struct {
	Strategy string         `json:"strategy"`
	Preset   string         `json:"preset"`
	Params   solvers.Params `json:"params"`
	Seed     *int64         `json:"seed"`
	Name     string         `json:"name"`
	// seedErr is the form's seed problem (generateForm), reported with
	// the parameters' problems.
	seedErr []error
}

func (s *Server) generate(c echo.Context, g generateRequest) (*runtypes.Workload, error) {
	st, err := s.lookup(g.Strategy)
	if err != nil {
		return nil, err
	}
	found, err := st.FindPreset(g.Preset, "preset")
	if err != nil {
		return nil, err
	}
	preset := &found
	// Every problem of the request at once: the parameters', those of the
	// preset's rules across them (its EstimateGenerate decodes the
	// typed config and checks it, solvers.ResolveChecked) and the seed's
	// (generateForm's).
	params, err := solvers.Resolve(preset.Params, g.Params)
	problems := errs.All(err)
	if st.EstimateGenerate != nil {
		if _, eerr := st.EstimateGenerate(preset.Name, g.Params); errs.KindOf(eerr) == errs.Invalid {
			problems = addProblems(problems, errs.All(eerr))
		}
	}
	if err := errs.Join(append(problems, g.seedErr...)); err != nil {
		return nil, err
	}
	seed := int64(1)
	if g.Seed != nil {
		seed = *g.Seed
	}
	w, err := s.generateInRequest(c.Request().Context(), st, preset.Name, params, seed)
	if err != nil {
		return nil, err
	}
	name := cmp.Or(strings.TrimSpace(g.Name), w.Name, fmt.Sprintf("%s seed %d", preset.Name, seed))
	return s.save(c, st, name, w, "", 0)
}

// addProblems is problems with those of more on fields problems does
// not name yet.
func addProblems(problems, more []error) []error {
	named := map[string]bool{}
	for _, e := range problems {
		named[errs.FieldOf(e)] = true
	}
	for _, e := range more {
		if f := errs.FieldOf(e); !named[f] {
			named[f] = true
			problems = append(problems, e)
		}
	}
	return problems
}

// generateForm reads the generate form: fixed fields plus parameters.
func generateForm(c echo.Context) (generateRequest, error) {
	form, err := c.FormParams()
	if err != nil {
		return generateRequest{}, formErr(err)
	}
	g := generateRequest{Strategy: form.Get("strategy"), Preset: form.Get("preset"), Name: form.Get("name"), Params: solvers.Params{}}
	if v := strings.TrimSpace(form.Get("seed")); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			g.seedErr = append(g.seedErr, errs.Invalidf("seed", "must be a whole number, got %q", v))
		} else {
			g.Seed = &n
		}
	}
	for k, vs := range form {
		if name, ok := strings.CutPrefix(k, views.ParamPrefix); ok && len(vs) > 0 {
			g.Params[name] = vs[0]
		}
	}
	return g, nil
}

// Pages.

func (s *Server) workloadsProps(c echo.Context, selected string) (views.WorkloadsProps, error) {
	listed := selected // a chosen family filters the list too
	if selected == "" && len(s.strategies) > 0 {
		selected = s.strategies[0].Info.Name
	}
	limit, cursor, err := page(c)
	if err != nil {
		return views.WorkloadsProps{}, err
	}
	var ws []runtypes.Workload
	var next store.Cursor
	if owner, ok := s.listOwner(c); ok {
		if ws, next, err = s.store.ListWorkloadsPage(c.Request().Context(), listed, owner, limit, cursor); err != nil {
			return views.WorkloadsProps{}, err
		}
	}
	return views.WorkloadsProps{Strategies: s.views(), Workloads: viewWorkloads(ws), Next: nextURL(c, next), Selected: selected, Listed: listed}, nil
}

func (s *Server) workloadsPage(c echo.Context) error {
	p, err := s.workloadsProps(c, c.QueryParam("strategy"))
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.Workloads(p))
}

// formFailed shows the workloads page again with the error above the forms.
func (s *Server) formFailed(c echo.Context, strategy string, ferr error) error {
	return s.formFailedWith(c, strategy, ferr, nil)
}

// formFailedWith is formFailed with the page's props amended by fill
// (nil: none), such as the upload form's Name as typed.
func (s *Server) formFailedWith(c echo.Context, strategy string, ferr error, fill func(*views.WorkloadsProps)) error {
	p, err := s.workloadsProps(c, strategy)
	if err != nil {
		return err
	}
	p.Err = &views.FormError{Message: messageOf(ferr), Field: errs.FieldOf(ferr)}
	if fill != nil {
		fill(&p)
	}
	return s.render(c, statusOf(ferr), views.Workloads(p))
}

func (s *Server) uploadPage(c echo.Context) error {
	w, existing, err := s.upload(c)
	if err != nil {
		// The form again with the Name as typed (the multipart form was
		// parsed, unless the body was refused before it could be).
		var name string
		if f := c.Request().MultipartForm; f != nil && len(f.Value["name"]) > 0 {
			name = f.Value["name"][0]
		}
		return s.formFailedWith(c, c.FormValue("strategy"), err, func(p *views.WorkloadsProps) { p.UploadName = name })
	}
	if existing {
		return c.Redirect(http.StatusSeeOther, "/workloads/"+w.ID+"?existing=1")
	}
	return c.Redirect(http.StatusSeeOther, "/workloads/"+w.ID)
}

func (s *Server) generatePage(c echo.Context) error {
	g, err := generateForm(c)
	if err != nil {
		return s.formFailed(c, g.Strategy, err)
	}
	w, err := s.generate(c, g)
	if err == nil {
		return c.Redirect(http.StatusSeeOther, "/workloads/"+w.ID)
	}
	if k, f := errs.KindOf(err), errs.FieldOf(err); (k != errs.Invalid && k != errs.TooLarge) || f == "preset" || f == "strategy" {
		return s.formFailed(c, g.Strategy, err) // no preset's form to show it beside
	}
	// The preset's form again, as typed, with every problem beside its field.
	p, perr := s.workloadsProps(c, g.Strategy)
	if perr != nil {
		return perr
	}
	form, _ := c.FormParams()
	p.Gen = &views.GenForm{Preset: g.Preset, Values: map[string]string(g.Params), Seed: form.Get("seed"), Name: g.Name,
		Errs: formErrors(err)}
	return s.render(c, statusOf(err), views.Workloads(p))
}

func (s *Server) workloadPage(c echo.Context) error {
	ctx := c.Request().Context()
	w, err := s.store.GetWorkload(ctx, c.Param("id"))
	if err != nil {
		return err
	}
	st, err := s.lookup(w.Strategy)
	if err != nil {
		return err
	}
	preview := decodeReport(w.Preview)
	var runs []runtypes.Run
	if owner, ok := s.listOwner(c); ok {
		if runs, err = s.store.ListRuns(ctx, store.RunFilter{WorkloadID: w.ID, Owner: owner, Limit: 100}); err != nil {
			return err
		}
	}
	found, err := s.foundBy(ctx, w.ID)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, views.WorkloadPage(views.WorkloadProps{Workload: viewWorkload(*w), Preview: preview, Strategy: viewOf(st), Runs: s.listRuns(runs),
		Existing: c.QueryParam("existing") == "1", FoundBy: found}))
}

// API.

// apiWorkload is a workload as the API shows it (without its data).
type apiWorkload struct {
	ID       string `json:"id"`
	Strategy string `json:"strategy"`
	Name     string `json:"name"`
	Format   string `json:"format"`
	Summary  string `json:"summary"`
	SHA256   string `json:"sha256"`
	Bytes    int64  `json:"bytes"`
	// UploadSHA256 and UploadBytes describe the file(s) as uploaded
	// (runtypes.Workload.UploadSHA256); sha256 and bytes describe the
	// canonical JSON schedlab converted them to. Absent for a generated
	// workload.
	UploadSHA256 string          `json:"upload_sha256,omitempty"`
	UploadBytes  int64           `json:"upload_bytes,omitempty"`
	CreatedAt    string          `json:"created_at"`
	URL          string          `json:"url"`
	Preview      json.RawMessage `json:"preview,omitempty"`
	// Existing is set when an upload was identical to this stored
	// workload, so it was not stored again.
	Existing bool `json:"existing,omitempty"`
	// FoundBy is the adversarial search whose best instance this is.
	FoundBy *apiFoundBy `json:"found_by,omitempty"`
}

// apiFoundBy is a saved best instance's provenance.
type apiFoundBy struct {
	Search string `json:"search"`
	URL    string `json:"url"`
	Seed   int64  `json:"seed"`
	Commit string `json:"commit"`
}

func toAPIWorkload(w *runtypes.Workload, withPreview bool) apiWorkload {
	a := apiWorkload{ID: w.ID, Strategy: w.Strategy, Name: w.Name, Format: w.Format, Summary: w.Summary,
		SHA256: w.SHA256, Bytes: int64(w.Bytes), UploadSHA256: w.UploadSHA256, UploadBytes: int64(w.UploadBytes), CreatedAt: w.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"), URL: "/workloads/" + w.ID}
	if withPreview && len(w.Preview) > 0 {
		a.Preview = w.Preview
	}
	return a
}

func (s *Server) apiListWorkloads(c echo.Context) error {
	owner, limit, cursor, err := s.apiPage(c, "workloads")
	if err != nil {
		return err
	}
	ws, next, err := s.store.ListWorkloadsPage(c.Request().Context(), c.QueryParam("strategy"), owner, limit, cursor)
	if err != nil {
		return err
	}
	setNext(c, next)
	return c.JSON(http.StatusOK, mapped(ws, func(w runtypes.Workload) apiWorkload { return toAPIWorkload(&w, false) }))
}

// apiUpload: POST /api/workloads. 201 with the new workload, or 200 with
// the stored one ("existing": true) when the upload is identical to it.
func (s *Server) apiUpload(c echo.Context) error {
	w, existing, err := s.upload(c)
	if err != nil {
		return err
	}
	a := toAPIWorkload(w, false)
	if existing {
		a.Existing = true
		return c.JSON(http.StatusOK, a)
	}
	return c.JSON(http.StatusCreated, a)
}

func (s *Server) apiGenerate(c echo.Context) error {
	var g generateRequest
	if err := decodeJSON(c, s.maxUpload, &g); err != nil {
		return err
	}
	w, err := s.generate(c, g)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, toAPIWorkload(w, false))
}

func (s *Server) apiGetWorkload(c echo.Context) error {
	w, err := s.store.GetWorkload(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	a := toAPIWorkload(w, true)
	found, err := s.foundBy(c.Request().Context(), w.ID)
	if err != nil {
		return err
	}
	if found != nil {
		a.FoundBy = &apiFoundBy{Search: found.ID, URL: "/adversary/" + found.ID, Seed: found.Seed, Commit: found.Commit}
	}
	return c.JSON(http.StatusOK, a)
}

// apiExampleWorkload: GET /api/strategies/:name/example.json, a workload
// in the strategy's native JSON, generated from its first preset with the
// preset's defaults and seed 1 (nothing is stored): what an uploaded
// native file must look like.
func (s *Server) apiExampleWorkload(c echo.Context) error {
	st, err := s.lookup(c.Param("name"))
	if err != nil {
		return err
	}
	presets := st.Presets
	if len(presets) == 0 {
		return errs.New(errs.NotFound, "strategy", "%s has no preset to make an example from", c.Param("name"))
	}
	params, err := solvers.Resolve(presets[0].Params, nil)
	if err != nil {
		return err
	}
	w, err := execute.Generate(c.Request().Context(), st, presets[0].Name, params, 1, s.runner.Budget())
	if err != nil {
		return err
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, w.Data, "", "  "); err != nil {
		pretty.Reset()
		pretty.Write(w.Data)
	}
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf("inline; filename=%q", st.Info.Name+"-example.json"))
	return c.Blob(http.StatusOK, "application/json", pretty.Bytes())
}

func (s *Server) apiWorkloadData(c echo.Context) error {
	w, err := s.store.GetWorkload(c.Request().Context(), c.Param("id"))
	if err == nil {
		err = generated(w)
	}
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", w.ID+".json"))
	return c.Blob(http.StatusOK, "application/json", w.Data)
}

func (s *Server) apiExport(c echo.Context) error {
	sw, err := s.store.GetWorkload(c.Request().Context(), c.Param("id"))
	if err == nil {
		err = generated(sw)
	}
	if err != nil {
		return err
	}
	st, err := s.lookup(sw.Strategy)
	if err != nil {
		return err
	}
	b, f, err := execute.Export(c.Request().Context(), st, &solvers.Workload{Name: sw.Name, Format: sw.Format, Summary: sw.Summary, Data: sw.Data}, c.Param("format"), s.runner.Budget())
	if err != nil {
		return err
	}
	c.Response().Header().Set("Content-Disposition", fmt.Sprintf("attachment; filename=%q", sw.ID+"-"+f.Name+f.Ext))
	return c.Blob(http.StatusOK, f.MIME, b)
}

// decodeJSON reads a JSON body strictly: unknown fields and trailing data are errors.
func decodeJSON(c echo.Context, limit int64, v any) error {
	body := http.MaxBytesReader(c.Response(), c.Request().Body, limit)
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return errs.New(errs.TooLarge, "body", "request body is larger than the limit of %d MiB", limit>>20)
		}
		if errs.KindOf(err) == errs.Invalid {
			return err
		}
		if name, ok := errs.UnknownJSONField(err); ok {
			return errs.Invalidf(strings.Trim(name, `"`), "unknown field")
		}
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) {
			return errs.Invalidf(cmp.Or(typ.Field, "body"), "must be %s, got JSON %s", errs.JSONType(typ.Type), typ.Value)
		}
		var syn *json.SyntaxError
		if errors.As(err, &syn) {
			return errs.Invalidf("body", "malformed JSON at byte %d: %s", syn.Offset, strings.TrimPrefix(syn.Error(), "json: "))
		}
		return errs.Invalidf("body", "malformed JSON: %s", strings.TrimPrefix(err.Error(), "json: "))
	}
	if dec.More() {
		return errs.Invalidf("body", "trailing data after the JSON object")
	}
	return nil
}
