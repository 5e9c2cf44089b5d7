package launch

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/handover"
	"github.com/superclaude/superclaude/internal/logfile"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/supervise"
	"github.com/superclaude/superclaude/watchdog"
)

// One-shot runs (issue 12): `superclaude --version`, `-p …`, `mcp list` —
// what the profile's scanner marks OneShot — are never restarted, so the
// supervision tree, the control socket, the session store and the pty
// would cost their start (about 5.8 ms over the agent's own) for nothing.
//
//   - A run that only prints (`--version`, `--help`: PrintsOnly) runs no
//     tools and can leave nothing behind: superclaude hands its process
//     over to the agent (exec). Exit code, signals, terminal and process
//     group are then the agent's own, not copies. The one exception is a
//     bare `--help`, which gets superclaude's footer after claude's help,
//     and so runs as a child. The plainest of these, `--version` alone,
//     is handed over even before main, by internal/handover, before most
//     packages have initialised; this path takes the rest.
//   - Any other one-shot run can leave processes behind (a Bash tool's
//     `setsid … &` survives `claude -p` as it survives claude), so the
//     sweep stays: superclaude becomes a subreaper, starts the agent as a
//     plain child on its own terminal (same process group: Ctrl-C and
//     Ctrl-Z reach it from the terminal exactly as they would reach
//     claude), waits, sweeps what the agent left, and ends as the agent
//     did — by the same signal (handover.DieBy). On Linux the commonest
//     of these, `-p` first, is run by internal/handover before main; the
//     sweep comes back here (FinishRun) only when something is left.
//
// oneShot reports done=false when args are not a one-shot run of a known
// profile; the supervision tree then takes them.
func oneShot(o Options, args []string) (code int, done bool) {
	plan, ok := planOneShot(o, args)
	if !ok {
		return 0, false
	}
	if plan.err != nil {
		return cannotStart(plan.command, plan.err), true
	}
	os.Setenv(envvar.AgentFile, plan.path)
	if plan.handOver {
		os.Setenv(envvar.AgentParent, envvar.AgentParentValue(os.Getppid(), args)) // exec: our parent is the agent's
		err := syscall.Exec(plan.path, append([]string{plan.path}, args...), os.Environ())
		return cannotStart(plan.command, &os.PathError{Op: "exec", Path: plan.path, Err: err}), true
	}
	code = runChild(plan.path, args, plan.sweep, o.Grace)
	if plan.footer {
		// claude's own help, then how to reach superclaude's.
		fmt.Fprintln(os.Stdout, "\nsuperclaude: every argument above goes to claude unchanged; superclaude's own\n"+
			"commands start with '+' (superclaude +session list, superclaude +status …).\n"+
			"See: superclaude +help")
	}
	return code, true
}

// oneShotPlan is what oneShot does with a one-shot run.
type oneShotPlan struct {
	command string // the agent's command, as configured
	path    string // and found
	err     error  // why it was not found
	// handOver: exec the agent (a run that only prints); otherwise run it
	// as a child, sweeping after it when sweep is set, and print
	// superclaude's footer after it when footer is set.
	handOver, sweep, footer bool
}

// planOneShot decides a one-shot run without doing anything; ok is false
// when args are not one.
func planOneShot(o Options, args []string) (plan oneShotPlan, ok bool) {
	profile, ok := supervise.Profiles[o.Profile]
	command := firstNonEmpty(o.Agent, profile.Command)
	if !ok || profile.Scan == nil || command == "" {
		return plan, false // Run says what is wrong
	}
	scan := profile.Scan
	if profile.Name == supervise.Claude.Name {
		scan = scanInstalledClaude(command) // as Run scans it
	}
	inv := scan(args)
	if !inv.OneShot {
		return plan, false
	}
	plan.command = command
	plan.path, plan.err = agentPath(command)
	plan.footer = isBareHelp(args)
	plan.handOver = inv.PrintsOnly && !plan.footer
	plan.sweep = !inv.PrintsOnly
	return plan, true
}

func isBareHelp(args []string) bool {
	return len(args) == 1 && (args[0] == "--help" || args[0] == "-h")
}

