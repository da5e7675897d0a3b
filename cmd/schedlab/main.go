// Command schedlab serves the schedlab dashboard and runs strategies from the
// command line through the same code paths; `schedlab help` (usage below)
// lists its commands.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/pprof"
	"strings"
	"syscall"
	"time"

	"github.com/labstack/echo/v4"

	"schedlab/adversaries"
	"schedlab/cmd/internal/runcmd"
	"schedlab/execute"
	"schedlab/experiments"
	"schedlab/handlers"
	"schedlab/notify"
	"schedlab/runner"
	"schedlab/service"
	"schedlab/solvers"
	"schedlab/solvers/registry"
	"schedlab/store"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer profile()()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "schedlab:", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

// profile writes a CPU profile of the whole process to the file
// $SCHEDLAB_CPUPROFILE names, if any (bench/README.md, "queue": where a
// server's time goes); the returned function ends it.
func profile() func() {
	name := os.Getenv("SCHEDLAB_CPUPROFILE")
	if name == "" {
		return func() {}
	}
	f, err := os.Create(name)
	if err != nil {
		fmt.Fprintln(os.Stderr, "schedlab: SCHEDLAB_CPUPROFILE:", err)
		return func() {}
	}
	pprof.StartCPUProfile(f)
	return func() { pprof.StopCPUProfile(); f.Close() }
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	// A family whose parameter names the forms or the CLI could not reach
	// is a bug of this build: a server (here) or a worker (runcmd.Worker)
	// refuses to start rather than serve it. A one-shot command builds
	// only the family it runs (registry.Lookup) and checks nothing more
	// (issue 43: the command line's start); the registry's tests fail on
	// such a build.
	if cmd == "serve" {
		if err := registry.Check(); err != nil {
			return fmt.Errorf("this build's strategies are inconsistent: %w", err)
		}
	}
	switch cmd {
	case "serve":
		return serve(ctx, args, stderr)
	case "run":
		return runcmd.Run(ctx, args, stdout, stderr)
	case "reproduce":
		return reproduceCmd(ctx, args, stdout, stderr)
	case "export":
		return exportCmd(ctx, args, stdout, stderr)
	case "strategies":
		return strategiesCmd(args, stdout, stderr)
	case "sweep":
		return sweepCmd(ctx, args, stdout, stderr)
	case "adversary":
		return adversaryCmd(ctx, args, stdout, stderr)
	case "import":
		return importCmd(ctx, args, stdout, stderr)
	case "worker":
		return runcmd.Worker(ctx, args, stderr)
	case "user":
		return userCmd(ctx, args, os.Stdin, stdout, stderr)
	case "token":
		return tokenCmd(ctx, args, stdout, stderr)
	case "backup":
		return backupCmd(ctx, args, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, usage)
		return nil
	}
	return fmt.Errorf("unknown command %q\n%s", cmd, usage)
}

const usage = `usage:
  schedlab [serve] [--addr 127.0.0.1:8080] [--db ./schedlab.db] [--workers 2] [--timeout 10m] [--memory-mb 4096] [--max-upload-mb 64] [--min-free-mb 32] [--experiment-budget-mb 2048] [--user-budget-mb 20480] [--auth | --insecure-no-auth]
                   [--nats-listen ADDR | --nats URL [--creds FILE] | --in-process] [--scheduler NAME=COMMAND|NAME=tcp://host:port]...
` + runcmd.WorkerUsage + `
  schedlab sweep FILE|seed:FAMILY/NAME [--out results.json] [--workers 2]   (an experiment definition, JSON or YAML, or a seed paper's by name)
  schedlab adversary --strategy S --a VARIANT --b VARIANT --metric M --preset P [--method anneal|cmaes] [--budget N] [--seed N] [--out best.json]   (search for the instance where A loses most to B)
  schedlab user add [--db ./schedlab.db] [--admin] NAME     (reads the password from stdin)
  schedlab token add [--db ./schedlab.db] [--label L] NAME  (prints an API token for Authorization: Bearer)
` + runcmd.RunUsage + `
  schedlab reproduce S [--param k=v]... [--out FILE] [--indent] [--full] [--tables DIR]
      (a table of more than 1000 rows is written paged, as the API gives it: --tables DIR writes it as DIR/NN-title.csv, --full keeps it in the report)
  schedlab export --strategy S --format F (--workload FILE ... | --preset P) [--seed N] [--param k=v]... [--out FILE]
  schedlab export --db ./schedlab.db EXPERIMENT_ID [--out ID.schedlab-experiment.json.gz]   (an experiment as one bundle file; --out - for stdout)
  schedlab import --db ./schedlab.db [--max-mb 1024] BUNDLE   (an exported experiment, with its IDs)
  schedlab strategies [--json]
  schedlab backup --db ./schedlab.db --out FILE   (a consistent copy while the server runs; never overwrites FILE)`

