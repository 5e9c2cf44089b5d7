package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/guard"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/supervise"
)

// Environment variables of the Claude Code integration.
const (
	envThreshold      = "SUPERCLAUDE_OVERFLOW_THRESHOLD"
	envUserStatusLine = "SUPERCLAUDE_USER_STATUSLINE"
	envSessionGate    = "SESSION_REQUIRED"
)

// maxPayload bounds what is read from claude on stdin.
const maxPayload = 4 << 20

func readPayload(r io.Reader) []byte {
	b, _ := io.ReadAll(io.LimitReader(r, maxPayload))
	return b
}

// policy reads the guards' settings from the environment.
func policy() claude.Policy {
	p := claude.Policy{SessionRequired: os.Getenv(envSessionGate) == "1"}
	if exe, err := os.Executable(); err == nil {
		p.Self = filepath.Base(exe)
	}
	if v := os.Getenv(envThreshold); v != "" {
		if f, err := strconv.ParseFloat(v, 64); err == nil && f > 0 && f <= 1 {
			p.Threshold = f
		}
	}
	return p
}

// findForAgent finds the session of the agent this process runs under:
// by its supervisor first — the PID is always this agent's, while a pane
// label can have changed since activation (race R6; seed 003) — then by
// pane.
func findForAgent(s *state.Store) (*state.Session, error) {
	if sup, err := config.Supervisor(); err == nil {
		if sess, err := s.FindByOwner(sup.PID); err == nil {
			return sess, nil
		}
	}
	pane, _ := config.PaneID(context.Background())
	return s.FindByPane(pane)
}

func statusLineCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "+statusline",
		Short: "Claude Code's status line (run by claude): binds the session, prints one line",
		Args:  cobra.ArbitraryArgs,
		RunE: func(c *cobra.Command, args []string) error {
			payload := readPayload(c.InOrStdin())
			fmt.Fprintln(c.OutOrStdout(), statusLine(payload))
			return nil // whatever happened, claude's UI gets a line and exit 0
		},
	}
}