// runChild runs the agent as a child on our own terminal and returns its
// exit code; when sweep is set, what it left behind is ended after it.
// When the agent died by a signal, we die by it too where we can
// (handover.DieBy), so that our parent sees exactly the agent's status.
//
// It forks directly rather than through child.Start: no session leader or
// pty to set up, and none of os/exec's first-use costs (a probe fork for
// pidfd support, a starter thread) on a path whose start is timed.
func runChild(path string, args []string, sweep bool, grace time.Duration) int {
	env := os.Environ()
	self, selfErr := proc.Self()
	sweep = sweep && selfErr == nil
	var before func(pid int) bool
	if sweep {
		before = childrenBefore()
		// With children from before, no subreaper: what those leave
		// when they end would come to us and look like the agent's (a
		// hostile tester's find). The agent's leftovers then go to init
		// and the marker finds them, as on macOS.
		if proc.SubreaperSupported && before == nil {
			proc.BecomeSubreaper()
		}
		// The marker finds what leaves our tree (macOS, double forks).
		env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, envvar.Supervisor+"=") })
		env = append(env, envvar.Supervisor+"="+self.String())
	}
	// The terminal sends SIGINT and SIGQUIT to the agent as to us: we
	// wait for it to decide. SIGTERM and SIGHUP sent to us alone are
	// passed on while it runs, and not heeded during the sweep after it,
	// which must finish (it is bounded by the grace).
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM, syscall.SIGHUP)
	// The agent's parent-death signal follows the thread that forks it
	// (golang/go#27505): this goroutine keeps its thread until we exit.
	runtime.LockOSThread()
	attr := &syscall.SysProcAttr{}
	child.SetDeathSignal(attr, syscall.SIGHUP)
	env = append(slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, envvar.AgentParent+"=") }),
		envvar.AgentParent+"="+envvar.AgentParentValue(os.Getpid(), args)+envvar.Adopts)
	pid, err := syscall.ForkExec(path, append([]string{path}, args...), &syscall.ProcAttr{
		Env: env, Files: []uintptr{0, 1, 2}, Sys: attr,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "superclaude: cannot start %s: %v\n", path, err)
		return child.StartFailure(err).Code
	}
	reaped := handover.PassOn(pid, sigs)
	ws := handover.WaitAgent(pid)
	reaped()
	if sweep && handover.MayHaveLeftovers() {
		sweepAfter(self.String(), grace, args, "by main", before)
	}
	signal.Stop(sigs)
	return handover.ExitCode(ws)
}

// childrenBefore returns whether a PID is one of our children from before
// the agent started, nil when there is none (the common case, one
// system call). A shell script's `job & exec superclaude -p …` makes the
// job our child; it is the script's, not the agent's, and the sweep must
// leave it alone.
func childrenBefore() func(pid int) bool {
	if !handover.HasChildren() {
		return nil
	}
	snap, err := proc.List()
	if err != nil {
		return nil
	}
	self := os.Getpid()
	ours := map[int]bool{}
	for _, p := range snap {
		if p.PPID == self {
			ours[p.PID] = true
		}
	}
	return func(pid int) bool { return ours[pid] }
}

// FinishRun finishes a print-mode run internal/handover ran before main:
// the agent has exited and left something that may still run. It sweeps,
// as runChild would have, and returns the exit code.
func FinishRun(r *handover.Run) int {
	// The hand-over takes no run with a SUPERCLAUDE_* option set, so
	// these are the defaults.
	o, _ := FromEnv()
	// The hand-over starts no agent beside children of ours from before
	// (HasChildren), so there is nothing to spare.
	sweepAfter(r.Marker, o.Grace, r.Args, "before main", nil)
	return handover.ExitCode(r.Status)
}

// sweepPasses bounds how many times sweepAfter sweeps: a leftover that
// forks while it is being ended (a child of a process that ignores
// SIGTERM for the grace) is found by the next pass, once its parent has
// died and it has come to us as subreaper. Each pass ends all it found.
const sweepPasses = 5

// sweepAfter ends what a one-shot agent started with marker in its
// environment left behind, sparing our children from before it (keep;
// nil: none), and logs what it found and who started the agent
// (internal/handover "before main", or main).
func sweepAfter(marker string, grace time.Duration, args []string, started string, keep func(pid int) bool) {
	wd := watchdog.New(grace, envvar.Supervisor, marker, nil)
	wd.Spare = fleetServers
	var total watchdog.SweepResult
	for pass := 0; pass < sweepPasses; pass++ {
		res := wd.Sweep(context.Background(), keep)
		if res.Found == 0 {
			break
		}
		total.Found += res.Found
		total.Killed += res.Killed
	}
	if total.Found > 0 {
		log, closeLog := logfile.Logger()
		log.Info("one-shot run: swept what the agent left", "found", total.Found, "killed", total.Killed, "args", args, "started", started)
		closeLog()
	}
}
