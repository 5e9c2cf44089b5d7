package hosts

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/remote"
	"github.com/superclaude/superclaude/internal/sessions"
	"github.com/superclaude/superclaude/state"
)

// find returns the one host, of those a view covers (Cover), that has the
// session which names (or, history, a session or pane with
// conversations). It fails with state.ErrNoSession when none has, and
// names the hosts when several have (--host picks one).
func find(fleetFile, which string, history bool) (string, error) {
	c, err := Cover("", fleetFile, false)
	if err != nil || c == nil || len(c.hosts) == 0 {
		return "", state.ErrNoSession
	}
	rec, _ := Record()
	ssh := &remote.SSH{}
	var mu sync.Mutex
	var found []string
	rec.Ask(context.Background(), c.hosts, Timeout, func(ctx context.Context, host string) error {
		var has bool
		err := client(ssh, host).Call(ctx, opFind, findArgs{Which: which, History: history}, &has)
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

// elsewhere is where a command that looks a session up goes: host, when
// given (--host), else this machine ("") — and, when local is false and
// this machine has no such session (notHere), the one host that has it.
func elsewhere(host string, local, notHere bool, fleetFile, which string, history bool) (string, error) {
	if host != "" || local || !notHere || which == "" {
		return host, nil
	}
	h, err := find(fleetFile, which, history)
	if errors.Is(err, state.ErrNoSession) {
		return "", nil
	}
	return h, err
}

// Run runs args, one of the commands a host runs for another (runnable),
// on host, printing what it prints, and returns its exit code.
func Run(ctx context.Context, host string, args []string, stdout, stderr io.Writer) (int, error) {
	return client(&remote.SSH{}, host).Run(ctx, args, stdout, stderr)
}

// Why is the session +why reads (sessions.WhySession, in the sessions
// directory dir or fleetFile names, else in every one of the user's),
// or, when it is not on this machine, the host that has it (on): host,
// when given; else, unless local, the one host that has a session of
// that name.
func Why(dir, fleetFile, host string, local bool, args []string) (sess *state.Session, on string, err error) {
	if host == "" {
		var stores []*state.Store
		if stores, err = Stores(dir, fleetFile); err == nil {
			sess, err = sessions.WhySession(stores, args)
		}
	}
	if host != "" || errors.Is(err, state.ErrNoSession) && dir == "" && len(args) == 1 {
		on, herr := elsewhere(host, local, true, fleetFile, strings.Join(args, ""), false)
		if herr != nil || on != "" {
			return nil, on, herr
		}
	}
	return sess, "", err
}

// Restarting is the session `+session restart` restarts: the one which
// names (sessions.Find: else this agent's), or, when it is not on this
// machine, the host that has it (on), as Why finds it.
func Restarting(which, host string, local bool) (sess *state.Session, on string, err error) {
	s, err := sessions.OpenStore("session restart")
	if err != nil {
		return nil, "", err
	}
	if host == "" {
		sess, err = sessions.Find(s, which)
	}
	if host != "" || errors.Is(err, state.ErrNoSession) {
		on, herr := elsewhere(host, local, true, "", which, false)
		if herr != nil || on != "" {
			return nil, on, herr
		}
	}
	return sess, "", err
}

// History is what +history lists (sessions.Conversations), and what it
// lists them of; or, when this machine has none, the host that has the
// session or pane which names (on), as Why finds it.
func History(which, host string, local bool) (cs []cli.Conversation, what, on string, err error) {
	if host == "" {
		cs, what, err = sessions.Conversations(which)
	}
	on, herr := elsewhere(host, local, err != nil || len(cs) == 0, "", which, true)
	if herr != nil || on != "" {
		return nil, "", on, herr
	}
	return cs, what, "", err
}
