package agentside

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/logfile"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/state"
)

// StatusLine binds one tick and returns the line to print. The supervisor's
// binder, reached over the control socket, binds it when there is one;
// without one the tick is bound here, by the same function (claude.Tick).
func StatusLine(payload []byte) string {
	p := policy()
	tick, err := claude.ParseStatusLine(payload)
	info := claude.LineInfo{Threshold: p.Threshold}
	if err != nil {
		info.Problem = "superclaude: unreadable status-line input"
		log, done := logfile.Logger()
		log.Warn("status line: unreadable input", "err", err, "bytes", len(payload))
		done()
	} else {
		info = bindTick(payload, tick)
		info.Threshold = p.Threshold
		if os.Getenv(envvar.LimitContinue) == "0" {
			info.LimitContinue = state.LimitByNobody
		}
	}
	line := claude.Render(info, os.Getenv("NO_COLOR") == "")
	if user := os.Getenv(envvar.UserStatusLine); user != "" {
		if out := runUserStatusLine(user, payload); out != "" {
			first, rest, _ := strings.Cut(out, "\n")
			line += " │ " + first
			if rest != "" {
				line += "\n" + rest
			}
		}
	}
	return line
}

func bindTick(payload []byte, tick claude.StatusLine) claude.LineInfo {
	sup, supErr := config.Supervisor()
	if sock := os.Getenv(envvar.Socket); supErr == nil && sock != "" {
		// One read, one decision: a tick that changes nothing (most of
		// them) is answered from the session as it is, without a round
		// trip to the supervisor; one that has something to write goes
		// to the binder, which writes it and takes the lease.
		if store, err := sessions.OpenStore("statusline"); err == nil {
			store.Report = nil
			if sess, err := sessions.MineAs(store, sup, supErr); err == nil {
				if info, ok := claude.Peek(sess, sup, tick, time.Now(), 0); ok {
					return info
				}
			}
		}
		var info claude.LineInfo
		if control.NewClient(sock, sup).StatusLine(context.Background(), payload, &info) == nil {
			return info
		}
	}
	// No supervisor answers: bind here.
	noSession := claude.WithTick(claude.LineInfo{Problem: "no session"}, tick)
	store, err := sessions.OpenStore("statusline")
	if err != nil {
		return noSession
	}
	store.Report = nil
	sess, err := sessions.MineAs(store, sup, supErr)
	if err != nil {
		return noSession
	}
	res, err := claude.Tick(sess, sup, tick, time.Now(), 0)
	if errors.Is(err, state.ErrNoSession) {
		return noSession
	}
	logIf(err, "status line: binding the tick")
	return res.Info
}

// runUserStatusLine runs the user's own status-line command as claude would
// have: through /bin/sh, with the same JSON on stdin. It is the user's own
// shell command; superclaude's own arguments never pass through a shell.
func runUserStatusLine(command string, payload []byte) string {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", command)
	cmd.Stdin = bytes.NewReader(payload)
	out, _ := cmd.Output()
	return strings.TrimRight(string(out), "\n")
}
