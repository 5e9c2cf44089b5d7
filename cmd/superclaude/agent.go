package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/claudeargs"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/guard"
	"github.com/superclaude/superclaude/internal/logfile"
	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/supervise"
)

// runOptions are the supervisor's knobs: from the environment for a plain
// `superclaude ARGS`, from flags for `superclaude +run`.
type runOptions struct {
	agent      string
	profile    string
	grace      time.Duration
	maxCrashes float64
	crashDecay time.Duration
	crashDelay time.Duration
	// dehydrateWait is the supervisor's patience with an overflowed agent
	// that does not dehydrate.
	dehydrateWait time.Duration
	// resumePolicy is what a start does with its pane's previous
	// conversation: auto, ask or never ("" for the default).
	resumePolicy string
	// limitContinue goes on by itself after a usage or rate limit resets.
	limitContinue bool
	// maxRestarts and restartWindow are the restart-rate breaker.
	maxRestarts   int
	restartWindow time.Duration
}

// optResume is superclaude's one option on claude's command line (claude
// has none of the name); it is taken out before claude runs. A plain
// `superclaude ARGS`, whose flags all belong to the agent, takes its own
// options from the environment (internal/envvar).
const optResume = "--resume-policy"

func defaultOptions() (runOptions, error) {
	o := runOptions{grace: 2 * time.Second, maxCrashes: 5, crashDecay: 30 * time.Second, crashDelay: time.Second,
		dehydrateWait: supervise.DefaultPolicy.DehydrateWait,
		maxRestarts:   supervise.DefaultPolicy.MaxRestarts, restartWindow: supervise.DefaultPolicy.RestartWindow}
	o.agent = os.Getenv(envvar.Agent)
	o.profile = os.Getenv(envvar.Profile)
	o.resumePolicy = os.Getenv(envvar.ResumePolicy)
	o.limitContinue = true
	if v := os.Getenv(envvar.LimitContinue); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return o, fmt.Errorf("%s=%q: want 1 or 0", envvar.LimitContinue, v)
		}
		o.limitContinue = b
	}
	if o.profile == "" {
		o.profile = supervise.Claude.Name
	}
	for _, d := range []struct {
		env string
		dst *time.Duration
	}{{envvar.Grace, &o.grace}, {envvar.CrashWindow, &o.crashDecay}, {envvar.CrashDelay, &o.crashDelay}, {envvar.DehydrateWait, &o.dehydrateWait},
		{envvar.RestartWindow, &o.restartWindow}} {
		if v := os.Getenv(d.env); v != "" {
			parsed, err := time.ParseDuration(v)
			if err != nil || parsed < 0 {
				return o, fmt.Errorf("%s=%q: want a duration such as 2s", d.env, v)
			}
			*d.dst = parsed
		}
	}
	if v := os.Getenv(envvar.OverflowThreshold); v != "" {
		// Read by the hooks, which must not fail claude's tools over it:
		// a bad value is refused here, at the start, instead of ignored.
		if f, err := strconv.ParseFloat(v, 64); err != nil || !(f > 0 && f <= 1) {
			return o, fmt.Errorf("%s=%q: want a fraction of the context window such as 0.76 (for 76 %%)", envvar.OverflowThreshold, v)
		}
	}
	if v := os.Getenv(envvar.MaxCrashes); v != "" {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || n < 1 {
			return o, fmt.Errorf("%s=%q: want a number ≥ 1", envvar.MaxCrashes, v)
		}
		o.maxCrashes = n
	}
	if v := os.Getenv(envvar.MaxRestarts); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return o, fmt.Errorf("%s=%q: want a whole number ≥ 0 (0 turns the restart-rate limit off)", envvar.MaxRestarts, v)
		}
		o.maxRestarts = n
	}
	return o, nil
}

// runAgent is `superclaude ARGS`: claude ARGS under supervision.
func runAgent(args []string) int {
	o, err := defaultOptions()
	if err == nil {
		var policy string
		var values []bool
		if o.profile == supervise.Claude.Name {
			values = claudeargs.Values(args)
		}
		if policy, args, err = cutOption(args, optResume, values); err == nil && policy != "" {
			o.resumePolicy = policy
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "superclaude:", err)
		return 2
	}
	return supervised(o, args)
}

