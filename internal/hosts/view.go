package hosts

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/fleet"
	"github.com/superclaude/superclaude/internal/remote"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/state"
)

// Covered are the other machines a view covers, and what it asks them.
type Covered struct {
	hosts []string
	args  statusArgs
}

// Cover returns the hosts a view covers besides this machine: with
// fleetFile (--fleet), that fleet's (only its part there); with dir
// (--sessions), or when only this machine is asked for, none; else every
// host a fleet of the user's is up on (the hosts record that +up keeps).
func Cover(dir, fleetFile string, localOnly bool) (*Covered, error) {
	switch {
	case localOnly || dir != "":
		return nil, nil
	case fleetFile != "":
		spec, err := fleet.Load(fleetFile)
		if err != nil {
			return nil, err
		}
		return &Covered{hosts: spec.Hosts(), args: statusArgs{Origin: fleet.Origin(spec.File), Name: spec.Name}}, nil
	}
	rec, err := Record()
	if err != nil {
		return nil, nil // no state directory: no hosts recorded
	}
	return &Covered{hosts: rec.Up()}, nil
}

// Views asks every host for its rows, all at once and each for at most
// Timeout (remote.Hosts.AskEach, which records the outcome), and sends
// each host's block as it comes: its rows marked with the host, or one
// row saying it is unreachable, with its last good answer. The channel is
// closed once every host is in. It is nil when there is no host to ask.
func (c *Covered) Views() <-chan []cli.SessionView {
	if c == nil || len(c.hosts) == 0 {
		return nil
	}
	rec, _ := Record()
	ssh := &remote.SSH{}
	var mu sync.Mutex
	got := make(map[string][]cli.SessionView, len(c.hosts))
	reach := rec.AskEach(context.Background(), c.hosts, Timeout, func(ctx context.Context, host string) error {
		var rows []cli.SessionView
		err := client(ssh, host).Call(ctx, opStatus, c.args, &rows)
		mu.Lock()
		got[host] = rows
		mu.Unlock()
		return err
	})
	out := make(chan []cli.SessionView, len(c.hosts))
	go func() {
		defer close(out)
		for r := range reach {
			if r.Err != nil {
				out <- []cli.SessionView{cli.HostDown(r.Host, r.Err, r.LastGood)}
				continue
			}
			mu.Lock()
			rows := got[r.Host]
			mu.Unlock()
			out <- cli.OnHost(rows, r.Host)
		}
	}()
	return out
}

// Stores opens what a view reads: the sessions directory dir (--sessions)
// or fleetFile (--fleet) names, else every one of the user's. A fleet all
// on other hosts has no sessions here: none, and no error.
func Stores(dir, fleetFile string) ([]*state.Store, error) {
	if fleetFile != "" {
		spec, err := fleet.Load(fleetFile)
		if err != nil {
			return nil, err
		}
		dir = spec.SessionsDir()
		if _, err := os.Stat(dir); err != nil && len(spec.Part("").Windows) == 0 {
			return nil, nil // a fleet all on other hosts: no sessions here
		}
	}
	return sessions.ViewStores(dir)
}

// Status is what +status lists: the sessions of this machine a view
// keeps, and those of the hosts it covers.
type Status struct {
	stores []*state.Store
	keep   func(state.Session) bool
	hosts  *Covered
}

// NewStatus is +status's view: the sessions of dir or fleetFile (Stores),
// only the current project's when here, and with the hosts the view
// covers (Cover) unless here or local.
func NewStatus(dir, fleetFile string, here, local bool) (*Status, error) {
	stores, err := Stores(dir, fleetFile)
	if err != nil {
		return nil, err
	}
	s := &Status{stores: stores}
	if here {
		cwd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		s.keep = func(sess state.Session) bool {
			return sess.Store.Root == filepath.Join(cwd, "sessions") || sess.State.ProjectDir == cwd
		}
	}
	if s.hosts, err = Cover(dir, fleetFile, here || local); err != nil {
		return nil, err
	}
	return s, nil
}

// Views reads the view once, every host's rows in: the other hosts are
// asked first, each in the background and for a bounded time.
func (s *Status) Views() []cli.SessionView {
	others := s.hosts.Views()
	return appendBlocks(sessions.LocalViews(s.stores, s.keep), others)
}

// Write reads the view once and writes it as +status prints it (writeStatus):
// this machine's rows as soon as they are read, each host's as it answers.
func (s *Status) Write(w io.Writer, asJSON bool) error {
	others := s.hosts.Views()
	return writeStatus(w, sessions.LocalViews(s.stores, s.keep), others, asJSON)
}