// Timeouts of the HTTP server. A slow client is cut off instead of holding
// a connection: headers must arrive within readHeaderTimeout, a whole
// request (a 64 MiB upload included, at ≥ 0.5 MiB/s) within readTimeout; a
// response (a report of tens of MiB, at ≥ 0.1 MiB/s) within writeTimeout;
// an idle keep-alive connection is closed after idleTimeout.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 2 * time.Minute
	writeTimeout      = 5 * time.Minute
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 64 << 10
	// drainTimeout is how long a stop waits for requests in flight, then
	// for runs to be stored as interrupted, before it closes what is left.
	drainTimeout = 10 * time.Second
)

func serve(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address")
	dbPath := fs.String("db", "./schedlab.db", "SQLite database file (created if missing)")
	workers := fs.Int("workers", 2, "local worker processes started and kept running (each executes one run at a time); with --in-process, runs executed at once in this process")
	natsListen := fs.String("nats-listen", "", "address the embedded NATS server listens on for workers of other machines (default: a free port on 127.0.0.1)")
	natsURL := fs.String("nats", "", "use this NATS server (with JetStream) instead of starting one")
	creds := fs.String("creds", "", "with --nats: the credential file to connect with (NKey seed or .creds)")
	inProcess := fs.Bool("in-process", false, "execute runs inside this process, without NATS or worker processes")
	maxUploadMB := fs.Int64("max-upload-mb", handlers.DefaultMaxUpload>>20, "largest accepted upload, MiB")
	minFreeMB := fs.Int64("min-free-mb", store.DefaultMinFree>>20, "free space, MiB, under which the database's disk counts as low: new runs, uploads and experiments get 507 and workers claim nothing until there is more (0: off)")
	expBudgetMB := fs.Int64("experiment-budget-mb", service.DefaultBudget().ExperimentBytes>>20, "most an experiment's generated workloads may store, MiB (estimated before generating)")
	userBudgetMB := fs.Int64("user-budget-mb", service.DefaultBudget().UserBytes>>20, "most a user's workloads may store, MiB (all users' without --auth)")
	auth := fs.Bool("auth", false, "require a login (or an API token) for every change; accounts come from `schedlab user add`")
	insecure := fs.Bool("insecure-no-auth", false, "allow serving on a non-loopback address without --auth (anyone who reaches it can change anything)")
	notifyURL := fs.String("notify-url", "", "POST a JSON note here when an experiment ends or fails (one whose definition names no notify_url); http or https")
	var notifyAllow runcmd.List
	fs.Var(&notifyAllow, "notify-allow", "let notifications reach this internal network (CIDR, e.g. 10.1.0.0/16); repeatable or comma-separated. Without it loopback, private, link-local, unspecified and multicast addresses are refused")
	publicURL := fs.String("public-url", "", "the server's address as readers reach it, for links in notifications (default: http://ADDR)")
	var b runcmd.BudgetFlags
	b.Register(fs)
	var sf runcmd.Schedulers
	fs.Var(&sf, "scheduler", "register a decision process (Batsim protocol) as variant external:NAME of the batch simulation: NAME=COMMAND (started per run, {endpoint} in its arguments) or NAME=tcp://host:port; repeatable")
	if err := fs.Parse(args); err != nil {
		return err
	}
	set, err := registry.WithSchedulers(sf)
	if err != nil {
		return err
	}
	if err := checkExposure(*addr, *auth, *insecure); err != nil {
		return err
	}
	allow, err := notify.ParseAllow(notifyAllow)
	if err != nil {
		return fmt.Errorf("--notify-allow: %w", err)
	}
	if *notifyURL != "" {
		if err := experiments.CheckNotifyURL(*notifyURL); err != nil {
			return fmt.Errorf("--notify-url: %w", err)
		}
	}
	if *workers < 0 {
		return fmt.Errorf("--workers: must not be negative, got %d", *workers)
	}
	if *inProcess && (*natsURL != "" || *natsListen != "") {
		return errors.New("--in-process executes runs without NATS: drop --nats and --nats-listen")
	}
	if *natsURL != "" && *natsListen != "" {
		return errors.New("--nats uses an existing NATS server, --nats-listen configures the embedded one: give one of them")
	}
	if *creds != "" && *natsURL == "" {
		return errors.New("--creds is the credential for --nats URL; the embedded server writes its own")
	}
	if *minFreeMB < 0 {
		return fmt.Errorf("--min-free-mb: must not be negative, got %d", *minFreeMB)
	}
	st, err := store.Open(*dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	watchStore(ctx, st, *minFreeMB<<20)
	if *auth {
		if ok, err := st.HasUsers(ctx); err != nil {
			return err
		} else if !ok {
			log.Printf("schedlab: --auth is on and there are no accounts yet: make one with `schedlab user add --db %s NAME`", *dbPath)
		}
	}
	budget := b.Budget()
	// The watcher marks ended experiments done and announces them; the
	// runs' ends kick it (issue 43), so a sweep is done at once, not at
	// its next look.
	watcher := &notify.Watcher{Store: st, Default: *notifyURL, Poster: notify.Poster{Guard: notify.Guard{Allow: allow}}}
	// Searches (issue 45) wait for their runs' ends too.
	var searches *adversaries.Driver
	ended := func() {
		watcher.Kick()
		if searches != nil {
			searches.Kick()
		}
	}
	opt := runner.Options{Workers: *workers, Timeout: budget.Timeout, MemoryBudget: budget.Memory, Ended: ended}
	var q *queueSide
	if !*inProcess {
		if q, err = startQueue(ctx, st, *dbPath, *natsURL, *creds, *natsListen, budget, ended); err != nil {
			return err
		}
		defer q.close()
		opt.Backend = q.dispatcher
		defer execute.Serving(budget)() // runs on workers: collect less (see ServerGCPercent)
	} else if *workers == 0 {
		return errors.New("--workers 0 with --in-process would never execute a run")
	}
	if err := runner.SetMetricNeeds(ctx, st, runcmd.All(set), slog.Default()); err != nil {
		return err
	}
	rn := runner.New(st, runcmd.Lookup(set), opt)
	searches = adversaries.New(st, rn, runcmd.Lookup(set), adversaries.Options{})
	if err := rn.Start(ctx); err != nil {
		return err
	}
	if err := searches.Start(ctx); err != nil {
		return err
	}
	if q != nil {
		q.startWorkers(ctx, *workers, sf.Args())
	}

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	handlers.New(st, rn, runcmd.All(set), handlers.Options{MaxUpload: *maxUploadMB << 20, Auth: *auth,
		Budget:      service.Budget{ExperimentBytes: *expBudgetMB << 20, UserBytes: *userBudgetMB << 20},
		NotifyAllow: allow, Searches: searches}).Routes(e)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	mode := "single-user, no login"
	if *auth {
		mode = "accounts (--auth)"
	}
	log.Printf("schedlab serving http://%s with %s, %s", ln.Addr(), *dbPath, mode)
	if *publicURL == "" {
		*publicURL = "http://" + ln.Addr().String()
	}
	watcher.Base = *publicURL
	go watcher.Run(ctx) // marks ended experiments done and announces them; stops with ctx, before the runner drains
	srv := &http.Server{Handler: e, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout,
		WriteTimeout: writeTimeout, IdleTimeout: idleTimeout, MaxHeaderBytes: maxHeaderBytes}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		_ = searches.Shutdown(context.Background())
		q.stopWorkers()
		_ = rn.Shutdown(context.Background())
		return err
	case <-ctx.Done():
	}
	log.Printf("schedlab stopping")
	// Drain: stop accepting, let requests in flight finish; a client too
	// slow to finish within drainTimeout is cut off. A stop asked for is a
	// clean exit either way.
	shut, cancel := context.WithTimeout(context.Background(), drainTimeout)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		log.Printf("schedlab: closing connections still open after %v", drainTimeout)
		_ = srv.Close()
	}
	// The runner gets its own time: runs it cannot store as interrupted in
	// time stay "running" in the database, and the next start marks them
	// interrupted, so nothing is lost.
	// Searches stop first, left running for the next start: their runs
	// cut off below are queued again then.
	if err := searches.Shutdown(shut); err != nil {
		log.Printf("schedlab: searches still stopping: %v", err)
	}
	q.stopWorkers() // they hand their runs back to the queue for the next start
	stopRuns, cancelRuns := context.WithTimeout(context.Background(), drainTimeout)
	defer cancelRuns()
	if err := rn.Shutdown(stopRuns); err != nil {
		log.Printf("schedlab: %v; the next start marks them interrupted", err)
	}
	return nil
}