// cutOption takes one of superclaude's options — name=value or name value
// — out of the agent's arguments, before any "--". The arguments values
// marks (nil: none) are the agent's options' values, left as they are:
// `--append-system-prompt --resume-policy` is claude's prompt text.
func cutOption(args []string, name string, values []bool) (value string, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case i < len(values) && values[i]:
			rest = append(rest, a)
		case a == "--":
			return value, append(rest, args[i:]...), nil
		case strings.HasPrefix(a, name+"="):
			value = strings.TrimPrefix(a, name+"=")
		case a == name:
			if i+1 >= len(args) {
				return "", nil, fmt.Errorf("%s needs a value", name)
			}
			i++
			value = args[i]
		default:
			rest = append(rest, a)
		}
	}
	return value, rest, nil
}

func runCommand() *cobra.Command {
	o, envErr := defaultOptions()
	cmd := &cobra.Command{
		Use:   "+run [flags] [-- agent arguments]",
		Short: "run the agent with explicit supervisor options (plain `superclaude ARGS` reads them from SUPERCLAUDE_*)",
		RunE: func(c *cobra.Command, args []string) error {
			if envErr != nil {
				return envErr
			}
			return exitCode(supervised(o, args))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.agent, "agent", o.agent, "agent executable (default: the profile's, from $PATH; $"+envvar.Agent+")")
	f.StringVar(&o.profile, "profile", o.profile, "agent profile: "+supervise.ProfileNames()+" ($"+envvar.Profile+")")
	f.DurationVar(&o.grace, "grace", o.grace, "time between SIGTERM and SIGKILL when the agent is killed ($"+envvar.Grace+")")
	f.Float64Var(&o.maxCrashes, "max-crashes", o.maxCrashes, "crashes within the crash window before superclaude gives up ($"+envvar.MaxCrashes+")")
	f.DurationVar(&o.crashDecay, "crash-window", o.crashDecay, "half-life of the crash count ($"+envvar.CrashWindow+")")
	f.DurationVar(&o.crashDelay, "crash-delay", o.crashDelay, "pause before restarting a crashed agent ($"+envvar.CrashDelay+")")
	f.BoolVar(&o.limitContinue, "limit-continue", o.limitContinue, "go on by itself once a usage or rate limit resets ($"+envvar.LimitContinue+"=0 turns it off)")
	f.StringVar(&o.resumePolicy, "resume-policy", o.resumePolicy, "what a start does with its pane's previous conversation: auto, ask or never (default: ask; auto in a fleet pane) ($"+envvar.ResumePolicy+")")
	f.IntVar(&o.maxRestarts, "max-restarts", o.maxRestarts, "restarts of any kind within the restart window before superclaude stops and halts the session; 0 no limit ($"+envvar.MaxRestarts+")")
	f.DurationVar(&o.restartWindow, "restart-window", o.restartWindow, "the window of --max-restarts ($"+envvar.RestartWindow+")")
	f.DurationVar(&o.dehydrateWait, "dehydrate-wait", o.dehydrateWait, "how long an overflowed agent may leave dehydrating undone before superclaude does it for it; 0 never ($"+envvar.DehydrateWait+")")
	return cmd
}

// scanInstalledClaude reads a claude command line knowing, beyond the
// subcommands superclaude knows, what the installed claude (command) says
// it has: asked once per claude version (claude.Subcommands, cached in the
// state directory), and only for a one-word first operand.
func scanInstalledClaude(command string) func([]string) supervise.Invocation {
	return func(args []string) supervise.Invocation {
		return supervise.ScanClaudeArgsWith(args, func(word string) bool {
			path, err := agentPath(command)
			if err != nil {
				return false
			}
			dir, err := config.StateDir()
			if err != nil {
				return false
			}
			cmds, err := claude.Subcommands(path, dir)
			return err == nil && slices.Contains(cmds, word)
		})
	}
}

func firstNonEmpty(xs ...string) string {
	for _, x := range xs {
		if x != "" {
			return x
		}
	}
	return ""
}

// policyOf is the restart policy the options ask for.
func policyOf(o runOptions) supervise.Policy {
	p := supervise.DefaultPolicy
	p.DehydrateWait = o.dehydrateWait
	p.LimitContinue = o.limitContinue
	p.MaxRestarts, p.RestartWindow = o.maxRestarts, o.restartWindow
	return p
}

// singleProc runs the supervisor's Go code on one processor, unless
// $GOMAXPROCS says otherwise. The supervisor only waits and copies; with
// more processors the Go scheduler keeps spare threads spinning for work
// that rarely comes, and on a small machine that CPU is taken from the
// agent: on 2 cores, pty throughput through superclaude rose from about
// 0.7 to about 0.85 of a direct run (docs/benchmarks.md).
func singleProc() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}