// statusLine binds one tick and returns the line to print. The supervisor's
// binder, reached over the control socket, is the single writer of its
// session's state; without a supervisor the tick is bound with a locked
// update of the file.
func statusLine(payload []byte) string {
	p := policy()
	tick, err := claude.ParseStatusLine(payload)
	info := claude.LineInfo{Threshold: p.Threshold}
	if err != nil {
		info.Problem = "superclaude: unreadable status-line input"
		log, done := openLog()
		log.Warn("status line: unreadable input", "err", err, "bytes", len(payload))
		done()
	} else {
		info = bindTick(payload, tick, p)
	}
	color := os.Getenv("NO_COLOR") == ""
	line := claude.Render(info, color)
	if user := os.Getenv(envUserStatusLine); user != "" {
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

func bindTick(payload []byte, tick claude.StatusLine, p claude.Policy) claude.LineInfo {
	info := claude.LineInfo{Threshold: p.Threshold}
	if sup, err := config.Supervisor(); err == nil {
		if sock := os.Getenv(config.EnvSocket); sock != "" {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			resp, err := control.Call(ctx, sock, sup, control.Request{Op: control.OpStatusLine, Payload: payload})
			cancel()
			if err == nil && json.Unmarshal(resp.Data, &info) == nil {
				return withTick(info, tick, p)
			}
		}
	}
	// No supervisor: bind directly.
	store, err := openExistingStore("statusline")
	if err != nil {
		info.Problem = "no sessions directory"
		return withTick(info, tick, p)
	}
	store.Report = nil
	sess, err := findForAgent(store)
	if err != nil {
		info.Problem = "no session"
		return withTick(info, tick, p)
	}
	sup, _ := config.Supervisor()
	st, err := store.Update(sess.Name, "status line", func(st *state.State) error {
		if !st.Exists() {
			return state.ErrNoSession
		}
		claimed := claude.Claim(st, sup, state.OwnerAlive(st))
		if !claude.Bind(st, tick, time.Now()) && !claimed {
			// Heartbeat only: not worth a write of its own.
			return state.ErrNoChange
		}
		return nil
	})
	if err != nil {
		info.Problem = "no session"
		return withTick(info, tick, p)
	}
	return withTick(lineInfo(sess.Name, st), tick, p)
}

// withTick adds what the tick itself says: model, cost, usage.
func withTick(info claude.LineInfo, tick claude.StatusLine, p claude.Policy) claude.LineInfo {
	info.Model = tick.Model.DisplayName
	info.CostUSD = tick.Cost.TotalCostUSD
	info.Threshold = p.Threshold
	if u, ok := tick.Usage(); ok {
		info.Usage, info.HasUsage = u, true
	}
	return info
}

func lineInfo(name string, st *state.State) claude.LineInfo {
	return claude.LineInfo{
		Session: name, Skill: st.Skill, Phase: st.CurrentPhase, Lifecycle: string(st.Lifecycle),
		Overflowed: st.Overflowed, KillRequested: st.KillRequested, Target: st.TargetFile,
	}
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

// statusLineBinder is the binder's side of the status line: it answers a
// tick at once with what the line should show, and writes the tick to the
// session in a goroutine of its own, one write at a time, the latest tick
// winning when they come faster than the disk.
type statusLineBinder struct {
	mu      sync.Mutex
	pending map[string]claude.StatusLine
	wake    chan struct{}
	once    sync.Once
}

func newStatusLineBinder() *statusLineBinder {
	return &statusLineBinder{pending: map[string]claude.StatusLine{}, wake: make(chan struct{}, 1)}
}

func (b *statusLineBinder) handle(ctx context.Context, s *supervise.Supervisor, req control.Request, _ control.Peer) control.Response {
	tick, err := claude.ParseStatusLine(req.Payload)
	if err != nil {
		return control.Response{Error: "unreadable status-line input: " + err.Error()}
	}
	name, store := s.Session(), s.Store()
	info := claude.LineInfo{Problem: "no session"}
	if name != "" && store != nil {
		if st, err := store.Load(name); err == nil {
			claude.Bind(st, tick, time.Now())
			info = lineInfo(name, st)
			b.submit(s, name, tick)
		}
	}
	data, _ := json.Marshal(info)
	return control.Response{OK: true, Data: data}
}

func (b *statusLineBinder) submit(s *supervise.Supervisor, name string, tick claude.StatusLine) {
	b.mu.Lock()
	b.pending[name] = tick
	b.mu.Unlock()
	b.once.Do(func() { guard.Go(func() { b.write(s) }) })
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

func (b *statusLineBinder) write(s *supervise.Supervisor) {
	for range b.wake {
		b.mu.Lock()
		todo := b.pending
		b.pending = map[string]claude.StatusLine{}
		b.mu.Unlock()
		for name, tick := range todo {
			var bound string
			_, err := s.Store().Update(name, "status line", func(st *state.State) error {
				if !st.Exists() {
					return state.ErrNoSession
				}
				before := st.SessionID
				claude.Claim(st, s.Identity(), state.OwnerAlive(st))
				claude.Bind(st, tick, time.Now())
				if st.SessionID != before {
					bound = st.SessionID
				}
				return nil
			})
			if err != nil {
				s.Log().Warn("binding a status-line tick", "session", name, "err", err)
			}
			if bound != "" {
				// The conversation this supervisor runs is its to resume.
				if holder, ok, err := s.Store().Lease(bound, s.Identity()); err != nil || !ok {
					s.Log().Warn("conversation lease", "id", bound, "holder", holder.PID, "err", err)
				}
			}
		}
	}
}

func hookCommand() *cobra.Command {
	return &cobra.Command{
		Use:       "+hook <event>",
		Short:     "Claude Code's hooks (run by claude): pre-tool-use, user-prompt-submit, pre-compact, session-start",
		Args:      cobra.ExactArgs(1),
		ValidArgs: []string{"pre-tool-use", "user-prompt-submit", "pre-compact", "session-start"},
		RunE: func(c *cobra.Command, args []string) error {
			code := runHook(args[0], readPayload(c.InOrStdin()), c.OutOrStdout(), c.ErrOrStderr())
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

// runHook answers one hook. Bad input never breaks claude's turn: it is
// logged and the tool allowed.
func runHook(sub string, payload []byte, stdout, stderr io.Writer) int {
	event, known := hookEventNames[sub]
	in, err := claude.ParseHookInput(payload)
	if !known || err != nil {
		log, done := openLog()
		log.Warn("hook: ignoring", "hook", sub, "known", known, "err", err, "bytes", len(payload))
		done()
		return 0
	}
	p := policy()
	var sess *state.Session
	store, err := openExistingStore("hook " + sub)
	if err == nil {
		store.Report = nil
		sess, _ = findForAgent(store)
	}
	var st *state.State
	if sess != nil {
		st = sess.State
	}
	var a claude.Answer
	switch sub {
	case "pre-tool-use":
		var change claude.Change
		a, change = claude.PreToolUse(in, st, p)
		if sess != nil && !change.Empty() {
			// Decide again under the lock: two tool calls at once must
			// both be counted.
			_, err := store.Update(sess.Name, "hook pre-tool-use", func(locked *state.State) error {
				var c claude.Change
				a, c = claude.PreToolUse(in, locked, p)
				if c.Empty() {
					return state.ErrNoChange
				}
				c.Apply(locked)
				return nil
			})
			logIf(err, "hook pre-tool-use: writing the session")
		}
	case "user-prompt-submit":
		a = claude.UserPromptSubmit(in, sess, p)
	case "pre-compact":
		var mark bool
		a, mark = claude.PreCompact(in, st)
		if mark {
			_, err := store.Update(sess.Name, "hook pre-compact: automatic compaction means overflow", func(locked *state.State) error {
				locked.Overflowed = true
				return nil
			})
			logIf(err, "hook pre-compact: writing the session")
		}
	case "session-start":
		a = claude.SessionStart(in, sess)
	}
	return a.Write(event, stdout, stderr)
}

func logIf(err error, msg string) {
	if err == nil || errors.Is(err, state.ErrNoSession) {
		return
	}
	log, done := openLog()
	log.Warn(msg, "err", err)
	done()
}

func logCommand() *cobra.Command {
	var file string
	cmd := &cobra.Command{
		Use:   "+log",
		Short: "append stdin to the session's log (replaces log.sh; resets the logging heartbeat)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			text := strings.TrimSpace(string(readPayload(c.InOrStdin())))
			if text == "" {
				return errors.New("+log: nothing on stdin to log")
			}
			store, err := openExistingStore("log")
			if err != nil {
				return err
			}
			sess, err := findForAgent(store)
			if err != nil {
				return fmt.Errorf("+log: no session for this agent: %w", err)
			}
			path := logFile(sess, file)
			f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(f, "\n## %s\n\n%s\n", state.FormatTime(time.Now()), text)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return err
			}
			store.Update(sess.Name, "", func(st *state.State) error {
				st.LastHeartbeat = time.Now()
				return nil
			})
			fmt.Fprintln(c.OutOrStdout(), path)
			return nil
		},
	}
	cmd.Flags().StringVar(&file, "file", "", "log file (default: the session's target file, else <SKILL>_LOG.md in the session directory)")
	return cmd
}

// logFile is where +log appends: --file, else the session's target file,
// else <SKILL>_LOG.md; relative names are in the session directory.
func logFile(sess *state.Session, flag string) string {
	name := flag
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
		return name
	}
	return filepath.Join(sess.Dir, name)
}
