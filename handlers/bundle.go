package handlers

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"

	"github.com/labstack/echo/v4"

	"schedlab/buildinfo"
	"schedlab/bundle"
	"schedlab/errs"
	"schedlab/store"
)

// bundleStore is what the experiment bundles read and store (*store.Store).
type bundleStore interface {
	ExportExperiment(ctx context.Context, id string, sink store.ExportSink) error
	ImportExperiment(ctx context.Context, r store.ImportSource, owner string) (*store.Imported, error)
	GetExperiment(ctx context.Context, id string) (*store.Experiment, error)
}

// apiImported is the answer to an import: the experiment as the API shows
// it, and what the import stored.
type apiImported struct {
	apiExperiment
	Imported struct {
		Runs            int             `json:"runs"`
		Workloads       int             `json:"workloads"`
		WorkloadsReused int             `json:"workloads_reused"`
		Schedlab        buildinfo.Build `json:"schedlab"` // the build that exported it
	} `json:"imported"`
}

// download is the response of a bundle, its headers set on the first byte:
// an export refused before writing anything (unknown, unfinished) is
// still answered as an error page or JSON error, not as an attachment.
type download struct {
	c    echo.Context
	name string
}

func (d *download) Write(p []byte) (int, error) {
	r := d.c.Response()
	if !r.Committed {
		h := r.Header()
		h.Set(echo.HeaderContentType, bundle.MediaType)
		h.Set(echo.HeaderContentDisposition, fmt.Sprintf("attachment; filename=%q", d.name))
		r.WriteHeader(http.StatusOK)
	}
	return r.Write(p)
}

// experimentBundle: GET /experiments/:id/bundle and
// /api/experiments/:id/bundle stream the experiment as a bundle file
// (gzip, written as it is read from one read transaction). A failure after
// the first byte aborts the connection, so the client sees a broken
// download, never a complete-looking file.
func (s *Server) experimentBundle(c echo.Context) error {
	id := c.Param("id")
	err := bundle.Export(c.Request().Context(), s.store, id, &download{c: c, name: id + bundle.FileSuffix})
	if err != nil && c.Response().Committed {
		c.Logger().Errorf("export of experiment %s stopped: %v", id, err)
		panic(http.ErrAbortHandler)
	}
	return err
}

// importBundle stores the experiment of the bundle r. The decompressed
// bundle is capped at the upload limit (--max-upload-mb), as its
// compressed body is.
func (s *Server) importBundle(c echo.Context, r io.Reader) (*store.Imported, error) {
	br, err := bundle.NewReader(r, s.maxUpload)
	if err != nil {
		return nil, err
	}
	if _, err := s.lookup(br.Experiment().Strategy); err != nil {
		return nil, err
	}
	return bundle.Import(c.Request().Context(), s.store, br, ownerID(c))
}

// apiImportExperiment: POST /api/experiments/import with a bundle file as
// the body (Content-Type application/gzip). The body is first copied to a
// temporary file, so that a slow client never holds the database's write
// lock: the import's one transaction reads from the disk.
func (s *Server) apiImportExperiment(c echo.Context) error {
	if ct, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType)); ct != bundle.MediaType {
		return echo.NewHTTPError(http.StatusUnsupportedMediaType, "Content-Type must be "+bundle.MediaType+" (a "+bundle.FileSuffix+" file), got "+quoteOrNone(c.Request().Header.Get(echo.HeaderContentType)))
	}
	f, err := os.CreateTemp("", "schedlab-bundle-*.json.gz")
	if err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if _, err := io.Copy(f, c.Request().Body); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return tooLarge("file", tooBig.Limit)
		}
		return errs.Invalidf("file", "cannot read the bundle: %v", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return errs.Wrap(errs.Internal, err)
	}
	got, err := s.importBundle(c, f)
	if err != nil {
		return err
	}
	return s.imported(c, got)
}

func (s *Server) imported(c echo.Context, got *store.Imported) error {
	ctx := c.Request().Context()
	e, err := s.store.GetExperiment(ctx, got.ExperimentID)
	if err != nil {
		return err
	}
	var a apiImported
	if a.apiExperiment, err = s.toAPIExperiment(ctx, e); err != nil {
		return err
	}
	a.Imported.Runs, a.Imported.Workloads, a.Imported.WorkloadsReused = got.Runs, got.Workloads, got.Reused
	a.Imported.Schedlab = buildinfo.Build(got.Schedlab)
	return c.JSON(http.StatusCreated, a)
}

// importExperimentPage: POST /experiments/import, the form on
// /experiments (multipart, field "bundle"); the guard has parsed the form
// already (for its CSRF field), so the file is on disk or in memory, not
// on the network, while the import runs.
func (s *Server) importExperimentPage(c echo.Context) error {
	fh, err := c.FormFile("bundle")
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return tooLarge("file", tooBig.Limit)
		}
		return errs.Invalidf("bundle", "choose a bundle file (%s) to import", bundle.FileSuffix)
	}
	f, err := fh.Open()
	if err != nil {
		return errs.Invalidf("bundle", "cannot read %s: %v", fh.Filename, err)
	}
	defer f.Close()
	got, err := s.importBundle(c, f)
	if err != nil {
		return errs.InFile(err, fh.Filename)
	}
	return c.Redirect(http.StatusSeeOther, "/experiments/"+got.ExperimentID)
}
