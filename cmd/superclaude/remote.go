package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/dashboard"
	"github.com/superclaude/superclaude/internal/fleet"
	"github.com/superclaude/superclaude/internal/remote"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/state"
)

// remoteCommand is `superclaude +remote`, which superclaude on another
// machine runs here over ssh: it answers the one request on its standard
// input (internal/remote). Hidden: people never type it.
func remoteCommand() *cobra.Command {
	return &cobra.Command{
		Use:    remote.ServeCommand,
		Short:  "answer one request of superclaude on another machine, over ssh (not typed by people)",
		Hidden: true,
		Args:   cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if term.IsTerminal(int(os.Stdin.Fd())) {
				return fmt.Errorf("%s answers superclaude on another machine, over ssh; it is not typed by people (see Fleets across hosts in the README)", remote.ServeCommand)
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
			defer stop()
			ops, err := hostOps()
			if err != nil {
				return err
			}
			return remote.Serve(ctx, os.Stdin, c.OutOrStdout(), Version(), ops)
		},
	}
}

// hostOps are the requests this machine answers for superclaude on
// another one.
func hostOps() (map[string]remote.Handler, error) {
	st, err := config.StateDir()
	if err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	exe, _ = filepath.EvalSymlinks(exe)
	side := fleet.HostSide{StateDir: st, Exe: exe, Server: func(s *fleet.Spec) tmux.Server { return fleetServer("", s) }}
	src, err := dashboard.LocalSource(dashboard.Options{})
	if err != nil {
		return nil, err
	}
	ops := dashboard.HostOps(src)
	for op, h := range map[string]remote.Handler{
		fleet.OpUp:   remote.Op(func(_ context.Context, a fleet.UpArgs) (fleet.HostUp, error) { return side.Up(a) }),
		fleet.OpDown: remote.Op(func(_ context.Context, a fleet.DownArgs) (fleet.HostDown, error) { return side.Down(a) }),
		opStatus: remote.Op(func(_ context.Context, a statusArgs) ([]cli.SessionView, error) {
			dir := ""
			if a.Name != "" {
				var err error
				if dir, err = side.SessionsDir(a.Origin, a.Name); err != nil {
					return nil, err
				}
				if _, err := os.Stat(dir); err != nil {
					return []cli.SessionView{}, nil // that fleet has no sessions here
				}
			}
			stores, err := sessions.ViewStores(dir)
			if err != nil {
				return nil, err
			}
			return sessions.LocalViews(stores, func(state.Session) bool { return true }), nil
		}),
		opFind:       remote.Op(func(_ context.Context, a findArgs) (bool, error) { return findHere(a), nil }),
		remote.OpRun: remote.RunHandler(exe, runnable),
	} {
		ops[op] = h
	}
	return ops, nil
}

// dashboardHosts is how +dashboard reaches the hosts the user's fleets
// run on (none when the record names none).
func dashboardHosts() dashboard.Hosts {
	rec, err := hostsRecord()
	if err != nil {
		return dashboard.Hosts{}
	}
	ssh := &remote.SSH{}
	return dashboard.Hosts{
		Hosts: rec.Up(),
		Call: func(ctx context.Context, host, op string, args, result any) error {
			return hostClient(ssh, host).Call(ctx, op, args, result)
		},
		Terminal: func(host string, argv []string) (*exec.Cmd, error) {
			return ssh.Command(context.Background(), host, true, argv...)
		},
		Record: rec,
	}
}

// fleetRemote is how +up and +down reach a fleet's other hosts.
func fleetRemote() (*fleet.Remote, error) {
	rec, err := hostsRecord()
	if err != nil {
		return nil, err
	}
	return &fleet.Remote{SSH: &remote.SSH{}, Version: Version(), Hosts: rec}, nil
}

// opStatus is the request for a host's +status rows.
const opStatus = "status"

// statusArgs narrow a host's rows to one fleet's part (Origin and Name,
// as fleet.UpArgs give them); empty: every session of that user's.
type statusArgs struct {
	Origin string `json:"origin,omitempty"`
	Name   string `json:"name,omitempty"`
}

// hostTimeout is how long a view waits for a host (--host-timeout).
var hostTimeout = 2 * time.Second

// hostsFlags adds --local, and --host-timeout, the flags of a view that
// covers the fleets' other hosts.
func hostsFlags(cmd *cobra.Command, local *bool) {
	cmd.Flags().BoolVar(local, "local", false, "only this machine's sessions, not those of the hosts your fleets run on")
	cmd.Flags().DurationVar(&hostTimeout, "host-timeout", hostTimeout, "how long to wait for each other host's answer")
}

// viewedHosts are the other machines a view covers, and what it asks
// them.
type viewedHosts struct {
	hosts []string
	args  statusArgs
}

// viewHosts are the hosts a view covers besides this machine: with
// --fleet, that fleet's (only its part there); with --sessions, or when
// only this machine is asked for, none; else every host a fleet of the
// user's is up on (the hosts record that +up keeps).
func viewHosts(dir, fleetFile string, localOnly bool) (*viewedHosts, error) {
	switch {
	case localOnly || dir != "":
		return nil, nil
	case fleetFile != "":
		spec, err := fleet.Load(fleetFile)
		if err != nil {
			return nil, err
		}
		return &viewedHosts{hosts: spec.Hosts(), args: statusArgs{Origin: fleet.Origin(spec.File), Name: spec.Name}}, nil
	}
	rec, err := hostsRecord()
	if err != nil {
		return nil, nil // no state directory: no hosts recorded
	}
	return &viewedHosts{hosts: rec.Up()}, nil
}