// checkExposure refuses to serve without accounts on an address other
// machines can reach, unless asked to.
func checkExposure(addr string, auth, insecure bool) error {
	if auth || insecure {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("--addr %q: %v", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("--addr %s is reachable from other machines and the server has no accounts: "+
		"start it with --auth (make accounts with `schedlab user add NAME`), or with --insecure-no-auth to let anyone who reaches it change anything", addr)
}

// userCmd: schedlab user add [--db FILE] [--admin] NAME, password on stdin.
func userCmd(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] != "add" {
		return errors.New("usage: schedlab user add [--db FILE] [--admin] NAME  (reads the password from stdin)")
	}
	fs := flag.NewFlagSet("user add", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", "./schedlab.db", "SQLite database file")
	admin := fs.Bool("admin", false, "the user may cancel, re-run and delete anybody's runs")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New("usage: schedlab user add [--db FILE] [--admin] NAME  (reads the password from stdin)")
	}
	if f, ok := stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			fmt.Fprint(stderr, "password (shown as typed; pipe it in to hide it): ")
		}
	}
	line, err := bufio.NewReader(io.LimitReader(stdin, 4096)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return fmt.Errorf("reading the password from stdin: %w", err)
	}
	password := strings.TrimRight(line, "\r\n")
	st, err := store.Open(*dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.CreateUser(ctx, fs.Arg(0), password, *admin)
	if err != nil {
		return runcmd.Describe(err)
	}
	role := "user"
	if u.Admin {
		role = "admin"
	}
	fmt.Fprintf(stdout, "created %s %s in %s\n", role, u.Name, *dbPath)
	return nil
}

