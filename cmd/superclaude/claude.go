package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/logfile"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/supervise"
)

// maxPayload bounds what is read from claude on stdin.
const maxPayload = 4 << 20

func readPayload(r io.Reader) []byte {
	b, _ := io.ReadAll(io.LimitReader(r, maxPayload))
	return b
}

// readClaudePayload is readPayload for what claude writes (the status
// line's JSON): within claude.InputDeadline, so that a stdin never closed
// does not hang the status line; nil when late.
func readClaudePayload(r io.Reader) []byte {
	b, _, _, _ := claude.ReadInput(r, maxPayload)
	return b
}

// policy reads the guards' settings from the environment.
func policy() claude.Policy {
	p := claude.Policy{SessionRequired: os.Getenv(envvar.SessionRequired) == "1"}
	if exe, err := os.Executable(); err == nil {
		p.Self = filepath.Base(exe)
	}
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

// mine is the session of the agent this process runs under: the one answer
// of state.Store.Mine, for the supervisor and pane the environment names.
func mine(s *state.Store) (*state.Session, error) {
	owner, _ := config.Owner()
	pane, _ := config.PaneID(context.Background())
	return s.Mine(owner, pane)
}

func statusLineCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "+statusline",
		Short: "Claude Code's status line (run by claude): binds the session, prints one line",
		Args:  cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			payload := readClaudePayload(c.InOrStdin())
			fmt.Fprintln(c.OutOrStdout(), statusLine(payload))
			return nil // whatever happened, claude's UI gets a line and exit 0
		},
	}
}

