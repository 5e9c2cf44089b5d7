package fleet

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/remote"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/internal/version"
)

// This file is +up and +down as a person asks for them: a fleet file or a
// fleet's name, a --tmux-socket flag, the user's records of where fleets
// run; cmd/superclaude parses the flags and prints the reports.

// Server is the tmux server a fleet command talks to: the flag's
// (--tmux-socket), else the fleet file's socket key, else
// $SUPERCLAUDE_TMUX_SOCKET, else tmux's default. The file names its
// fleet's server, so a general default in the environment does not send
// `+down FILE` to another one.
func Server(flag string, spec *Spec) tmux.Server {
	switch {
	case flag != "":
		return tmux.ParseSocket(flag)
	case spec != nil && spec.Socket != "":
		return tmux.ParseSocket(spec.Socket)
	}
	return tmux.ParseSocket(os.Getenv(envvar.TmuxSocket))
}

// DefaultRemote is how +up and +down reach a fleet's other hosts: ssh,
// this build's version, and the user's record of the hosts.
func DefaultRemote() (*Remote, error) {
	st, err := config.StateDir()
	if err != nil {
		return nil, err
	}
	return &Remote{SSH: &remote.SSH{}, Version: version.Get().Short(),
		Hosts: remote.Hosts{File: filepath.Join(st, remote.HostsFile)}}, nil
}

// UpResult is what Start did.
type UpResult struct {
	Spec   *Spec
	Server tmux.Server
	UpReport
	// Local says the fleet has panes on this machine.
	Local bool
	// Unrecorded, when set, is why where the fleet runs could not be
	// recorded: +down NAME will need --tmux-socket.
	Unrecorded error
}

// Start is `+up FILE`: the fleet up on the server socket names (Server),
// its other hosts' parts on them, and where it runs recorded for
// `+down NAME`. Its error with a report that names hosts is a fleet
// across hosts that came up in part.
func Start(file, socket string) (UpResult, error) {
	spec, err := Load(file)
	if err != nil {
		return UpResult{}, err
	}
	exe, err := config.Executable()
	if err != nil {
		return UpResult{}, err
	}
	st := UpResult{Spec: spec, Server: Server(socket, spec), Local: len(spec.Part("").Windows) > 0}
	rem, err := DefaultRemote()
	if err != nil {
		return st, err
	}
	st.UpReport, err = Up(spec, Options{Tmux: st.Server, Exe: exe, Remote: rem})
	if err != nil && st.Hosts == nil {
		return st, err // nothing came up
	}
	if dir, derr := config.FleetsDir(); derr == nil && st.Local {
		st.Unrecorded = WriteRecord(dir, spec, st.Server)
	}
	return st, err
}

// AttachLine is the command that attaches to the fleet name on server.
func AttachLine(server tmux.Server, name string) string {
	return remote.ShellLine(append(append([]string{"tmux"}, server.Flags()...), "attach", "-t", tmux.SessionTarget(name)))
}

// AttachLine is the command that attaches to the fleet name on h's host.
func (h HostUp) AttachLine(name string) string {
	return remote.AttachLine(h.Host, append(append([]string{"tmux"}, h.Tmux...), "attach", "-t", tmux.SessionTarget(name)))
}

// DownResult is what Stop did.
type DownResult struct {
	// Name is the fleet's; Spec its file, when +down was given one.
	Name string
	Spec *Spec
	DownReport
	// Hosts is what happened on the fleet's other hosts.
	Hosts []HostDown
	// Local says the fleet had, or was to have, panes on this machine.
	Local bool
	// Known says the name is a fleet's — given by its file, or recorded
	// by a +up — so that one that is not up is simply down.
	Known bool
}

// Stop is `+down FILE|NAME`: the fleet stopped in order on the server
// socket names (else the one its file, or its record, names), and on its
// other hosts; its record goes with it. cleanWorktrees needs the file.
func Stop(ctx context.Context, arg, socket string, o Options, cleanWorktrees bool) (DownResult, error) {
	st := DownResult{Name: arg}
	file := ""
	if fi, err := os.Stat(arg); err == nil && !fi.IsDir() {
		if st.Spec, err = Load(arg); err != nil {
			return st, err
		}
		st.Name, file = st.Spec.Name, st.Spec.File
	} else if cleanWorktrees {
		return st, errors.New("--clean-worktrees needs the fleet file, which says where the worktrees are")
	}
	o.Tmux = Server(socket, st.Spec)
	records, _ := config.FleetsDir()
	if socket == "" && st.Spec == nil {
		o.Tmux = Locate(records, st.Name, o.Tmux)
	}
	var err error
	if st.Spec != nil && len(st.Spec.Hosts()) > 0 {
		if o.Remote, err = DefaultRemote(); err != nil {
			return st, err
		}
		st.DownReport, st.Hosts, err = DownAll(ctx, st.Spec, o)
	} else {
		st.DownReport, err = Down(ctx, st.Name, file, o)
	}
	// A fleet file names a fleet; so does a record a +up left. One up on
	// another server than the one looked on is not down.
	st.Known = (st.Spec != nil || WasFleet(records, st.Name)) && !(errors.Is(err, ErrNotUp) && UpOnRecordedServer(records, st.Name))
	if err == nil || errors.Is(err, ErrNotUp) && st.Known {
		MarkDown(records, st.Name, file)
	}
	st.Local = st.Spec == nil || len(st.Spec.Part("").Windows) > 0 || st.Stopped+st.Killed+st.Foreign > 0
	return st, err
}

// Again is the +down command line that finishes an interrupted one.
func Again(arg, socket string) string {
	again := []string{"superclaude", "+down", arg}
	if socket != "" {
		again = append(again, "--tmux-socket", socket)
	}
	return remote.ShellLine(again)
}
