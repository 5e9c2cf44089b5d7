// Package fakeagent is an agent CLI for tests: test binaries re-execute
// themselves as it (see Roles) and superclaude supervises it in place of
// Claude Code. It behaves as Claude Code does where superclaude depends on
// it — exit 143 on SIGTERM, 129 on SIGHUP, 0 on SIGINT, a controlling
// terminal, a stop on Ctrl-Z — and does what the test asks through
// environment variables and lines typed on its terminal. Every start and
// exit is appended to a JSON log the test reads.
//
// A test binary plays it through testkit/reexec: its TestMain passes Roles
// to reexec.Main, and Env starts it in the role.
package fakeagent

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"golang.org/x/term"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/testkit/reexec"
)

// Environment variables the fake agent reads.
const (
	// EnvLog is the JSON-lines file every start, exit and grandchild is
	// recorded in.
	EnvLog = "FAKE_AGENT_LOG"
	// EnvIgnoreTerm makes the agent ignore SIGTERM.
	EnvIgnoreTerm = "FAKE_AGENT_IGNORE_TERM"
	// EnvGrandchild makes the agent start a grandchild in a new session
	// that sleeps, as a Bash tool's `setsid … &` does.
	EnvGrandchild = "FAKE_AGENT_GRANDCHILD"
	// EnvExit makes the agent exit at once: "N" with code N, "signal:N"
	// by signal N.
	EnvExit = "FAKE_AGENT_EXIT"
	// EnvSuperclaude is the superclaude binary the agent runs for the
	// "restart", "bind" and "overflow" commands, as a Bash tool would.
	EnvSuperclaude = "FAKE_AGENT_SUPERCLAUDE"
	// EnvFlood makes the agent print this many bytes at start.
	EnvFlood = "FAKE_AGENT_FLOOD"
	// EnvBind makes the agent bind this conversation id to its session at
	// start, as Claude Code's first status line would.
	EnvBind = "FAKE_AGENT_BIND"
	// EnvStatusLine makes the agent run superclaude's status line at
	// start, as Claude Code does ("ID" or "ID PCT": the conversation id,
	// and how full the context is), until it binds a session: the
	// supervisor then knows the conversation, as with the real claude.
	EnvStatusLine = "FAKE_AGENT_STATUSLINE"
	// EnvAtStart holds commands, separated by ";", that the agent runs
	// at start as if they were typed on its terminal ("activate X
	// implement;restart": an agent that asks for a restart as soon as it
	// runs).
	EnvAtStart = "FAKE_AGENT_AT_START"
)

// LeftOnModes is what the "modes" command prints: the alternate screen, a
// hidden cursor, every mouse mode, focus reports, bracketed paste, a kitty
// keyboard push, modifyOtherKeys, the application keypad and cursor keys.
const LeftOnModes = "\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1002h\x1b[?1003h\x1b[?1006h\x1b[?1004h\x1b[?2004h" +
	"\x1b[>1u\x1b[>4;2m\x1b=\x1b[?1h"

// Record is one line of the fake agent's log.
type Record struct {
	Event string            `json:"event"` // start, exit, grandchild, key
	PID   int               `json:"pid"`
	Start uint64            `json:"start,omitempty"`
	Args  []string          `json:"args,omitempty"`
	Env   map[string]string `json:"env,omitempty"`
	Dir   string            `json:"dir,omitempty"` // the working directory at start
	Code  int               `json:"code,omitempty"`
	Text  string            `json:"text,omitempty"`
	Time  time.Time         `json:"time"`
}

// The roles of the fake agent (reexec.Roles): the agent itself, and the
// detached grandchild it starts when asked (EnvGrandchild).
const (
	Role           = "fakeagent"
	roleGrandchild = "fakeagent-grandchild"
)

// Roles are the fake agent's roles, for reexec.Main.
func Roles() reexec.Roles {
	return reexec.Roles{
		Role:           func(string) { Main() },
		roleGrandchild: func(string) { time.Sleep(time.Hour) },
	}
}

