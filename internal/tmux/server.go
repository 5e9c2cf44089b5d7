package tmux

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Server is one tmux server: the default one, the one named Name (tmux -L,
// a socket in tmux's own directory), or the one listening on the socket
// file Path (tmux -S).
type Server struct {
	Name string
	Path string
}

// ParseSocket reads how a user names a tmux server: a value holding a '/'
// is a socket file (tmux -S), any other value a server name (tmux -L), as
// `tmux -L work` names one. "" is the default server.
func ParseSocket(s string) Server {
	switch {
	case s == "":
		return Server{}
	case strings.Contains(s, "/"):
		return Server{Path: s}
	default:
		return Server{Name: s}
	}
}

// Flags are the tmux options that select this server.
func (s Server) Flags() []string {
	switch {
	case s.Path != "":
		return []string{"-S", s.Path}
	case s.Name != "":
		return []string{"-L", s.Name}
	}
	return nil
}

// Run runs a tmux command and returns its output without the trailing
// newline. The command runs with -u: a tmux client that does not believe
// in UTF-8 (no UTF-8 locale in its environment, as over ssh, in cron, or
// under LANG=C) writes every control character of its output as '_',
// tabs included, and the lines this package reads are tab-separated.
func (s Server) Run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "tmux", append(append([]string{"-u"}, s.Flags()...), args...)...).CombinedOutput()
	text := strings.TrimRight(string(out), "\n")
	if err != nil {
		return text, fmt.Errorf("tmux %s: %v: %s", strings.Join(args, " "), err, text)
	}
	return text, nil
}

// HasSession reports whether the server has a session of exactly that
// name.
func (s Server) HasSession(name string) bool {
	_, err := s.Run("has-session", "-t", "="+name)
	return err == nil
}

// SessionTarget is the target that names a session exactly: "=name:".
// A bare "=name" is read as a window by the commands whose target is a
// pane (set-option, show-options).
func SessionTarget(name string) string { return "=" + name + ":" }

// SessionOption returns a session's own value of a user option ("" when
// it has none).
func (s Server) SessionOption(session, option string) (string, error) {
	return s.Run("show-options", "-q", "-v", "-t", SessionTarget(session), option)
}

// SetSessionOption sets a session's user option. Option values are never
// format-expanded (set-option expands only with -F).
func (s Server) SetSessionOption(session, option, value string) error {
	_, err := s.Run("set-option", "-t", SessionTarget(session), option, value)
	return err
}

// GlobalEnviron returns the server's global environment, the one a new
// pane starts with, and false when the server is not running (a server
// that a command starts gets that command's environment).
func (s Server) GlobalEnviron() (map[string]string, bool) {
	out, err := s.Run("show-environment", "-g")
	if err != nil {
		return nil, false
	}
	env := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		// "-KEY" marks a variable removed from the environment.
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(k, "-") {
			env[k] = v
		}
	}
	return env, true
}

// SocketPath is the path of the server's socket, as tmux reports it (and
// as $TMUX names it inside the server's panes).
func (s Server) SocketPath(session string) (string, error) {
	return s.Run("display-message", "-p", "-t", SessionTarget(session), "#{socket_path}")
}

// ServerPID is the PID of the server's own process, as tmux reports it.
func (s Server) ServerPID(session string) (int, error) {
	out, err := s.Run("display-message", "-p", "-t", SessionTarget(session), "#{pid}")
	if err != nil {
		return 0, err
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil || pid <= 0 {
		return 0, fmt.Errorf("tmux gave %q for its server's pid", out)
	}
	return pid, nil
}

// PaneInfo is one pane as list-panes reports it.
type PaneInfo struct {
	ID, WindowID, Window, Label string
	PID                         int
	Dead                        bool
}

const paneInfoFormat = "#{pane_id}\t#{window_id}\t#{window_name}\t#{" + LabelOption + "}\t#{pane_pid}\t#{pane_dead}"

func parsePaneInfo(line string) (PaneInfo, bool) {
	f := strings.Split(line, "\t")
	if len(f) != 6 {
		return PaneInfo{}, false
	}
	var pid int
	fmt.Sscan(f[4], &pid)
	return PaneInfo{ID: f[0], WindowID: f[1], Window: f[2], Label: f[3], PID: pid, Dead: f[5] == "1"}, true
}

// Panes lists the panes of a session.
func (s Server) Panes(session string) ([]PaneInfo, error) {
	out, err := s.Run("list-panes", "-s", "-t", SessionTarget(session), "-F", paneInfoFormat)
	if err != nil {
		return nil, err
	}
	var panes []PaneInfo
	for _, line := range strings.Split(out, "\n") {
		if p, ok := parsePaneInfo(line); ok {
			panes = append(panes, p)
		}
	}
	return panes, nil
}

// Literal returns s written so that tmux's format expansion gives back s.
// Expansion is only ever started by '#' ("#{…}", "#(…)" runs a shell
// command, "#S" …) and "##" expands to "#", so every '#' is doubled —
// except a run of '#' just before '[', which tmux leaves as it is (it
// marks a style, "#[fg=red]", drawn later). tmux before 3.2 turned "##["
// into "#[": there a '#' before '[' in a directory name would name another
// directory, but nothing is ever run.
func Literal(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '#' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '#' {
			j++
		}
		run := s[i:j]
		if j == len(s) || s[j] != '[' {
			run += run
		}
		b.WriteString(run)
		i = j
	}
	return b.String()
}

