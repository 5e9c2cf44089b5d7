package handover

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/superclaude/superclaude/internal/envvar"
)

// runPrint runs a print-mode agent (`claude -p …`) as superclaude's one-shot
// path in cmd/superclaude does, from this package's init: as our child, as
// a child subreaper so that whatever its tools leave behind stays ours, with
// the marker the sweep looks for in its environment, and with the
// terminal's SIGINT and SIGQUIT left for the agent to decide on while
// SIGTERM and SIGHUP sent to us alone are passed on. When the agent has
// left nothing (MayHaveLeftovers) it exits with the agent's status, and the
// rest of the program never initialises: that is the saving, about half a
// millisecond a run (docs/benchmarks.md, "One-shot runs"). When something
// is left, it records the run for main (Ran), which sweeps and exits.
// Anything that fails before the agent starts returns with nothing
// recorded, and main runs the agent itself and reports.
func runPrint(file string, args, env []string) {
	if HasChildren() {
		return // main spares them (cmd/superclaude childrenBefore)
	}
	marker, ok := selfMarker()
	if !ok {
		return
	}
	// Before the fork: a leftover orphaned from then on is reparented to
	// us, not to init, where the sweep could not see it.
	syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	env = setEnv(setEnv(env, envvar.Supervisor, marker), envvar.AgentParent, envvar.AgentParentValue(os.Getpid(), args)+envvar.Adopts)
	// The agent's parent-death signal follows the thread that forks it
	// (golang/go#27505); package initialisers run on the main thread,
	// locked to it, and that thread lives until we exit.
	pid, err := syscall.ForkExec(file, append([]string{file}, args...), &syscall.ProcAttr{
		Env: env, Files: []uintptr{0, 1, 2}, Sys: &syscall.SysProcAttr{Pdeathsig: syscall.SIGHUP},
	})
	if err != nil {
		return
	}
	// Only now, with the agent started (ForkExec returns once it has
	// exec'd): an ignored signal stays ignored across exec, and the
	// agent must get the terminal's Ctrl-C. SIGINT and SIGQUIT are
	// ignored with rt_sigaction (DieBy sets them back when the agent died
	// by one); os/signal's Notify costs about a third of a millisecond (a
	// thread of the runtime's, a hand-off per signal), which the two it
	// is needed for pay here while the agent starts instead of before.
	// Until then, a SIGTERM or SIGHUP ends us as Go's default does, and
	// the agent gets its parent-death SIGHUP.
	setDisposition(syscall.SIGINT, sigIgnore)
	setDisposition(syscall.SIGQUIT, sigIgnore)
	// They stay caught until we exit: during main's sweep they are not
	// heeded (the sweep must finish; it is bounded by the grace).
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP)
	reaped := PassOn(pid, sigs)
	ws := WaitAgent(pid)
	reaped()
	if MayHaveLeftovers() {
		ran = &Run{Status: ws, Marker: marker, Args: args}
		return
	}
	os.Exit(ExitCode(ws))
}

// prSetChildSubreaper is PR_SET_CHILD_SUBREAPER (linux/prctl.h).
const prSetChildSubreaper = 36

// selfMarker is this process's identity as package proc renders it
// (Identity.String: "pid:start:boot", start being field 22 of
// /proc/self/stat), the value the sweep finds leftovers by.
func selfMarker() (string, bool) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return "", false
	}
	start, ok := statField(b, 22)
	if !ok || atoi(start) < 0 {
		return "", false
	}
	boot, _ := os.ReadFile("/proc/sys/kernel/random/boot_id")
	return itoa(os.Getpid()) + ":" + start + ":" + trimSpace(string(boot)), true
}

// statField returns field n (counting from 1, n > 2) of a /proc/PID/stat
// line. The command name, field 2, is in
// parentheses and may hold spaces and parentheses itself, so fields are
// counted from after the last ')'.
func statField(b []byte, n int) (string, bool) {
	end := len(b) - 1
	for end >= 0 && b[end] != ')' {
		end--
	}
	if end < 0 {
		return "", false
	}
	field := 2
	for i := end + 1; i < len(b); {
		for i < len(b) && b[i] == ' ' {
			i++
		}
		j := i
		for j < len(b) && b[j] != ' ' && b[j] != '\n' {
			j++
		}
		if j == i {
			return "", false
		}
		if field++; field == n {
			return string(b[i:j]), true
		}
		i = j
	}
	return "", false
}

// trimSpace trims ASCII white space at both ends of s.
func trimSpace(s string) string {
	isSpace := func(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}