// Env returns the environment entries that make a test binary a fake agent
// logging to logFile.
func Env(logFile string) []string {
	return []string{reexec.Env(Role, ""), EnvLog + "=" + logFile}
}

var logMu sync.Mutex

func record(r Record) {
	path := os.Getenv(EnvLog)
	if path == "" {
		return
	}
	r.Time = time.Now()
	b, _ := json.Marshal(r)
	logMu.Lock()
	defer logMu.Unlock()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return
	}
	f.Write(append(b, '\n'))
	f.Close()
}

// ReadLog reads a fake agent log; with events given, only those kinds of
// record. A missing log reads as empty.
func ReadLog(path string, events ...string) []Record {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var out []Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 4<<20)
	for sc.Scan() {
		var r Record
		if json.Unmarshal(sc.Bytes(), &r) != nil {
			continue
		}
		if len(events) == 0 || slices.Contains(events, r.Event) {
			out = append(out, r)
		}
	}
	return out
}

// Main runs the fake agent and exits.
func Main() {
	args := os.Args[1:]
	if len(args) > 0 && strings.HasPrefix(args[0], "-test.") {
		args = args[1:]
	}
	env := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "SUPERCLAUDE_") || strings.HasPrefix(k, "CLAUDE_") {
			env[k] = v
		}
	}
	me, _ := proc.Self()
	wd, _ := os.Getwd()
	record(Record{Event: "start", PID: me.PID, Start: me.Start, Args: args, Env: env, Dir: wd})

	exit := func(code int) {
		record(Record{Event: "exit", PID: me.PID, Code: code})
		restoreModes()
		os.Exit(code)
	}
	if v := os.Getenv(EnvExit); v != "" {
		if n, ok := strings.CutPrefix(v, "signal:"); ok {
			sig, _ := strconv.Atoi(n)
			signal.Reset()
			syscall.Kill(os.Getpid(), syscall.Signal(sig))
			time.Sleep(time.Hour)
		}
		code, _ := strconv.Atoi(v)
		exit(code)
	}

	sigs := make(chan os.Signal, 4)
	// SIGTSTP is left alone: Ctrl-Z on its terminal (signals kept on: keysMode) stops it, as
	// it stops any program; SIGCONT is reported, as a redraw would be.
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGWINCH, syscall.SIGCONT)
	ignoreTerm := os.Getenv(EnvIgnoreTerm) != ""
	go func() {
		for sig := range sigs {
			switch sig {
			case syscall.SIGTERM:
				if !ignoreTerm {
					exit(143)
				}
				fmt.Print("IGNORING SIGTERM\r\n")
			case syscall.SIGHUP:
				exit(129)
			case syscall.SIGINT:
				exit(0)
			case syscall.SIGCONT:
				fmt.Print("FAKE-AGENT CONTINUED\r\n")
			case syscall.SIGWINCH:
				if ws, err := pty.GetsizeFull(os.Stdin); err == nil {
					fmt.Printf("SIZE %dx%d\r\n", ws.Rows, ws.Cols)
				}
			}
		}
	}()

	if os.Getenv(EnvGrandchild) != "" {
		gc := reexec.Command(roleGrandchild, "", nil)
		gc.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		if err := gc.Start(); err == nil {
			id, _ := proc.Of(gc.Process.Pid)
			record(Record{Event: "grandchild", PID: id.PID, Start: id.Start})
		}
	}
	if n, _ := strconv.Atoi(os.Getenv(EnvFlood)); n > 0 {
		w := bufio.NewWriter(os.Stdout)
		for i := 0; i < n; i += 80 {
			w.WriteString(strings.Repeat("y", 78) + "\r\n")
		}
		w.Flush()
	}
	if id := os.Getenv(EnvBind); id != "" {
		// Claude's status line ticks again and again, and the supervisor
		// makes its own session only once the agent has started: a first
		// tick can come before it. Tick again until one binds.
		for deadline := time.Now().Add(20 * time.Second); !statusLine(id) && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if v := os.Getenv(EnvStatusLine); v != "" {
		for deadline := time.Now().Add(20 * time.Second); !statusLine(v) && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
		}
	}
	raw := false
	if term.IsTerminal(0) {
		// Claude Code says it is at its prompt as it starts, and reads
		// keys raw before it draws.
		writeStatus("idle")
		raw = keysMode(os.Stdin)
	}
	fmt.Printf("FAKE-AGENT READY pid=%d tty=%v args=%q\r\n", me.PID, term.IsTerminal(0), args)

	for _, line := range strings.Split(os.Getenv(EnvAtStart), ";") {
		command(me.PID, line, exit)
	}
	n := 0
	readLines(os.Stdin, raw, func(line string) {
		n++
		typed(me.PID, n, line, exit)
	})
	// Our terminal went away (the pty was closed): as Claude does.
	exit(129)
}

