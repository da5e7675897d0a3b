package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"schedlab/bundle"
	"schedlab/cmd/internal/runcmd"
	"schedlab/errs"
	"schedlab/solvers/registry"
	"schedlab/store"
)

// parseInterleaved parses fs over args where positional arguments may sit
// between flags (schedlab export --db F ID --out P), and returns the
// positional ones.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// exportBundle: schedlab export --db FILE EXPERIMENT_ID [--out PATH]
// writes the experiment as a bundle, to PATH (default
// EXPERIMENT_ID.schedlab-experiment.json.gz; "-" is stdout). The file
// appears complete or not at all: it is written beside PATH and renamed.
func exportBundle(ctx context.Context, dbPath, id, out string, stdout, stderr io.Writer) error {
	if _, err := os.Stat(dbPath); err != nil {
		return fmt.Errorf("--db: %w", err) // opening would create an empty database
	}
	st, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	// An ID may name an adversarial search: it travels in a search bundle.
	export, suffix, what := bundle.Export, bundle.FileSuffix, "experiment"
	if _, err := st.GetAdversarySearch(ctx, id); err == nil {
		export, suffix, what = bundle.ExportSearch, bundle.SearchFileSuffix, "search"
	}
	if out == "-" {
		return runcmd.Describe(export(ctx, st, id, stdout))
	}
	out = cmp.Or(out, id+suffix)
	f, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // after the rename, nothing is there
	if err := export(ctx, st, id, f); err != nil {
		f.Close()
		return runcmd.Describe(err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return err
	}
	if err := os.Rename(f.Name(), out); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "wrote %s %s to %s\n", what, id, out)
	return nil
}

// importCmd: schedlab import --db FILE BUNDLE [--max-mb N] stores the
// experiment of a bundle, keeping its IDs, and says what it stored.
func importCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const use = "usage: schedlab import [--db ./schedlab.db] [--max-mb 1024] BUNDLE"
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", "./schedlab.db", "SQLite database file (created if missing)")
	maxMB := fs.Int64("max-mb", bundle.DefaultLimit>>20, "largest decompressed bundle accepted, MiB")
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errors.New(use)
	}
	if *maxMB <= 0 {
		return fmt.Errorf("--max-mb must be positive, got %d", *maxMB)
	}
	f, err := os.Open(pos[0])
	if err != nil {
		return err
	}
	defer f.Close()
	fail := func(err error) error {
		if errs.Is(err, errs.TooLarge) {
			err = fmt.Errorf("%w (--max-mb raises the limit)", err)
		}
		return runcmd.Describe(fmt.Errorf("%s: %w", pos[0], err))
	}
	if strings.HasSuffix(pos[0], bundle.SearchFileSuffix) {
		return importSearch(ctx, f, *dbPath, *maxMB<<20, stdout, fail)
	}
	r, err := bundle.NewReader(f, *maxMB<<20)
	if err != nil {
		return fail(err)
	}
	if err := knownStrategy(r.Experiment().Strategy); err != nil {
		return runcmd.Describe(err)
	}
	st, err := store.Open(*dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	got, err := bundle.Import(ctx, st, r, "")
	if err != nil {
		return fail(err)
	}
	printImported(stdout, got, *dbPath)
	return nil
}

// importSearch stores the search of a search bundle (NAME.schedlab-search.json.gz).
func importSearch(ctx context.Context, f io.Reader, dbPath string, limit int64, stdout io.Writer, fail func(error) error) error {
	b, err := bundle.ReadSearch(f, limit)
	if err != nil {
		return fail(err)
	}
	if err := knownStrategy(b.Search.Strategy); err != nil {
		return runcmd.Describe(err)
	}
	st, err := store.Open(dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := bundle.ImportSearch(ctx, st, b, ""); err != nil {
		return fail(err)
	}
	fmt.Fprintf(stdout, "imported search %s into %s: %d evaluations, best instance %v\n/adversary/%s\n",
		b.Search.ID, dbPath, len(b.Evaluations), b.Workload != nil, b.Search.ID)
	return nil
}

// knownStrategy refuses a bundle of a strategy this build does not have:
// its pages could not be shown.
func knownStrategy(name string) error {
	if _, ok := registry.Lookup(name); !ok {
		return fmt.Errorf("strategy: this schedlab has no strategy %q (see `schedlab strategies`): import the bundle with a schedlab that has it", name)
	}
	return nil
}

func printImported(w io.Writer, got *store.Imported, db string) {
	b := got.Schedlab
	fmt.Fprintf(w, "imported experiment %s into %s: %d runs, %d workloads (%d already there)\n",
		got.ExperimentID, db, got.Runs, got.Workloads, got.Reused)
	fmt.Fprintf(w, "exported by schedlab %s, commit %s (modified: %s)\n", b.Version, b.Commit, b.Modified)
	fmt.Fprintf(w, "/experiments/%s\n", got.ExperimentID)
}

// bundleFlagsSet reports which of names were given on fs.
func bundleFlagsSet(fs *flag.FlagSet, names ...string) []string {
	var set []string
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(names, f.Name) {
			set = append(set, "--"+f.Name)
		}
	})
	return set
}
