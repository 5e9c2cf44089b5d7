package remote

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"time"

	"github.com/superclaude/superclaude/internal/control"
)

// SSH is how superclaude runs the user's ssh client. Every command line
// it makes carries the same options, which add to the user's own
// configuration (an -o given on the command line wins over ~/.ssh/config,
// so only what is set here is changed, and nothing of the host-key
// checking is):
//
//   - ControlMaster=auto, ControlPath in ControlDir, ControlPersist: the
//     first command to a host opens a connection that later ones share
//     (no new handshake: a refresh of a view costs a few milliseconds), and
//     that stays up for Persist after its last use;
//   - BatchMode=yes: a command that nobody watches — a view's refresh,
//     one of several hosts brought up at once — must fail, not wait for a
//     password or a passphrase (keys come from the user's ssh-agent). A
//     host key ssh does not know, or one that changed, fails the
//     connection with ssh's own message: ssh would ask in an interactive
//     session; superclaude never answers for the user;
//   - ConnectTimeout and ServerAliveInterval/CountMax: a host that went
//     away is known as such in seconds, not after TCP's minutes.
type SSH struct {
	// Program is the ssh client: "ssh" on PATH when empty.
	Program string
	// ControlDir is the private directory (0700) of the shared
	// connections' sockets: [DefaultControlDir] when empty.
	ControlDir string
	// Persist is how long a shared connection stays after its last use
	// (10 minutes when zero).
	Persist time.Duration
	// ConnectTimeout bounds a new connection (5 s when zero).
	ConnectTimeout time.Duration
}

// controlName is the socket name ssh makes in the control directory: %C,
// a hash of this host, the remote host, its port and user, 40 hex digits
// whatever the destination's length. ssh first binds a temporary name 17
// bytes longer.
const (
	controlName     = "%C"
	controlNameRoom = 40 + 17
)

// DefaultControlDir is the private directory ssh's shared connections go
// in: "ssh" in superclaude's runtime directory, short enough for a socket
// path on Linux and macOS.
func DefaultControlDir() (string, error) {
	return control.SocketDir("ssh", controlNameRoom)
}

func (s *SSH) program() string {
	if s.Program != "" {
		return s.Program
	}
	return "ssh"
}

// options are the -o options of every command line.
func (s *SSH) options() ([]string, error) {
	dir := s.ControlDir
	if dir == "" {
		var err error
		if dir, err = DefaultControlDir(); err != nil {
			return nil, fmt.Errorf("a private directory for ssh's shared connections: %w", err)
		}
		s.ControlDir = dir
	}
	persist, timeout := s.Persist, s.ConnectTimeout
	if persist <= 0 {
		persist = 10 * time.Minute
	}
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	opts := []string{
		"-o", "ControlMaster=auto",
		"-o", "ControlPath=" + dir + "/" + controlName,
		"-o", "ControlPersist=" + seconds(persist),
		"-o", "ConnectTimeout=" + seconds(timeout),
		"-o", "ServerAliveInterval=5",
		"-o", "ServerAliveCountMax=3",
		"-o", "BatchMode=yes",
	}
	return opts, nil
}

func seconds(d time.Duration) string {
	n := int(d.Round(time.Second) / time.Second)
	if n < 1 {
		n = 1
	}
	return strconv.Itoa(n)
}

// Command returns the ssh command that runs argv on host, every word
// quoted (RemoteCommand); tty asks for a terminal there (ssh -t), which
// attaching to a tmux session needs. The host is checked, and follows
// "--", so that it can never be read as an option.
func (s *SSH) Command(ctx context.Context, host string, tty bool, argv ...string) (*exec.Cmd, error) {
	if err := CheckDestination(host); err != nil {
		return nil, err
	}
	opts, err := s.options()
	if err != nil {
		return nil, err
	}
	if tty {
		opts = append(opts, "-t")
	} else {
		// No terminal, and nothing read from this one's standard input
		// but what the request gives.
		opts = append(opts, "-T")
	}
	args := append(opts, "--", host)
	if len(argv) > 0 {
		args = append(args, RemoteCommand(argv))
	}
	return exec.CommandContext(ctx, s.program(), args...), nil
}

// Forget closes the shared connection to host, if there is one (ssh -O
// exit): the next command opens a new one.
func (s *SSH) Forget(host string) error {
	if err := CheckDestination(host); err != nil {
		return err
	}
	opts, err := s.options()
	if err != nil {
		return err
	}
	return exec.Command(s.program(), append(opts, "-O", "exit", "--", host)...).Run()
}