// typed takes line n typed on the agent's terminal as Claude Code takes a
// prompt: its UserPromptSubmit hook first — which notes the prompt, so
// that a restart after it knows the agent took it — then the turn (the
// command), then the Stop hook that ends the turn. A turn the agent does
// not live through (a restart that kills it) runs no Stop; a line that
// stands for something claude does at once, or for a reply, has its Stop
// run before what the test reads, so that a test that acts on that
// output finds the turn ended.
func typed(pid, n int, line string, exit func(int)) {
	if strings.TrimSpace(line) == "" {
		return
	}
	id := fmt.Sprintf("fake-prompt-%d-%d", pid, n)
	hook("user-prompt-submit", map[string]any{"hook_event_name": "UserPromptSubmit", "prompt_id": id, "prompt": line, "source": "user"})
	stop := func() { hook("stop", map[string]any{"hook_event_name": "Stop", "prompt_id": id}) }
	switch cmd, _, _ := strings.Cut(strings.TrimSpace(line), " "); cmd {
	case "restart", "activate", "sc", "overflow":
		// A turn in which the model runs superclaude from a tool: it
		// ends after the tool, if the agent lives through it.
		command(pid, line, exit)
		stop()
	default:
		// The rest stand for what claude does at once (a status-line
		// tick, its status, its exit at the prompt) or for a reply: the
		// turn has ended by the time the test reads its line.
		stop()
		command(pid, line, exit)
	}
}

// hook runs superclaude's hook for event as Claude Code does, with the
// bound conversation's id and fields on stdin. Its answer is not shown:
// the fake agent's screen is the tests' to read.
func hook(event string, fields map[string]any) {
	bin := os.Getenv(EnvSuperclaude)
	if bin == "" {
		return
	}
	fields["session_id"] = bound
	payload, _ := json.Marshal(fields)
	cmd := exec.Command(bin, "+hook", event)
	cmd.Stdin = strings.NewReader(string(payload))
	cmd.Run()
}

// command runs one line typed on the agent's terminal.
func command(pid int, line string, exit func(int)) {
	line = strings.TrimSpace(line)
	cmd, arg, _ := strings.Cut(line, " ")
	switch cmd {
	case "exit":
		code, _ := strconv.Atoi(arg)
		exit(code)
	case "sc":
		// sc ARGS: superclaude with ARGS (split at spaces), as the
		// agent's Bash tool runs it.
		superclaude(strings.Fields(arg)...)
	case "restart":
		superclaude("+session", "restart")
	case "activate":
		// activate DIR [SKILL], as a skill's first Bash command.
		superclaude(append([]string{"+session", "activate"}, strings.Fields(arg)...)...)
	case "bind":
		// As Claude Code's status line binds its conversation.
		statusLine(arg)
	case "statusline":
		// statusline ID [PCT]: one tick of Claude Code's status line.
		statusLine(arg)
	case "overflow":
		// As Claude Code overflows: its status line reports the window
		// past the threshold, and the overflow guard, before the next
		// tool, marks the session overflowed.
		overflow()
	case "busy", "idle":
		// What Claude Code says it is doing, where it says it
		// (internal/claude.AgentStatus): a turn under way, or at its
		// prompt.
		writeStatus(cmd)
		fmt.Printf("STATUS %s\r\n", cmd)
	case "orphans":
		// Processes whose parent exits at once, as a tool's `cmd &`
		// leaves them: they are reparented to the nearest subreaper, or
		// to PID 1, and die soon after.
		n, _ := strconv.Atoi(arg)
		for range n {
			exec.Command("/bin/sh", "-c", "sleep 0.2 &").Run()
		}
		record(Record{Event: "orphans", PID: pid, Code: n})
		fmt.Printf("ORPHANS %d\r\n", n)
	case "modes":
		// What a full-screen agent switches on, and never undoes if it
		// is killed.
		fmt.Print(LeftOnModes + "MODES ON\r\n")
	case "":
	default:
		record(Record{Event: "key", PID: pid, Text: line})
		fmt.Printf("KEY:%s\r\n", line)
	}
}