// supervised runs the agent under the supervision tree and returns
// superclaude's exit code. The terminal is restored on every path out:
// Run restores it when it returns, a panic in a guarded goroutine restores
// it through guard, and a panic here does below.
func supervised(o runOptions, args []string) (code int) {
	if code, done := oneShot(o, args); done {
		return code
	}
	// From here a stop is kept for the supervisor, which honours it before
	// the agent starts, instead of killing superclaude mid-preparation.
	supervise.CatchSignals()
	// After the one-shot decision: changing GOMAXPROCS stops the world,
	// about 0.3 ms, which a one-shot run would pay for nothing.
	singleProc()
	term := child.NewTerminal(os.Stdin, os.Stdout)
	defer func() {
		if r := recover(); r != nil {
			guard.Cleanup()
			term.Restore()
			fmt.Fprintf(os.Stderr, "superclaude: panic: %v\n", r)
			code = 2
		}
	}()
	profile, ok := supervise.Profiles[o.profile]
	if !ok {
		fmt.Fprintf(os.Stderr, "superclaude: unknown profile %q (have %s)\n", o.profile, supervise.ProfileNames())
		return 2
	}
	if profile.Command == "" && o.agent == "" {
		fmt.Fprintf(os.Stderr, "superclaude: the %s profile needs the agent's command (--agent or $%s)\n", profile.Name, envvar.Agent)
		return 2
	}
	if profile.Name == supervise.Claude.Name {
		profile.Scan = scanInstalledClaude(firstNonEmpty(o.agent, profile.Command))
	}
	// Started by its path, found once, before anything else starts: the
	// lookup passes over superclaude installed as the agent (agentPath).
	command := firstNonEmpty(o.agent, profile.Command)
	path, err := agentPath(command)
	if err != nil {
		return cannotStart(command, err)
	}
	o.agent = path
	// Before the environment is copied for the agent (injectClaude,
	// supervise.Run): a copy of superclaude found as the agent steps aside.
	os.Setenv(envvar.AgentFile, path)
	log, closeLog := openLog()
	defer closeLog()
	policy := o.resumePolicy
	if policy == "" {
		// A fleet's panes resume without asking (S3).
		policy = supervise.ResumeAsk
		if os.Getenv(envvar.Fleet) != "" {
			policy = supervise.ResumeAuto
		}
	}
	if err := supervise.CheckResumePolicy(policy); err != nil {
		fmt.Fprintln(os.Stderr, "superclaude:", err)
		return 2
	}
	cfg := supervise.Config{
		Profile:          profile,
		Command:          o.agent,
		Args:             args,
		Terminal:         term,
		Grace:            o.grace,
		FailureThreshold: o.maxCrashes,
		FailureDecay:     o.crashDecay,
		FailureBackoff:   o.crashDecay,
		CrashDelay:       o.crashDelay,
		Policy:           policyOf(o),
		ResumePolicy:     policy,
		Ask:              terminalAsk(os.Stdin, os.Stdout),
		Log:              log,
	}
	// A drop-in for the agent: a typed run that fails as it starts (an
	// option it does not know, no network) ends as the plain agent's
	// would, once.
	cfg.Policy.StartupFailWindow = 5 * time.Second
	if profile.Name == supervise.Claude.Name {
		// Its exit hint names superclaude as the person started it.
		cfg.Profile.Output = claude.RewriteResumeHintAs(hintCommand(os.Args[0]))
	}
	if !profile.Scan(args).OneShot {
		// Sessions only for interactive runs: `superclaude --version` must
		// not leave a sessions directory behind.
		if _, why, _ := config.SessionsDirWhy(); why != "" {
			fmt.Fprintf(os.Stderr, "superclaude: not using ./sessions: %s; using your own sessions directory\n", termtext.Clean(why))
			log.Warn("./sessions passed over", "why", why)
		}
		if store, err := openStore("supervisor"); err == nil {
			store.Report = func(err error) { log.Warn("session store", "err", err) }
			cfg.Store = store
		} else {
			log.Warn("sessions directory unusable; running without sessions", "err", err)
		}
		pane, err := config.PaneID(context.Background())
		if err != nil {
			log.Warn("pane identity", "err", err)
		}
		cfg.Pane = pane
	}
	if server, pane, ok := tmux.Here(); ok {
		// A pane whose agent waits for the user says so on its border (a
		// fleet's panes show it; tmux.BorderFormat).
		cfg.OnStatus = func(status string) {
			text := ""
			if status == supervise.StatusWaiting {
				text = "needs input"
			}
			if err := server.MarkPane(pane, text); err != nil {
				log.Warn("marking the tmux pane", "err", err)
			}
		}
	}
	if attend, wait := notifier(term, cfg.Store, log); attend != nil {
		cfg.OnAttention = attend
		defer wait()
	}
	if !profile.Scan(args).OneShot && profile.ContextUsage == supervise.ContextStatusLine {
		cleanup := injectClaude(&cfg, log)
		defer cleanup()
	}
	res := supervise.Run(context.Background(), cfg)
	term.Restore()
	if term.FoundRaw() {
		log.Info("the terminal was raw at start; restored to a sane mode")
		fmt.Fprintln(os.Stderr, "superclaude: the terminal was in raw mode when superclaude started (left so by a"+
			" program that was killed, such as a superclaude killed with SIGKILL); it is back in normal mode now.")
	}
	if res.Message != "" {
		fmt.Fprintf(os.Stderr, "%s\nsuperclaude: log: %s\n", res.Message, logPath())
	}
	return res.ExitCode
}

