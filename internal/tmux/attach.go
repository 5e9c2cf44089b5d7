package tmux

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// Client is the terminal a person asks to be shown a session or pane from:
// its $TMUX ("socket,pid,session", "" outside tmux) and $TMUX_PANE.
type Client struct {
	TMUX, Pane string
}

// ThisClient is the Client of this process's terminal.
func ThisClient() Client {
	return Client{TMUX: os.Getenv("TMUX"), Pane: os.Getenv("TMUX_PANE")}
}

// socket is the path of the server the client is in, "" outside tmux.
func (c Client) socket() string {
	sock, _, _ := strings.Cut(c.TMUX, ",")
	return sock
}

// Attachment is how a target is put on the person's terminal.
type Attachment struct {
	// Cmd is the tmux client to run in the foreground, on the person's
	// terminal, until they detach; nil when nothing is left to run (a
	// client of the target's own server was switched to it).
	Cmd *exec.Cmd
	// Nested is set when Cmd runs a client of the target's server inside
	// a pane of another tmux server: the person's keys reach it only
	// after the outer server's prefix is sent through (Hint says how).
	Nested bool
	// Hint says, for the person, how to come back: printed before Cmd
	// runs, and shown on the nested client's status line once it is
	// attached (the screen is tmux's by then). "" when there is nothing
	// to say.
	Hint string
}

// AttachFrom works out how to show target — a session (SessionTarget) or
// a pane (%N) of s — on client's terminal:
//
//   - outside tmux, a tmux client attaches to it (Cmd), and the terminal
//     comes back when the person detaches;
//   - in a pane of s itself, the client showing that pane is switched to
//     the target (as tmuxinator does): nothing runs, Cmd is nil;
//   - in a pane of another tmux server — a fleet on its own socket
//     (`socket = "work"`), seen from the person's everyday tmux — a client
//     of s is nested in that pane (tmux refuses this unless $TMUX is
//     cleared, which Cmd does), and Hint says which keys detach it: the
//     outer server takes the prefix key for itself, so the nested one gets
//     it only when it is sent through (tmux's default send-prefix binding
//     is the prefix pressed twice).
//
// Nesting was chosen over the other ways of showing another server's
// session from inside tmux (a new window of the current server running
// the client; moving the session to the current server) because it is
// what the same command does outside tmux — the terminal in front of the
// person shows the fleet until they detach — and it changes nothing on
// either server.
func (s Server) AttachFrom(target string, c Client) (Attachment, error) {
	current := c.socket()
	if current == "" {
		return Attachment{Cmd: s.clientCmd(target, nil)}, nil
	}
	theirs, err := s.Run("display-message", "-p", "-t", target, "#{socket_path}")
	if err != nil {
		return Attachment{}, err
	}
	if SameSocket(current, theirs) {
		args := []string{"switch-client"}
		if tty := clientOf(Server{Path: current}, c.Pane); tty != "" {
			args = append(args, "-c", tty)
		}
		_, err := s.Run(append(args, "-t", target)...)
		return Attachment{}, err
	}
	hint := nestedHint(Server{Path: current}, s)
	var show []string
	if hint != "" {
		// Said again on the nested client's status line, where the
		// person looks once its screen has replaced the shell's.
		show = []string{";", "display-message"}
		if v, ok := s.version(); ok && v >= 302 {
			show = append(show, "-d", "10000") // -d: tmux 3.2
		}
		show = append(show, Literal(hint))
	}
	return Attachment{Cmd: s.clientCmd(target, show), Nested: true, Hint: hint}, nil
}

// clientCmd is `tmux <s> attach-session -t target [more]`, with $TMUX and
// $TMUX_PANE cleared: a client started from inside tmux would otherwise be
// refused ("sessions should be nested with care").
func (s Server) clientCmd(target string, more []string) *exec.Cmd {
	args := append(append(s.Flags(), "attach-session", "-t", target), more...)
	cmd := exec.Command("tmux", args...)
	env := make([]string, 0, len(os.Environ()))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TMUX=") && !strings.HasPrefix(kv, "TMUX_PANE=") {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	return cmd
}

// nestedHint says which keys detach a client of inner running in a pane
// of outer: inner's prefix then d, with outer's prefix pressed first when
// the two are the same key (outer would take it for itself). tmux's
// default binds the prefix pressed twice to send-prefix; a configuration
// that binds it otherwise is not read here, and the hint names the
// command to look for.
func nestedHint(outer, inner Server) string {
	op, err1 := outer.Run("show-options", "-gv", "prefix")
	ip, err2 := inner.Run("show-options", "-gv", "prefix")
	if err1 != nil || err2 != nil || op == "" || ip == "" {
		return "this is a tmux inside your tmux: send its prefix key through your own (send-prefix), then d, to detach and come back"
	}
	keys := ip + " d"
	if op == ip {
		keys = op + " " + ip + " d"
	}
	return fmt.Sprintf("this is a tmux inside your tmux: %s detaches it and brings you back", keys)
}

// clientOf returns the tty of the client of srv showing pane, "" when none
// can be told.
func clientOf(srv Server, pane string) string {
	if pane == "" {
		return ""
	}
	out, err := srv.Run("list-clients", "-F", "#{client_tty}\t#{pane_id}")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(out, "\n") {
		if tty, p, ok := strings.Cut(line, "\t"); ok && p == pane {
			return tty
		}
	}
	return ""
}

// version is the tmux binary's version as major*100+minor (3.3a: 303),
// and false when `tmux -V` cannot be read.
func (s Server) version() (int, bool) {
	out, err := exec.Command("tmux", "-V").Output()
	if err != nil {
		return 0, false
	}
	return ParseVersion(string(out))
}

// ParseVersion reads `tmux -V`'s output ("tmux 3.3a", "tmux next-3.4",
// "tmux 3.2-rc2") as major*100+minor, and false when it holds no version.
func ParseVersion(out string) (int, bool) {
	f := strings.Fields(out)
	if len(f) < 2 {
		return 0, false
	}
	v := strings.TrimPrefix(f[1], "next-")
	major, rest, ok := strings.Cut(v, ".")
	if !ok {
		return 0, false
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	ma, err1 := strconv.Atoi(major)
	mi, err2 := strconv.Atoi(rest[:i])
	if err1 != nil || err2 != nil {
		return 0, false
	}
	return ma*100 + mi, true
}

// Attach puts the person's terminal on a session of s (AttachFrom, from
// this process's terminal): it says how to come back (to out) when the
// client is nested, and runs the client on this terminal until the person
// detaches.
func (s Server) Attach(session string, out io.Writer) error {
	a, err := s.AttachFrom(SessionTarget(session), ThisClient())
	if err != nil || a.Cmd == nil {
		return err
	}
	if a.Hint != "" {
		fmt.Fprintln(out, a.Hint)
	}
	a.Cmd.Stdin, a.Cmd.Stdout, a.Cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	return a.Cmd.Run()
}
