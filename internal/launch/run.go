package launch

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

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/claudeargs"
	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/guard"
	"github.com/superclaude/superclaude/internal/logfile"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/supervise"
)

// StartupFailWindow is how long a typed run's first agent must live not to
// count as failing as it starts: a drop-in for the agent, a run that fails
// so (an option it does not know, no network) ends as the plain agent's
// would, once. A new session's events wait for it to pass, unless the
// agent shows sooner that it started.
const StartupFailWindow = 5 * time.Second

// Options are the supervisor's knobs: from the environment for a plain
// `superclaude ARGS` (FromEnv), from flags for `superclaude +run`.
type Options struct {
	// Agent is the agent's command ("": the profile's); Profile names the
	// agent profile (supervise.Profiles).
	Agent   string
	Profile string
	// Grace is the time between SIGTERM and SIGKILL when the agent is
	// killed.
	Grace time.Duration
	// MaxCrashes crashes within the crash window, whose count halves every
	// CrashDecay, stop superclaude; CrashDelay is the pause before a crash
	// restart.
	MaxCrashes float64
	CrashDecay time.Duration
	CrashDelay time.Duration
	// DehydrateWait is the supervisor's patience with an overflowed agent
	// that does not dehydrate.
	DehydrateWait time.Duration
	// ResumePolicy is what a start does with its pane's previous
	// conversation: auto, ask or never ("" for the default).
	ResumePolicy string
	// LimitContinue goes on by itself after a usage or rate limit resets.
	LimitContinue bool
	// MaxRestarts and RestartWindow are the restart-rate breaker.
	MaxRestarts   int
	RestartWindow time.Duration
}

// optResume is superclaude's one option on claude's command line (claude
// has none of the name); it is taken out before claude runs. A plain
// `superclaude ARGS`, whose flags all belong to the agent, takes its own
// options from the environment (internal/envvar).
const optResume = "--resume-policy"

// ProfileNames lists the agent profiles a run can be given (--profile).
func ProfileNames() string { return supervise.ProfileNames() }

// FromEnv reads the options from the environment (internal/envvar names
// each variable), with the defaults for what is not set. A value that does
// not parse is an error that names its variable: refused at the start,
// rather than ignored by a hook later.
func FromEnv() (Options, error) {
	o := Options{Grace: 2 * time.Second, MaxCrashes: 5, CrashDecay: 30 * time.Second, CrashDelay: time.Second,
		DehydrateWait: supervise.DefaultPolicy.DehydrateWait,
		MaxRestarts:   supervise.DefaultPolicy.MaxRestarts, RestartWindow: supervise.DefaultPolicy.RestartWindow}
	o.Agent = os.Getenv(envvar.Agent)
	o.Profile = os.Getenv(envvar.Profile)
	o.ResumePolicy = os.Getenv(envvar.ResumePolicy)
	if o.ResumePolicy != "" && !validResumePolicy(o.ResumePolicy) {
		return o, fmt.Errorf("%s=%q: want %s", envvar.ResumePolicy, o.ResumePolicy, resumePolicies)
	}
	if _, ok := supervise.Profiles[o.Profile]; o.Profile != "" && !ok {
		return o, fmt.Errorf("%s=%q: want one of %s", envvar.Profile, o.Profile, supervise.ProfileNames())
	}
	o.LimitContinue = true
	if v := os.Getenv(envvar.LimitContinue); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return o, fmt.Errorf("%s=%q: want 1 or 0", envvar.LimitContinue, v)
		}
		o.LimitContinue = b
	}
	if o.Profile == "" {
		o.Profile = supervise.Claude.Name
	}
	for _, d := range []struct {
		env string
		dst *time.Duration
	}{{envvar.Grace, &o.Grace}, {envvar.CrashWindow, &o.CrashDecay}, {envvar.CrashDelay, &o.CrashDelay}, {envvar.DehydrateWait, &o.DehydrateWait},
		{envvar.RestartWindow, &o.RestartWindow}} {
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
		o.MaxCrashes = n
	}
	if v := os.Getenv(envvar.MaxRestarts); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return o, fmt.Errorf("%s=%q: want a whole number ≥ 0 (0 turns the restart-rate limit off)", envvar.MaxRestarts, v)
		}
		o.MaxRestarts = n
	}
	return o, nil
}

// Command is `superclaude ARGS`: claude ARGS under supervision.
func Command(args []string) int {
	o, err := FromEnv()
	if err == nil {
		var policy string
		var values []bool
		if o.Profile == supervise.Claude.Name {
			values = claudeargs.Values(args)
		}
		if policy, args, err = cutOption(args, optResume, values); err == nil && policy != "" {
			o.ResumePolicy = policy
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "superclaude:", err)
		return 2
	}
	return Run(o, args)
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
func policyOf(o Options) supervise.Policy {
	p := supervise.DefaultPolicy
	p.DehydrateWait = o.DehydrateWait
	p.LimitContinue = o.LimitContinue
	p.MaxRestarts, p.RestartWindow = o.MaxRestarts, o.RestartWindow
	return p
}

// SingleProc runs the supervisor's Go code on one processor, unless
// $GOMAXPROCS says otherwise. The supervisor only waits and copies; with
// more processors the Go scheduler keeps spare threads spinning for work
// that rarely comes, and on a small machine that CPU is taken from the
// agent: on 2 cores, pty throughput through superclaude rose from about
// 0.7 to about 0.85 of a direct run (docs/benchmarks.md).
func SingleProc() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}