// injectClaude points claude's status line and hooks at this binary and
// ships the /superclaude:session command, through a --settings file and a
// plugin directory written for this run (see claude.Prepare), and installs
// the status-line binder. It returns the cleanup of those files.
func injectClaude(cfg *supervise.Config, log *slog.Logger) func() {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	rt, rerr := control.RuntimeDir()
	if err != nil || rerr != nil {
		log.Warn("not injecting settings", "err", errors.Join(err, rerr))
		return func() {}
	}
	dir := launchDir(rt, os.Getpid())
	cwd, _ := os.Getwd()
	l, err := claude.Prepare(dir, exe, cfg.Args, cwd, claude.ConfigDir())
	if err != nil {
		// The terminal is not the agent's yet: say it now.
		fmt.Fprintf(os.Stderr, "superclaude: %v; starting claude without superclaude's status line and hooks\n", err)
		log.Warn("not injecting settings", "err", err)
		return func() { os.RemoveAll(dir) }
	}
	for _, why := range l.Skipped {
		// Said before the agent owns the terminal, as claude says it.
		fmt.Fprintf(os.Stderr, "superclaude: not reading %s\n", termtext.Clean(why))
		log.Warn("settings file skipped", "why", why)
	}
	cfg.Args = l.Args
	cfg.Env = append(os.Environ(), envvar.UserStatusLine+"="+l.UserStatusLine)
	return func() { os.RemoveAll(dir) }
}

// launchDir is where the supervisor pid writes claude's settings and
// plugin for its run, under the runtime directory rt.
func launchDir(rt string, pid int) string {
	return filepath.Join(rt, strconv.Itoa(pid)+".launch")
}

// logPath is the supervisor's log file.
func logPath() string {
	dir, err := config.StateDir()
	if err != nil {
		return "(none)"
	}
	return logfile.DefaultPath(dir)
}

// openLog opens the log file under the state directory (internal/logfile:
// safely, rotated). Logs never go to the terminal, which the agent owns.
func openLog() (*slog.Logger, func()) {
	dir, err := config.StateDir()
	var f *logfile.File
	if err == nil {
		f, err = logfile.Open(dir)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "superclaude: no log file:", termtext.Clean(err.Error()))
		return slog.New(slog.DiscardHandler), func() {}
	}
	log := slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo})).With("supervisor", os.Getpid())
	return log, func() { f.Close() }
}

// hintCommand is how claude's exit hint (`… --resume <id>`) names
// superclaude: as the person started it — `superclaude` from PATH,
// `./bin/superclaude`, or `claude` when superclaude is installed under that
// name — so that the hint runs in the shell it is printed in. A name that
// would need quoting in a shell is printed as plain `superclaude`.
func hintCommand(argv0 string) string {
	if argv0 == "" || strings.HasPrefix(argv0, "-") {
		return "superclaude"
	}
	for _, r := range argv0 {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._/-+", r)) {
			return "superclaude"
		}
	}
	return argv0
}
