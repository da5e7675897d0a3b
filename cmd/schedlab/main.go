// Command schedlab serves the schedlab dashboard and runs strategies from the
// command line through the same code paths.
//
//	schedlab [serve] [--addr 127.0.0.1:8080] [--db ./schedlab.db] [--workers 2] [--nats-listen ADDR | --nats URL --creds FILE | --in-process] [--auth | --insecure-no-auth] [--notify-url URL] [--public-url URL]
//	schedlab worker --nats URL --creds FILE [--concurrency N] [--exit-when-idle D]
//	schedlab sweep FILE|seed:FAMILY/NAME [--out FILE] [--workers N]   (an experiment definition)
//	schedlab user add [--db FILE] [--admin] NAME      (password on stdin)
//	schedlab token add [--db FILE] [--label L] NAME   (prints an API token)
//	schedlab run --strategy S [--variant V] (--workload FILE... | --preset P) [--seed N] [--param k=v]... [--out FILE] [--indent] [--full] [--tables DIR]
//	schedlab reproduce S [--param k=v]... [--out FILE] [--indent] [--full] [--tables DIR]
//	schedlab export --strategy S --format F (--workload FILE... | --preset P) [--seed N] [--param k=v]... [--out FILE]
//	schedlab export --db FILE EXPERIMENT_ID [--out PATH]   (an experiment as a bundle file)
//	schedlab import --db FILE BUNDLE [--max-mb 1024]
//	schedlab strategies [--json]
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
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/labstack/echo/v4"

	"schedlab/errs"
	"schedlab/execute"
	"schedlab/experiments"
	"schedlab/handlers"
	"schedlab/notify"
	"schedlab/queue"
	"schedlab/runner"
	"schedlab/solvers"
	"schedlab/solvers/batsim"
	"schedlab/solvers/registry"
	"schedlab/store"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "schedlab:", err)
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	// A family whose parameter names the forms or the CLI could not reach
	// is a bug of this build: refuse to start rather than serve it.
	if err := registry.Check(); err != nil {
		return fmt.Errorf("this build's strategies are inconsistent: %w", err)
	}
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, args, stderr)
	case "run":
		return runCmd(ctx, args, stdout, stderr)
	case "reproduce":
		return reproduceCmd(ctx, args, stdout, stderr)
	case "export":
		return exportCmd(ctx, args, stdout, stderr)
	case "strategies":
		return strategiesCmd(args, stdout, stderr)
	case "sweep":
		return sweepCmd(ctx, args, stdout, stderr)
	case "import":
		return importCmd(ctx, args, stdout, stderr)
	case "worker":
		rest, scheds, err := takeSchedulers(args)
		if err != nil {
			return err
		}
		set, err := registry.WithSchedulers(scheds)
		if err != nil {
			return err
		}
		return queue.WorkerMain(ctx, rest, set.Lookup, stderr)
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
  schedlab worker --nats URL --creds FILE [--concurrency N] [--exit-when-idle D] [--scheduler NAME=COMMAND]...   (joins a server's queue and executes runs)
  schedlab sweep FILE|seed:FAMILY/NAME [--out results.json] [--workers 2]   (an experiment definition, JSON or YAML, or a seed paper's by name)
  schedlab user add [--db ./schedlab.db] [--admin] NAME     (reads the password from stdin)
  schedlab token add [--db ./schedlab.db] [--label L] NAME  (prints an API token for Authorization: Bearer)
  schedlab run --strategy S [--variant V] (--workload FILE ... | --preset P) [--seed N] [--param k=v]... [--out FILE] [--indent] [--full] [--tables DIR]
               [--scheduler NAME=COMMAND]... [--scheduler-endpoint tcp://host:port]   (a decision process speaking Batsim's protocol schedules an SWF trace)
  schedlab reproduce S [--param k=v]... [--out FILE] [--indent] [--full] [--tables DIR]
      (a table of more than 1000 rows is written paged, as the API gives it: --tables DIR writes it as DIR/NN-title.csv, --full keeps it in the report)
  schedlab export --strategy S --format F (--workload FILE ... | --preset P) [--seed N] [--param k=v]... [--out FILE]
  schedlab export --db ./schedlab.db EXPERIMENT_ID [--out ID.schedlab-experiment.json.gz]   (an experiment as one bundle file; --out - for stdout)
  schedlab import --db ./schedlab.db [--max-mb 1024] BUNDLE   (an exported experiment, with its IDs)
  schedlab strategies [--json]
  schedlab backup --db ./schedlab.db --out FILE   (a consistent copy while the server runs; never overwrites FILE)`

// budgetFlags are the run limits shared by serve, run and reproduce.
type budgetFlags struct {
	timeout  time.Duration
	memoryMB uint64
}

func (b *budgetFlags) register(fs *flag.FlagSet) {
	fs.DurationVar(&b.timeout, "timeout", execute.DefaultTimeout, "time limit of one run")
	fs.Uint64Var(&b.memoryMB, "memory-mb", execute.DefaultMemoryBudget>>20, "Go heap budget of a run, MiB")
}

func (b *budgetFlags) budget() execute.Budget {
	return execute.Budget{Timeout: b.timeout, Memory: b.memoryMB << 20}
}

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
	expBudgetMB := fs.Int64("experiment-budget-mb", handlers.DefaultBudget().ExperimentBytes>>20, "most an experiment's generated workloads may store, MiB (estimated before generating)")
	userBudgetMB := fs.Int64("user-budget-mb", handlers.DefaultBudget().UserBytes>>20, "most a user's workloads may store, MiB (all users' without --auth)")
	auth := fs.Bool("auth", false, "require a login (or an API token) for every change; accounts come from `schedlab user add`")
	insecure := fs.Bool("insecure-no-auth", false, "allow serving on a non-loopback address without --auth (anyone who reaches it can change anything)")
	notifyURL := fs.String("notify-url", "", "POST a JSON note here when an experiment ends or fails (one whose definition names no notify_url); http or https")
	publicURL := fs.String("public-url", "", "the server's address as readers reach it, for links in notifications (default: http://ADDR)")
	var b budgetFlags
	b.register(fs)
	var sf schedulerFlags
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
	budget := b.budget()
	opt := runner.Options{Workers: *workers, Timeout: budget.Timeout, MemoryBudget: budget.Memory}
	var q *queueSide
	if !*inProcess {
		if q, err = startQueue(ctx, st, *dbPath, *natsURL, *creds, *natsListen, budget); err != nil {
			return err
		}
		defer q.close()
		opt.Backend = q.dispatcher
	} else if *workers == 0 {
		return errors.New("--workers 0 with --in-process would never execute a run")
	}
	rn := runner.New(st, set.Lookup, opt)
	if err := rn.Start(ctx); err != nil {
		return err
	}
	if q != nil {
		q.startWorkers(ctx, *workers, sf.args())
	}

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	handlers.New(st, rn, set.All(), handlers.Options{MaxUpload: *maxUploadMB << 20, Auth: *auth,
		Budget: handlers.Budget{ExperimentBytes: *expBudgetMB << 20, UserBytes: *userBudgetMB << 20}}).Routes(e)
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
	watcher := &notify.Watcher{Store: st, Default: *notifyURL, Base: *publicURL}
	go watcher.Run(ctx) // marks ended experiments done and announces them; stops with ctx, before the runner drains
	srv := &http.Server{Handler: e, ReadHeaderTimeout: readHeaderTimeout, ReadTimeout: readTimeout,
		WriteTimeout: writeTimeout, IdleTimeout: idleTimeout, MaxHeaderBytes: maxHeaderBytes}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
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
		return describe(err)
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
		return describe(err)
	}
	fmt.Fprintln(stdout, tok)
	return nil
}

// paramFlags collects repeated --param k=v.
type paramFlags solvers.Params

func (p paramFlags) String() string { return "" }
func (p paramFlags) Set(v string) error {
	k, val, ok := strings.Cut(v, "=")
	if !ok || k == "" {
		return fmt.Errorf("--param wants name=value, got %q", v)
	}
	p[k] = val
	return nil
}

// schedulerFlags collects repeated --scheduler NAME=COMMAND|NAME=tcp://…
// (the operator's registrations of decision processes).
type schedulerFlags []batsim.Scheduler

func (f *schedulerFlags) String() string { return "" }
func (f *schedulerFlags) Set(v string) error {
	s, err := batsim.ParseScheduler(v)
	if err != nil {
		return err
	}
	*f = append(*f, s)
	return nil
}

// args are the flags again, for the worker processes serve starts.
func (f schedulerFlags) args() []string {
	var out []string
	for _, s := range f {
		out = append(out, "--scheduler", s.String())
	}
	return out
}

// takeSchedulers removes --scheduler NAME=… (or --scheduler=NAME=…) from
// a worker's arguments and reads them.
func takeSchedulers(args []string) ([]string, schedulerFlags, error) {
	var rest []string
	var sf schedulerFlags
	for i := 0; i < len(args); i++ {
		a := args[i]
		v, ok := strings.CutPrefix(strings.TrimPrefix(a, "-"), "-scheduler=")
		if !ok && (a == "--scheduler" || a == "-scheduler") {
			if i+1 == len(args) {
				return nil, nil, errors.New("--scheduler: missing NAME=COMMAND or NAME=tcp://host:port")
			}
			v, ok = args[i+1], true
			i++
		}
		if !ok {
			rest = append(rest, a)
			continue
		}
		if err := sf.Set(v); err != nil {
			return nil, nil, err
		}
	}
	return rest, sf, nil
}

// listFlags collects a repeated string flag.
type listFlags []string

func (l *listFlags) String() string     { return strings.Join(*l, ",") }
func (l *listFlags) Set(v string) error { *l = append(*l, v); return nil }

func runCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	strategy := fs.String("strategy", "", "strategy family (see `schedlab strategies`)")
	variant := fs.String("variant", "", "variant (default: the strategy's first)")
	preset := fs.String("preset", "", "generate the workload from this preset")
	seed := fs.Int64("seed", 1, "seed of the preset generator")
	var o outputFlags
	o.register(fs)
	var workloads listFlags
	fs.Var(&workloads, "workload", "workload file; repeat for file sets (e.g. etc.csv, apc.csv, users.csv)")
	params := paramFlags{}
	fs.Var(params, "param", "parameter name=value (preset and run parameters), repeatable")
	var b budgetFlags
	b.register(fs)
	var sf schedulerFlags
	fs.Var(&sf, "scheduler", "register a decision process as variant external:NAME: NAME=COMMAND ({endpoint} in it) or NAME=tcp://host:port; repeatable")
	endpoint := fs.String("scheduler-endpoint", "", "a decision process already listening (tcp://host:port): runs the trace as variant external:cli of cyclic (the default then)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *endpoint != "" {
		s, err := batsim.EndpointScheduler(*endpoint)
		if err != nil {
			return err
		}
		sf = append(sf, s)
		if *strategy == "" {
			*strategy = "cyclic"
		}
		if *variant == "" {
			*variant = s.Variant()
		}
	}
	set, err := registry.WithSchedulers(sf)
	if err != nil {
		return err
	}
	st, ok := set.Lookup(*strategy)
	if !ok {
		return fmt.Errorf("--strategy: unknown strategy %q (see `schedlab strategies`)", *strategy)
	}
	if (len(workloads) == 0) == (*preset == "") {
		return errors.New("give either --workload FILE or --preset NAME")
	}
	defer execute.OneShot(b.budget())() // one run, then exit: collect less (see OneShotGCPercent)
	if len(workloads) == 1 && runsFile(st, workloads[0], *variant) {
		// Straight from the file, read as it streams: no stored workload.
		rep, err := runFromFile(ctx, st, workloads[0], *variant, solvers.Params(params), cliProgress(stderr), b.budget())
		if err != nil {
			return err
		}
		return o.write(rep, stdout)
	}
	w, runParams, err := loadWorkload(ctx, st, workloads, *preset, *seed, solvers.Params(params), b.budget())
	if err != nil {
		return err
	}
	rep, err := execute.Run(ctx, st, w, *variant, runParams, cliProgress(stderr), b.budget())
	if err != nil {
		return describe(err)
	}
	return o.write(rep, stdout)
}

// runsFile says whether st runs variant straight from the file path
// (solvers.FileRunner: cyclic's batch on an SWF trace).
func runsFile(st solvers.Strategy, path, variant string) bool {
	fr, ok := st.(solvers.FileRunner)
	if !ok {
		return false
	}
	v, err := solvers.ResolveVariant(st, variant)
	return err == nil && fr.RunsFile(filepath.Base(path), v)
}

// runFromFile runs st straight from the file at path, read as it streams.
func runFromFile(ctx context.Context, st solvers.Strategy, path, variant string, params solvers.Params, progress solvers.Progress, budget execute.Budget) (*solvers.Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := execute.File(ctx, st, filepath.Base(path), f, variant, params, progress, budget)
	return rep, describe(err)
}

// loadWorkload parses workload files or generates a preset. Parameters named
// by the preset go to the generator; the rest are run parameters.
func loadWorkload(ctx context.Context, st solvers.Strategy, files []string, preset string, seed int64, params solvers.Params, budget execute.Budget) (*solvers.Workload, solvers.Params, error) {
	runParams := solvers.Params{}
	if preset == "" {
		var fs []solvers.File
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, nil, err
			}
			fs = append(fs, solvers.File{Name: filepath.Base(f), Data: data})
		}
		w, err := execute.Parse(ctx, st, fs, budget)
		for k, v := range params {
			runParams[k] = v
		}
		return w, runParams, describe(err)
	}
	for _, p := range st.Presets() {
		if p.Name != preset {
			continue
		}
		gen := solvers.Params{}
		for k, v := range params {
			if hasSpec(p.Params, k) {
				gen[k] = v
			} else {
				runParams[k] = v
			}
		}
		resolved, err := solvers.Resolve(p.Params, gen)
		if err != nil {
			return nil, nil, describe(err)
		}
		w, err := execute.Generate(ctx, st, preset, resolved, seed, budget)
		return w, runParams, describe(err)
	}
	var names []string
	for _, p := range st.Presets() {
		names = append(names, p.Name)
	}
	return nil, nil, fmt.Errorf("--preset: unknown preset %q (known: %s)", preset, strings.Join(names, ", "))
}

func hasSpec(specs []solvers.ParamSpec, name string) bool {
	for _, s := range specs {
		if s.Name == name {
			return true
		}
	}
	return false
}

func reproduceCmd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return errors.New("usage: schedlab reproduce STRATEGY [--param k=v]... [--out FILE] [--indent] [--full] [--tables DIR]")
	}
	name, args := args[0], args[1:]
	fs := flag.NewFlagSet("reproduce", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o outputFlags
	o.register(fs)
	params := paramFlags{}
	fs.Var(params, "param", "experiment parameter name=value, repeatable")
	var b budgetFlags
	b.register(fs)
	b.timeout = time.Hour
	if err := fs.Parse(args); err != nil {
		return err
	}
	st, ok := registry.Lookup(name)
	if !ok {
		return fmt.Errorf("unknown or not yet built strategy %q (see `schedlab strategies`)", name)
	}
	defer execute.OneShot(b.budget())() // one run, then exit: collect less (see OneShotGCPercent)
	rep, err := execute.Reproduce(ctx, st, solvers.Params(params), cliProgress(stderr), b.budget())
	if err != nil {
		return describe(err)
	}
	return o.write(rep, stdout)
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
	var workloads listFlags
	fs.Var(&workloads, "workload", "workload file; repeat for file sets")
	params := paramFlags{}
	fs.Var(params, "param", "preset parameter name=value, repeatable")
	var bf budgetFlags
	bf.register(fs)
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
	w, _, err := loadWorkload(ctx, st, workloads, *preset, *seed, solvers.Params(params), bf.budget())
	if err != nil {
		return err
	}
	b, _, err := solvers.ExportWorkload(st, w, *format)
	if err != nil {
		return describe(err)
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
		state := "not yet built"
		if s.Built {
			var vs []string
			for _, v := range s.Variants {
				vs = append(vs, v.Name)
			}
			state = "variants: " + strings.Join(vs, ", ")
		}
		fmt.Fprintf(stdout, "%-9s %s (%s)\n", s.Name, s.Title, state)
	}
	return nil
}

// describe prefixes an error with the field it names.
func describe(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", errs.KindOf(err), err)
}

// cliProgress prints progress to stderr at most a few times a second.
func cliProgress(w io.Writer) solvers.Progress {
	var last time.Time
	return func(done, total int, note string) {
		if now := time.Now(); now.Sub(last) > 500*time.Millisecond || done == total {
			last = now
			fmt.Fprintf(w, "\r%d/%d %s\033[K", done, total, note)
			if done == total {
				fmt.Fprintln(w)
			}
		}
	}
}