// Run runs the agent under the supervision tree and returns
// superclaude's exit code. The terminal is restored on every path out:
// Run restores it when it returns, a panic in a guarded goroutine restores
// it through guard, and a panic here does below.
func Run(o Options, args []string) (code int) {
	if err := o.Check(); err != nil {
		fmt.Fprintln(os.Stderr, "superclaude:", err)
		return 2
	}
	if code, done := oneShot(o, args); done {
		return code
	}
	// From here a stop is kept for the supervisor, which honours it before
	// the agent starts, instead of killing superclaude mid-preparation.
	supervise.CatchSignals()
	// After the one-shot decision: changing GOMAXPROCS stops the world,
	// about 0.3 ms, which a one-shot run would pay for nothing.
	SingleProc()
	term := child.NewTerminal(os.Stdin, os.Stdout)
	defer func() {
		if r := recover(); r != nil {
			guard.Cleanup()
			term.Restore()
			fmt.Fprintf(os.Stderr, "superclaude: panic: %v\n", r)
			code = 2
		}
	}()
	profile, ok := supervise.Profiles[o.Profile]
	if !ok {
		fmt.Fprintf(os.Stderr, "superclaude: unknown profile %q (have %s)\n", o.Profile, supervise.ProfileNames())
		return 2
	}
	if profile.Command == "" && o.Agent == "" {
		fmt.Fprintf(os.Stderr, "superclaude: the %s profile needs the agent's command (--agent or $%s)\n", profile.Name, envvar.Agent)
		return 2
	}
	if profile.Name == supervise.Claude.Name {
		profile.Scan = scanInstalledClaude(firstNonEmpty(o.Agent, profile.Command))
	}
	// Started by its path, found once, before anything else starts: the
	// lookup passes over superclaude installed as the agent (agentPath).
	command := firstNonEmpty(o.Agent, profile.Command)
	path, err := agentPath(command)
	if err != nil {
		return cannotStart(command, err)
	}
	o.Agent = path
	// Before the environment is copied for the agent (injectClaude,
	// supervise.Run): a copy of superclaude found as the agent steps aside.
	os.Setenv(envvar.AgentFile, path)
	log, closeLog := logfile.Logger()
	defer closeLog()
	policy := o.ResumePolicy
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
		Command:          o.Agent,
		Args:             args,
		Terminal:         term,
		Grace:            o.Grace,
		FailureThreshold: o.MaxCrashes,
		FailureDecay:     o.CrashDecay,
		FailureBackoff:   o.CrashDecay,
		CrashDelay:       o.CrashDelay,
		Policy:           policyOf(o),
		ResumePolicy:     policy,
		Ask:              terminalAsk(os.Stdin, os.Stdout, term.Hold),
		Log:              log,
		Spare:            fleetServers,
	}
	cfg.Policy.StartupFailWindow = StartupFailWindow
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
		if store, err := sessions.OpenStore("supervisor"); err == nil {
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
	notifyCfg, problem := notifyConfig(log)
	seen := true
	if problem != "" {
		var start bool
		seen, start = sayConfigProblem(os.Stdin, os.Stderr, problem, profile.Name, os.Getenv(envvar.Fleet) != "")
		if !start {
			return 130
		}
	}
	if attend, wait := notifier(notifyCfg, term, cfg.Store, log); attend != nil {
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
		fmt.Fprintf(os.Stderr, "%s\nsuperclaude: log: %s\n", res.Message, logfile.Where())
	}
	if !seen {
		// Said at the start, but the agent took the terminal before
		// anyone pressed a key (claude clears the screen as it starts).
		cli.Say(os.Stderr, "remember: "+problem+"; notifications used the defaults")
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
	dir := claude.LaunchDir(rt, os.Getpid())
	cwd, _ := os.Getwd()
	// The control socket is made here, before the supervisor runs, so
	// that claude's settings can name it with the rest (pinnedEnv).
	var pin map[string]string
	ln, sock, _, lerr := control.ListenPID(os.Getpid())
	for _, why := range control.SteppedAside() {
		log.Warn("a runtime directory was passed over", "why", why)
	}
	self, serr := proc.Self()
	if lerr == nil && serr == nil {
		cfg.Listener, cfg.Socket = ln, sock
		pin = pinnedEnv(*cfg, self, sock)
	} else if lerr == nil {
		ln.Close()
	}
	l, err := claude.Prepare(dir, exe, cfg.Args, cwd, claude.ConfigDir(), pin)
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
