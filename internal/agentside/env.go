package agentside

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/logfile"
	"github.com/superclaude/superclaude/state"
)

// maxPayload bounds what is read from claude on stdin.
const maxPayload = 4 << 20

// ReadPayload reads what a command of the agent side is given on stdin, at
// most maxPayload.
func ReadPayload(r io.Reader) []byte {
	b, _ := io.ReadAll(io.LimitReader(r, maxPayload))
	return b
}

// ReadClaudePayload is readPayload for what claude writes (the status
// line's JSON): within claude.InputDeadline, so that a stdin never closed
// does not hang the status line; nil when late.
func ReadClaudePayload(r io.Reader) []byte {
	b, _, _, _ := claude.ReadInput(r, maxPayload)
	return b
}

// RunStatusLine is `superclaude +statusline`: it reads claude's tick from
// stdin and prints one line, whatever happened — claude's UI gets a line —
// and its exit code is 0.
func RunStatusLine(stdin io.Reader, stdout io.Writer) int {
	io.WriteString(stdout, StatusLine(ReadClaudePayload(stdin))+"\n")
	return 0
}

// policy reads the guards' settings from the environment.
func policy() claude.Policy {
	p := claude.Policy{SessionRequired: os.Getenv(envvar.SessionRequired) == "1"}
	if exe, err := os.Executable(); err == nil {
		p.Self = exe
	}
	p.Path = os.Getenv("PATH")
	p.Supervisor = os.Getenv(envvar.Supervisor)
	if v := os.Getenv(envvar.OverflowThreshold); v != "" {
		if f, err := strconv.ParseFloat(v, 64); err == nil && f > 0 && f <= 1 {
			p.Threshold = f
		}
	}
	p.LimitContinue = limitContinue
	return p
}

// limitContinue says who goes on after a usage limit resets, for the
// agent this process runs under: nobody when its supervisor does not
// (SUPERCLAUDE_LIMIT_CONTINUE=0), claude when one of its settings files —
// the one superclaude gave it included — turns claude's own auto-continue
// on, else superclaude.
func limitContinue() string {
	if os.Getenv(envvar.LimitContinue) == "0" {
		return state.LimitByNobody
	}
	cwd, _ := os.Getwd()
	var launched []string
	if rt, err := control.RuntimeDir(); err == nil {
		if sup, err := config.Supervisor(); err == nil {
			launched = append(launched, filepath.Join(claude.LaunchDir(rt, sup.PID), "settings.json"))
		}
	}
	if on, _ := claude.AutoContinueOn(cwd, claude.ConfigDir(), launched...); on {
		return state.LimitByClaude
	}
	return state.LimitBySuperclaude
}

func logIf(err error, msg string) {
	if err == nil || errors.Is(err, state.ErrNoSession) {
		return
	}
	log, done := logfile.Logger()
	log.Warn(msg, "err", err)
	done()
}

// PaneID is `+pane-id`: this pane's identity, as a skill asks for it
// (config.PaneID: tmux session:window:@pane_label, else the pane id; ""
// outside tmux).
func PaneID() (string, error) { return config.PaneID(context.Background()) }
