package runcmd

import (
	"bufio"
	"cmp"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"schedlab/buildinfo"
	"schedlab/report"
)

// OutputFlags say how run and reproduce write the report: to --out or
// stdout, compact unless --indent; a table of more than
// report.PageOutRows rows in the paged form the server's API gives
// (its title, columns and row count, no rows: a per-job table of a trace
// is most of the report and of the work of writing it) unless --full;
// such tables' rows as CSV files in --tables DIR.
type OutputFlags struct {
	out    string
	indent bool
	full   bool
	tables string
}

func (o *OutputFlags) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.out, "out", "", "write the Report JSON here (default stdout)")
	fs.BoolVar(&o.indent, "indent", false, "indent the Report JSON (default: compact)")
	fs.BoolVar(&o.full, "full", false, fmt.Sprintf("keep every table's rows in the report (default: a table of more than %d rows is written paged, without its rows, as the server's API gives it)", report.PageOutRows))
	fs.StringVar(&o.tables, "tables", "", fmt.Sprintf("write the rows of each table of more than %d rows as CSV in this directory, as NN-title.csv (NN: the table's index in the report), the server's CSV download", report.PageOutRows))
}

// write writes rep as the flags say. A lazy table (report.LazyTable)
// that is paged and not asked for as CSV is never built.
func (o *OutputFlags) Write(rep *report.Report, stdout io.Writer) error {
	files := map[int]string{}
	if o.tables != "" {
		for i := range rep.Tables {
			if rep.Tables[i].NumRows() <= report.PageOutRows {
				continue
			}
			path, err := writeTableCSV(o.tables, i, &rep.Tables[i])
			if err != nil {
				return err
			}
			files[i] = path
		}
	}
	out := rep
	if !o.full {
		var paged []int
		if out, paged = rep.PagedOut(); len(paged) > 0 {
			out.Notes = slices.Clone(out.Notes)
			for _, i := range paged {
				t := &rep.Tables[i]
				how := "`--tables DIR` writes its rows as CSV, `--full` keeps them here"
				if path, ok := files[i]; ok {
					how = "its rows are in " + path + " (`--full` keeps them here)"
				}
				out.Notes = append(out.Notes, fmt.Sprintf("The table %q (%d rows) is paged out of this report, as the server stores it: %s.", t.Title, t.NumRows(), how))
			}
		}
	}
	return writeJSON(out, o.out, stdout, o.indent)
}

// writeTableCSV writes table i of a report as CSV in dir (made if
// missing), named NN-slug-of-title.csv, and returns the file's path.
func writeTableCSV(dir string, i int, t *report.Table) (path string, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("--tables: %w", err)
	}
	slug := report.Slug(t.Title)
	slug = cmp.Or(slug, "table")
	path = filepath.Join(dir, fmt.Sprintf("%02d-%s.csv", i, slug))
	f, err := os.Create(path)
	if err != nil {
		return "", fmt.Errorf("--tables: %w", err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("--tables: %w", cerr)
		}
	}()
	bw := bufio.NewWriterSize(f, 256<<10)
	if err := t.WriteCSV(bw); err != nil {
		return "", fmt.Errorf("--tables: table %q: %w", t.Title, err)
	}
	if err := bw.Flush(); err != nil {
		return "", fmt.Errorf("--tables: %w", err)
	}
	return path, nil
}

// writeJSON writes rep to path (stdout when empty) as it encodes it,
// compact unless indent: a report of megabytes is never held whole.
func writeJSON(rep *report.Report, path string, stdout io.Writer, indent bool) (err error) {
	w := stdout
	if path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer func() {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}()
		w = f
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	// The build that produced the report comes first (buildinfo.ReportKey),
	// then the report's own members: its opening brace (and newline) is
	// skipped.
	bw.Write(buildinfo.Current().ReportHead(indent))
	skip := 1
	if indent {
		skip = 2
	}
	if err := rep.WriteJSON(&skipWriter{w: bw, skip: skip}, indent); err != nil {
		return err
	}
	return bw.Flush()
}

// skipWriter drops the first skip bytes written through it.
type skipWriter struct {
	w    io.Writer
	skip int
}

func (s *skipWriter) Write(p []byte) (int, error) {
	n := len(p)
	if s.skip > 0 {
		k := min(s.skip, len(p))
		p, s.skip = p[k:], s.skip-k
	}
	if _, err := s.w.Write(p); err != nil {
		return 0, err
	}
	return n, nil
}