// Start says what a new pane runs and where. It is the only way this
// package starts a process in a pane, and it hands tmux every string so
// that tmux neither expands nor interprets it (what tmux 3.3a does with
// each, measured by TestWhatTmuxExpands):
//
//   - the start directory (-c) is format-expanded by tmux (since 1.9, for
//     "#{pane_current_path}"): it is passed through [Literal];
//   - session and window names (-s, -n) are format-expanded too: they go
//     through [Literal] as well;
//   - the command is an argument vector, which tmux executes directly: not
//     expanded, no shell;
//   - the environment is not given with -e, which new-session turns into
//     the session's environment, inherited by every pane a user opens in
//     it later (with the pane's identity in it): it goes in the argument
//     vector, through env(1).
type Start struct {
	Dir  string
	Env  []string
	Argv []string
}

// envPath is env(1), which starts the pane's command with its
// environment: looked up on first use, not at every superclaude's start.
var envPath = sync.OnceValue(func() string {
	if p, err := exec.LookPath("env"); err == nil {
		return p
	}
	return "/usr/bin/env"
})

func (st Start) args() ([]string, error) {
	if len(st.Argv) == 0 {
		return nil, errors.New("tmux: a pane needs a command")
	}
	if strings.Contains(st.Argv[0], "=") {
		return nil, fmt.Errorf("tmux: command %q: a '=' in its name would read as a variable", st.Argv[0])
	}
	for _, kv := range st.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" || strings.HasPrefix(k, "-") {
			return nil, fmt.Errorf("tmux: environment entry %q: want KEY=VALUE", kv)
		}
	}
	args := []string{"-c", Literal(st.Dir), "--", envPath()}
	args = append(args, st.Env...)
	return append(args, st.Argv...), nil
}

func (s Server) create(cmd []string, st Start) (PaneInfo, error) {
	rest, err := st.args()
	if err != nil {
		return PaneInfo{}, err
	}
	out, err := s.Run(append(append(cmd, "-P", "-F", paneInfoFormat), rest...)...)
	if err != nil {
		return PaneInfo{}, err
	}
	p, ok := parsePaneInfo(out)
	if !ok {
		return PaneInfo{}, fmt.Errorf("tmux: unexpected pane description %q", out)
	}
	return p, nil
}

// NewSession creates a detached session whose first window and pane run
// st.
func (s Server) NewSession(session, window string, st Start) (PaneInfo, error) {
	return s.create([]string{"new-session", "-d", "-s", Literal(session), "-n", Literal(window), "-x", "200", "-y", "50"}, st)
}

// NewWindow adds a window to a session, its first pane running st.
func (s Server) NewWindow(session, window string, st Start) (PaneInfo, error) {
	return s.create([]string{"new-window", "-d", "-t", SessionTarget(session), "-n", Literal(window)}, st)
}

// SplitWindow adds a pane running st to the window with id windowID.
func (s Server) SplitWindow(windowID string, st Start) (PaneInfo, error) {
	return s.create([]string{"split-window", "-d", "-t", windowID}, st)
}

// Respawn starts st again in the dead pane with id paneID (a pane kept
// open by remain-on-exit). A live pane is refused by tmux, so a pane that
// came back to life in the meantime is never killed.
func (s Server) Respawn(paneID string, st Start) error {
	rest, err := st.args()
	if err != nil {
		return err
	}
	_, err = s.Run(append([]string{"respawn-pane", "-t", paneID}, rest...)...)
	return err
}

// SameSocket reports whether two socket paths name one server's socket.
func SameSocket(a, b string) bool {
	if a == b {
		return true
	}
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}
