package apptest

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/creack/pty"
)

// termQueries are the sequences a program writes to ask the terminal
// something: the background colour (OSC 11) and the cursor position
// (DSR 6), which termenv sends together and then waits up to 5 s for the
// answers to.
var termQueries = []string{"\x1b]11;?", "\x1b[6n"}

// queryIn returns the first terminal query in out, "" when there is none.
func queryIn(out string) string {
	for _, q := range termQueries {
		if strings.Contains(out, q) {
			return q
		}
	}
	return ""
}

// TestTerminalQueryAtInitStallsEveryStart: bubbletea v1 has an init() that
// asks the terminal for its background colour. With +dashboard linked into
// the binary, every superclaude process — the wrapper that starts claude,
// the status line, a one-shot run — wrote that query to the user's
// terminal at start and waited up to 5 s for an answer, reading it from
// the terminal before claude owned it. Here the terminal is a pty that
// never answers (TERM names a terminal termenv would ask, not tmux): no
// process may write a query, and each must get on with its work.
func TestTerminalQueryAtInitStallsEveryStart(t *testing.T) {
	const term = "TERM=xterm-256color"
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"interactive", nil},
		{"one-shot --version", []string{"--version"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, term)
			p := h.start(tc.args...)
			p.Expect(t, 0, "FAKE-AGENT READY", timeout)
			if q := queryIn(p.Output()); q != "" {
				t.Fatalf("superclaude wrote the terminal query %q before its agent started:\n%q", q, p.Output())
			}
			p.Type("exit 0")
			if code := p.Wait(t, timeout); code != 0 {
				t.Fatalf("superclaude exited %d, want 0", code)
			}
			if q := queryIn(p.Output()); q != "" {
				t.Fatalf("superclaude wrote the terminal query %q:\n%q", q, p.Output())
			}
			if n := len(h.events("start")); n != 1 {
				t.Fatalf("the agent was started %d times, want 1", n)
			}
		})
	}
	t.Run("one-shot in a tmux pane", func(t *testing.T) {
		// Under tmux a package that detects the colour profile at init
		// (Lip Gloss v2 does) runs `tmux info`: a process per start, and a
		// start that hangs with a hung tmux server. A one-shot run has no
		// tmux work of its own, so here a tmux that records its calls must
		// not be run at all.
		probe := t.TempDir()
		calls := filepath.Join(probe, "calls")
		script := "#!/bin/sh\necho \"$*\" >> '" + calls + "'\nexit 1\n"
		if err := os.WriteFile(filepath.Join(probe, "tmux"), []byte(script), 0o700); err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, "TERM=tmux-256color", "TMUX=/nonexistent/tmux-sock,1,0", "TMUX_PANE=%1",
			"PATH="+probe+string(os.PathListSeparator)+os.Getenv("PATH"))
		p := h.start("--version")
		p.Expect(t, 0, "FAKE-AGENT READY", timeout)
		p.Type("exit 0")
		if code := p.Wait(t, timeout); code != 0 {
			t.Fatalf("superclaude exited %d, want 0", code)
		}
		if q := queryIn(p.Output()); q != "" {
			t.Fatalf("superclaude wrote the terminal query %q:\n%q", q, p.Output())
		}
		if ran, err := os.ReadFile(calls); err == nil {
			t.Fatalf("a one-shot run ran tmux:\n%s", ran)
		}
	})
	t.Run("+statusline", func(t *testing.T) {
		// Claude Code gives the status line its payload on stdin; here its
		// stdout is the terminal, as when a person runs it by hand.
		payload, err := os.ReadFile(filepath.Join("..", "..", "..", "internal", "claude", "testdata", "statusline-after-turn-175k.json"))
		if err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, term, "CLAUDE_SUPERVISOR_PID=", "SUPERCLAUDE_SUPERVISOR=", "SUPERCLAUDE_SOCKET=")
		cmd := h.command("+statusline")
		cmd.Stdin = bytes.NewReader(payload)
		out := runWithTerminalStdout(t, cmd)
		if !strings.Contains(out, "ctx 18%") {
			t.Fatalf("no status line on the terminal:\n%q", out)
		}
		if q := queryIn(out); q != "" {
			t.Fatalf("+statusline wrote the terminal query %q:\n%q", q, out)
		}
	})
}

// runWithTerminalStdout runs cmd with its stdout and stderr on a new pty
// that is its controlling terminal, and returns what it printed. Nothing
// is ever written to the pty: a query gets no answer.
func runWithTerminalStdout(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	master, slave, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	cmd.Stdout, cmd.Stderr = slave, slave
	// Ctty is the child's descriptor of the terminal: its stdout.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 1}
	out := make(chan []byte)
	go func() {
		// Reading ends with an error once the program and the test have
		// both closed the terminal.
		b, _ := io.ReadAll(master)
		out <- b
	}()
	runErr := cmd.Run()
	slave.Close()
	b := <-out
	if runErr != nil {
		t.Fatalf("%v: %v\n%q", cmd.Args, runErr, b)
	}
	return string(b)
}