// statusLine binds one tick and returns the line to print. The supervisor's
// binder, reached over the control socket, binds it when there is one;
// without one the tick is bound here, by the same function (claude.Tick).
func statusLine(payload []byte) string {
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
			if sess, err := mine(store); err == nil {
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
	sess, err := mine(store)
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

func hookCommand() *cobra.Command {
	return &cobra.Command{
		Use:       "+hook <event>",
		Short:     "Claude Code's hooks (run by claude): pre-tool-use, user-prompt-submit, pre-compact, session-start, stop-failure, stop",
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"pre-tool-use", "user-prompt-submit", "pre-compact", "session-start", "stop-failure", "stop"},
		RunE: func(c *cobra.Command, args []string) error {
			code := runHook(args[0], claude.ReadHookInput(c.InOrStdin()), c.OutOrStdout(), c.ErrOrStderr())
			if code != 0 {
				return exitCode(code)
			}
			return nil
		},
	}
}

// hookEventNames maps superclaude's hook subcommands to Claude Code's event
// names.
var hookEventNames = func() map[string]string {
	m := map[string]string{}
	for event, sub := range claude.HookEvents {
		m[sub] = event
	}
	return m
}()

// runHook answers one hook: read, find the session, claude.Hook, print.
// Bad input never breaks claude's turn: it is logged and the tool allowed.
func runHook(sub string, payload []byte, stdout, stderr io.Writer) int {
	event, known := hookEventNames[sub]
	in, err := claude.ParseHookInput(payload)
	if !known || err != nil {
		logIf(fmt.Errorf("hook %s (known %v, %d bytes): %v", sub, known, len(payload), err), "hook: ignoring")
		return 0
	}
	var sess *state.Session
	if store, err := sessions.OpenStore("hook " + sub); err == nil {
		store.Report = nil
		sess, _ = mine(store)
	}
	p := policy()
	var trouble string
	if (sub == "pre-tool-use" || sub == "pre-compact") && sess != nil {
		// A full disk: the usage the supervisor saw but could not store.
		p.SeenUsage, trouble = storeTrouble()
	}
	a, err := claude.Hook(sub, in, sess, p)
	logIf(err, "hook "+sub+": writing the session")
	if a.Block && trouble != "" {
		// The block relies on a restart with a fresh context, which needs
		// the agent's context saved: the session cannot be written. Let
		// the compaction go on rather than leave claude at "Context limit
		// reached", and say so.
		return claude.Answer{Notice: "superclaude cannot save the session (" + termtext.Clean(trouble) +
			"), so it cannot restart claude with a fresh context; it lets claude compact the conversation instead."}.Write(event, stdout, stderr)
	}
	if a.Restart != "" && sess != nil {
		// The agent cannot go on: its supervisor dehydrates and restarts it.
		ans, err := requestRestart(sess, a.Restart, in.TranscriptPath, true, false)
		logIf(err, "hook "+sub+": asking the supervisor to restart the agent")
		if a.Block && (err != nil || ans.Resume) {
			// The block relies on a fresh start, which is not coming.
			why := "it could not save claude's context"
			if err != nil {
				why = termtext.Clean(err.Error())
			}
			a = claude.Answer{Notice: "superclaude could not restart claude with a fresh context (" + why +
				"), so it lets claude compact the conversation instead."}
		}
	}
	return a.Write(event, stdout, stderr)
}

// storeTrouble asks the agent's supervisor whether its status line's
// ticks can be stored (supervise.Status): when they cannot (a full disk),
// it returns the usage the last one showed and why; zero and "" when they
// can, or when no supervisor answers within a second.
func storeTrouble() (float64, string) {
	sup, err := config.Supervisor()
	sock := os.Getenv(envvar.Socket)
	if err != nil || sock == "" {
		return 0, ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var st supervise.Status
	if control.NewClient(sock, sup).Status(ctx, &st) != nil {
		return 0, ""
	}
	return st.SeenUsage, st.StoreProblem
}

func logIf(err error, msg string) {
	if err == nil || errors.Is(err, state.ErrNoSession) {
		return
	}
	log, done := logfile.Logger()
	log.Warn(msg, "err", err)
	done()
}

func logCommand() *cobra.Command {
	var file, which string
	cmd := &cobra.Command{
		Use:   "+log",
		Short: "append stdin to the session's log (replaces log.sh; resets the logging heartbeat)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			text := strings.TrimSpace(string(readPayload(c.InOrStdin())))
			if text == "" {
				return errors.New("+log: nothing on stdin to log")
			}
			store, err := sessions.OpenStore("log")
			if err != nil {
				return err
			}
			// --session as every +session subcommand has it (issue 19);
			// else this agent's session.
			sess, err := findSession(store, which)
			if err != nil {
				return fmt.Errorf("+log: %w", err)
			}
			name, path := logFile(sess, file)
			if err := sess.Store.AppendFile(path, fmt.Appendf(nil, "\n## %s\n\n%s\n", state.FormatTime(time.Now()), text)); err != nil {
				return fmt.Errorf("+log: not appending to %s: %w", name, err)
			}
			sess.Store.Update(sess.Name, "", func(st *state.State) error {
				if !st.Exists() {
					return state.ErrNoSession
				}
				st.LastHeartbeat = time.Now()
				return nil
			})
			fmt.Fprintln(c.OutOrStdout(), path)
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "file", "", "log file (default: the session's target file, else <SKILL>_LOG.md in the session directory)")
	cmd.Flags().StringVar(&which, "session", "", "log to this session (name or path) instead of this agent's")
	return cmd
}

// logFile is where +log appends: --file, else the session's target file,
// else <SKILL>_LOG.md; relative names are in the session directory. It
// returns the name as given, for messages, and the path (which
// state.Store.AppendFile holds to the session directory).
func logFile(sess *state.Session, flag string) (name, path string) {
	name = flag
	if name == "" {
		name = sess.State.TargetFile
	}
	if name == "" {
		skill := sess.State.Skill
		if skill == "" {
			skill = "SESSION"
		}
		name = strings.ToUpper(state.Sanitize(skill)) + "_LOG.md"
	}
	if filepath.IsAbs(name) {
		return name, name
	}
	return name, filepath.Join(sess.Dir, name)
}

// socketOf returns where the supervisor owner listens: the socket the
// environment names when owner is the environment's own supervisor, else
// the socket control.FindSocket finds for it in the runtime directories.
func socketOf(owner proc.Identity) (string, error) {
	if sup, err := config.Supervisor(); err == nil && sup == owner {
		if sock := os.Getenv(envvar.Socket); sock != "" {
			return sock, nil
		}
	}
	return control.FindSocket(owner.PID)
}
