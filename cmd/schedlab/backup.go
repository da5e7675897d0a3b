package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"schedlab/cmd/internal/runcmd"
	"schedlab/store"
)

// backupCmd: schedlab backup --db FILE --out FILE writes a consistent
// copy of the database (VACUUM INTO: one read transaction, so a running
// server goes on), refusing an --out that exists.
func backupCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("backup", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", "./schedlab.db", "the database to back up")
	out := fs.String("out", "", "the backup file to write (must not exist)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("backup takes no arguments besides --db and --out, got %q", fs.Arg(0))
	}
	if *out == "" {
		return errors.New("--out: give the backup file to write, e.g. --out schedlab-backup.db")
	}
	if _, err := os.Stat(*dbPath); err != nil {
		return fmt.Errorf("--db: %w", err) // opening would create an empty database
	}
	st, err := store.Open(*dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Backup(ctx, *out); err != nil {
		return runcmd.Describe(err)
	}
	fi, err := os.Stat(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "backed up %s to %s (%d bytes)\n", *dbPath, *out, fi.Size())
	return nil
}

// diskCheckInterval is how often serve measures the database's disk
// (store.Disk.Check): how soon a full disk is seen, and how soon the
// server resumes once space is freed.
const diskCheckInterval = 5 * time.Second

// watchStore starts serve's checks of the database: its disk's space
// (min free bytes; periodically, until ctx is done) and its integrity
// (PRAGMA quick_check, once, in the background: it reads every page).
// What they find is logged and shown on /healthz.
func watchStore(ctx context.Context, st *store.Store, minFree int64) {
	st.Disk().SetMinFree(minFree)
	st.Disk().Check(ctx) // before the first request
	go st.Disk().Watch(ctx, diskCheckInterval)
	go st.CheckIntegrity(ctx)
}