// tokenCmd: schedlab token add [--db FILE] [--label L] NAME prints a new
// API token of user NAME.
func tokenCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	const use = "usage: schedlab token add [--db FILE] [--label L] NAME"
	if len(args) == 0 || args[0] != "add" {
		return errors.New(use)
	}
	fs := flag.NewFlagSet("token add", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", "./schedlab.db", "SQLite database file")
	label := fs.String("label", "", "what the token is for (shown nowhere but the database)")
	if err := fs.Parse(args[1:]); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return errors.New(use)
	}
	st, err := store.Open(*dbPath)
	if err != nil {
		return err
	}
	defer st.Close()
	tok, err := st.CreateToken(ctx, fs.Arg(0), *label)
	if err != nil {
		return runcmd.Describe(err)
	}
	fmt.Fprintln(stdout, tok)
	return nil
}

func reproduceCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return errors.New("usage: schedlab reproduce STRATEGY [--param k=v]... [--out FILE] [--indent] [--full] [--tables DIR]")
	}
	name, args := args[0], args[1:]
	fs := flag.NewFlagSet("reproduce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o runcmd.OutputFlags
	o.Register(fs)
	params := runcmd.Params{}
	fs.Var(params, "param", "experiment parameter name=value, repeatable")
	var b runcmd.BudgetFlags
	b.Register(fs)
	b.Timeout = time.Hour
	if err := fs.Parse(args); err != nil {
		return err
	}
	st, ok := registry.Lookup(name)
	if !ok {
		return fmt.Errorf("unknown strategy %q (see `schedlab strategies`)", name)
	}
	defer execute.OneShot(b.Budget())() // one run, then exit: collect less (see OneShotGCPercent)
	rep, err := execute.Reproduce(ctx, st, solvers.Params(params), runcmd.Progress(stderr), b.Budget())
	if err != nil {
		return runcmd.Describe(err)
	}
	return o.Write(rep, stdout)
}