// views asks every host for its rows, at once, each for at most
// hostTimeout, and sends them (a host that did not answer as one
// unreachable row) when all are in.
func (v *viewedHosts) views() <-chan []cli.SessionView {
	ch := make(chan []cli.SessionView, 1)
	if v == nil || len(v.hosts) == 0 {
		ch <- nil
		return ch
	}
	go func() {
		rec, _ := hostsRecord()
		ssh := &remote.SSH{}
		var mu sync.Mutex
		got := map[string][]cli.SessionView{}
		reach := rec.Ask(context.Background(), v.hosts, hostTimeout, func(ctx context.Context, host string) error {
			var rows []cli.SessionView
			err := hostClient(ssh, host).Call(ctx, opStatus, v.args, &rows)
			mu.Lock()
			got[host] = rows
			mu.Unlock()
			return err
		})
		var out []cli.SessionView
		for _, r := range reach {
			if r.Err != nil {
				out = append(out, cli.HostDown(r.Host, r.Err, r.LastGood))
				continue
			}
			out = append(out, cli.OnHost(got[r.Host], r.Host)...)
		}
		ch <- out
	}()
	return ch
}

// hostsRecord is the user's record of the hosts their fleets run on.
func hostsRecord() (remote.Hosts, error) {
	st, err := config.StateDir()
	if err != nil {
		return remote.Hosts{}, err
	}
	return remote.Hosts{File: filepath.Join(st, remote.HostsFile)}, nil
}

func hostClient(ssh *remote.SSH, host string) *remote.Client {
	return &remote.Client{SSH: ssh, Host: host, Version: Version()}
}

// opFind says whether a host has a session: how +why, +history and
// +session restart find the host of a session that is not on this
// machine, before they run there (remote.OpRun).
const opFind = "find"

type findArgs struct {
	// Which is a session's name, or with History a pane's identity too.
	Which   string `json:"which"`
	History bool   `json:"history,omitempty"`
}

// findHere reports whether this machine has the session (or, history, a
// session or pane with conversations) which names.
func findHere(a findArgs) bool {
	if a.History {
		cs, _, err := sessions.Conversations(a.Which)
		return err == nil && len(cs) > 0
	}
	stores, err := sessions.ViewStores("")
	if err != nil {
		return false
	}
	_, err = sessions.FindIn(stores, a.Which)
	return !errors.Is(err, state.ErrNoSession)
}

// runnable is what this machine runs for another (remote.OpRun): only
// +why, +history and +session restart, with --local, so that it never
// goes on to this machine's own hosts.
func runnable(args []string) ([]string, error) {
	n := 0
	switch {
	case len(args) >= 1 && (args[0] == "+why" || args[0] == "+history"):
		n = 1
	case len(args) >= 2 && args[0] == "+session" && args[1] == "restart":
		n = 2
	default:
		return nil, fmt.Errorf("superclaude +remote runs only +why, +history and +session restart for another host, not %q", args)
	}
	return append(append(append([]string{}, args[:n]...), "--local"), args[n:]...), nil
}

// runOnHost runs args, one of the runnable commands, on host, printing
// what it prints; its exit code, when not 0, is this command's.
func runOnHost(ctx context.Context, host string, args []string, stdout, stderr io.Writer) error {
	code, err := hostClient(&remote.SSH{}, host).Run(ctx, args, stdout, stderr)
	switch {
	case err != nil:
		return err
	case code != 0:
		return exitCode(code)
	}
	return nil
}

// findOnHosts returns the one host, of those a view covers (viewHosts),
// that has the session which names (or, history, a session or pane with
// conversations). It fails with state.ErrNoSession when none has, and
// names the hosts when several have (--host picks one).
func findOnHosts(fleetFile, which string, history bool) (string, error) {
	vh, err := viewHosts("", fleetFile, false)
	if err != nil || vh == nil || len(vh.hosts) == 0 {
		return "", state.ErrNoSession
	}
	rec, _ := hostsRecord()
	ssh := &remote.SSH{}
	var mu sync.Mutex
	var found []string
	rec.Ask(context.Background(), vh.hosts, hostTimeout, func(ctx context.Context, host string) error {
		var has bool
		err := hostClient(ssh, host).Call(ctx, opFind, findArgs{Which: which, History: history}, &has)
		if has {
			mu.Lock()
			found = append(found, host)
			mu.Unlock()
		}
		return err
	})
	sort.Strings(found)
	switch len(found) {
	case 0:
		return "", state.ErrNoSession
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%s is on %d hosts (%s): name one with --host", which, len(found), strings.Join(found, ", "))
}

// onHost is where a command that looks a session up goes: host, when
// given (--host), else this machine — and, when local is false and this
// machine has no such session (notHere), the one host that has it.
func onHost(host string, local, notHere bool, fleetFile, which string, history bool) (string, error) {
	if host != "" || local || !notHere || which == "" {
		return host, nil
	}
	h, err := findOnHosts(fleetFile, which, history)
	if errors.Is(err, state.ErrNoSession) {
		return "", nil
	}
	return h, err
}

// hostFlags adds --host and --local to a command that looks a session up.
func hostFlags(cmd *cobra.Command, host *string, local *bool) {
	cmd.Flags().StringVar(host, "host", "", "the host the session is on (an ssh destination a fleet of yours runs on); default: this machine, else the one host that has it")
	cmd.Flags().BoolVar(local, "local", false, "only this machine's sessions")
}