// writeStatus writes Claude Code's sessions/<pid>.json under
// $CLAUDE_CONFIG_DIR (else ~/.claude) with the status given, as Claude Code
// keeps it while it runs.
func writeStatus(status string) {
	me, _ := proc.Self()
	dir := os.Getenv("CLAUDE_CONFIG_DIR")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".claude")
	}
	os.MkdirAll(filepath.Join(dir, "sessions"), 0o700)
	b, _ := json.Marshal(map[string]any{"pid": me.PID, "procStart": strconv.FormatUint(me.Start, 10), "status": status})
	// Written whole and renamed into place, so that a reader never sees
	// half of it.
	path := filepath.Join(dir, "sessions", strconv.Itoa(me.PID)+".json")
	if os.WriteFile(path+".tmp", b, 0o600) == nil {
		os.Rename(path+".tmp", path)
	}
}

// statusLine runs superclaude's status line as Claude Code does, with
// what Claude Code sends it on stdin: arg is the conversation id and,
// optionally, how full the context is in percent. It reports whether the
// line names a session (the tick bound one).
func statusLine(arg string) bool {
	id, pct, _ := strings.Cut(strings.TrimSpace(arg), " ")
	bound = id
	used, _ := strconv.Atoi(pct)
	payload, _ := json.Marshal(map[string]any{
		"session_id":     id,
		"model":          map[string]any{"display_name": "Fake"},
		"cost":           map[string]any{"total_cost_usd": 0},
		"context_window": map[string]any{"used_percentage": used},
	})
	bin := os.Getenv(EnvSuperclaude)
	if bin == "" {
		fmt.Print("NO SUPERCLAUDE BINARY\r\n")
		return false
	}
	cmd := exec.Command(bin, "+statusline")
	cmd.Stdin = strings.NewReader(string(payload))
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	out, err := cmd.Output()
	line := strings.TrimSpace(string(out))
	fmt.Printf("STATUSLINE %s\r\n", line)
	return err == nil && line != "" && !strings.HasPrefix(line, "no session")
}

// bound is the conversation the agent's status line last named.
var bound string

// overflow reports the bound conversation's window 90 % full through the
// status line, then asks the PreToolUse hook about a tool, which refuses
// it and marks the session overflowed.
func overflow() {
	id := bound
	statusLine(id + " 90")
	payload, _ := json.Marshal(map[string]any{
		"session_id": id, "transcript_path": "/fake/" + id + ".jsonl", "hook_event_name": "PreToolUse",
		"tool_name": "Bash", "tool_input": map[string]any{"command": "make build"},
	})
	cmd := exec.Command(os.Getenv(EnvSuperclaude), "+hook", "pre-tool-use")
	cmd.Stdin = strings.NewReader(string(payload))
	out, _ := cmd.Output()
	fmt.Printf("HOOK %s\r\n", strings.TrimSpace(string(out)))
}

// superclaude runs the superclaude binary the way a Bash tool would: in a
// new session, with no terminal. It reports whether the command succeeded.
func superclaude(args ...string) bool {
	bin := os.Getenv(EnvSuperclaude)
	if bin == "" {
		fmt.Print("NO SUPERCLAUDE BINARY\r\n")
		return false
	}
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.CombinedOutput()
	fmt.Printf("RAN %s: %v %s\r\n", strings.Join(args, " "), err, strings.ReplaceAll(strings.TrimSpace(string(out)), "\n", " | "))
	return err == nil
}