// exportCmd writes an experiment as a bundle (export --db FILE
// EXPERIMENT_ID), or a workload in another tool's format (e.g. DCOP as
// pyDCOP YAML or FRODO XCSP) through the same code as the download button.
func exportCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", "./schedlab.db", "SQLite database file (with EXPERIMENT_ID)")
	strategy := fs.String("strategy", "", "strategy family")
	format := fs.String("format", "", "export format (see `schedlab strategies --json`)")
	preset := fs.String("preset", "", "generate the workload from this preset")
	seed := fs.Int64("seed", 1, "seed of the preset generator")
	out := fs.String("out", "", "write here (default stdout; an experiment bundle: EXPERIMENT_ID.schedlab-experiment.json.gz)")
	var workloads runcmd.List
	fs.Var(&workloads, "workload", "workload file; repeat for file sets")
	params := runcmd.Params{}
	fs.Var(params, "param", "preset parameter name=value, repeatable")
	var bf runcmd.BudgetFlags
	bf.Register(fs)
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 1:
		return errors.New("usage: schedlab export --db FILE EXPERIMENT_ID [--out PATH]")
	case len(pos) == 1:
		if set := bundleFlagsSet(fs, "strategy", "format", "preset", "seed", "workload", "param", "timeout", "memory-mb"); len(set) > 0 {
			return fmt.Errorf("%s: an experiment export takes only --db and --out", strings.Join(set, ", "))
		}
		return exportBundle(ctx, *dbPath, pos[0], *out, stdout, stderr)
	}
	if set := bundleFlagsSet(fs, "db"); len(set) > 0 {
		return errors.New("--db: give the EXPERIMENT_ID to export from the database (schedlab export --db FILE EXPERIMENT_ID)")
	}
	st, ok := registry.Lookup(*strategy)
	if !ok {
		return fmt.Errorf("--strategy: unknown strategy %q (see `schedlab strategies`)", *strategy)
	}
	if (len(workloads) == 0) == (*preset == "") {
		return errors.New("give either --workload FILE or --preset NAME")
	}
	w, _, err := runcmd.LoadWorkload(ctx, st, workloads, *preset, *seed, solvers.Params(params), bf.Budget())
	if err != nil {
		return err
	}
	b, _, err := st.ExportWorkload(w, *format)
	if err != nil {
		return runcmd.Describe(err)
	}
	if *out == "" {
		_, err = stdout.Write(b)
		return err
	}
	return os.WriteFile(*out, b, 0o644)
}

func strategiesCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("strategies", flag.ContinueOnError)
	fs.SetOutput(stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	list := solvers.Describe(registry.All())
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(list)
	}
	for _, s := range list {
		vs := make([]string, len(s.Variants))
		for i, v := range s.Variants {
			vs[i] = v.Name
		}
		fmt.Fprintf(stdout, "%-9s %s (variants: %s)\n", s.Name, s.Title, strings.Join(vs, ", "))
	}
	return nil
}
