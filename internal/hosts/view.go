package hosts

import (
	"context"
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

// Views asks every host for its rows, at once, each for at most Timeout,
// and sends them (a host that did not answer as one unreachable row) when
// all are in.
func (c *Covered) Views() <-chan []cli.SessionView {
	ch := make(chan []cli.SessionView, 1)
	if c == nil || len(c.hosts) == 0 {
		ch <- nil
		return ch
	}
	go func() {
		rec, _ := Record()
		ssh := &remote.SSH{}
		var mu sync.Mutex
		got := map[string][]cli.SessionView{}
		reach := rec.Ask(context.Background(), c.hosts, Timeout, func(ctx context.Context, host string) error {
			var rows []cli.SessionView
			err := client(ssh, host).Call(ctx, opStatus, c.args, &rows)
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

// Views reads the view once. The other hosts are asked first, each in the
// background and for a bounded time: a host that does not answer never
// holds up this machine's rows by more than that.
func (s *Status) Views() []cli.SessionView {
	others := s.hosts.Views()
	views := sessions.LocalViews(s.stores, s.keep)
	return append(views, <-others...)
}
