package sessions

import (
	"context"
	"errors"
	"os"
	"path/filepath"

	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/state"
)

// Activation is what Activate did.
type Activation struct {
	*state.Session
	// Notes are what it stepped over on the way, to tell the person: a
	// pane it could not learn, a corrupt state file it kept aside.
	Notes []error
	// Shell, when not zero, is the PID of the shell that now holds the
	// session: with no supervisor here the calling shell is the owner,
	// and nothing restarts an agent in it.
	Shell int
}

// Activate is `+session activate DIR [SKILL]`: it creates or takes over
// the session DIR names (ActivateTarget) for skill — when skill is not
// given, the session's own — owned by this supervisor (else this shell)
// and pane. A corrupt state file is kept aside and the session started
// fresh.
func Activate(dir, skill string, skillGiven bool) (Activation, error) {
	var a Activation
	s, err := OpenStore("session activate")
	if err != nil {
		return a, err
	}
	store, name, err := ActivateTarget(s, dir)
	if err != nil {
		return a, err
	}
	owner, err := config.Owner()
	if err != nil {
		return a, err
	}
	if !skillGiven {
		if cur, err := store.Load(name); err == nil {
			skill = cur.Skill
		}
	}
	pane, err := config.PaneID(context.Background())
	if err != nil {
		a.Notes = append(a.Notes, err)
	}
	cwd, _ := os.Getwd()
	caller := state.Caller{Owner: owner, Pane: pane, ProjectDir: cwd}
	st, err := store.Activate(name, skill, caller)
	var corrupt *state.Error
	if errors.As(err, &corrupt) {
		// The bad file is kept aside; activate starts fresh.
		a.Notes = append(a.Notes, err)
		st, err = store.Activate(name, skill, caller)
	}
	if err != nil {
		return a, err
	}
	if _, serr := config.Supervisor(); errors.Is(serr, config.ErrNoSupervisor) {
		a.Shell = owner.PID
	}
	a.Session = &state.Session{Name: name, Dir: filepath.Join(store.Root, name), State: st, Store: store}
	return a, nil
}
