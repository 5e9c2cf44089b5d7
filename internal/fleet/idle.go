package fleet

import (
	"strings"

	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/state"
)

// AllIdle reports whether every agent of the fleet that the labelled pane
// (session:window:label) belongs to is idle at its prompt, and the
// fleet's name: the "fleet all idle" notification, told when the last
// busy agent of a fleet finishes its turn. pane is the one whose turn has
// just ended, counted idle whatever its session says yet. The fleet's
// panes are its tmux session's (srv); each pane's agent is read from the
// pane's session (store.FindByPane), as +status reads it.
func AllIdle(srv tmux.Server, store *state.Store, pane string) (string, bool) {
	if !tmux.Labelled(pane) || store == nil {
		return "", false
	}
	fleet, _, _ := strings.Cut(pane, ":")
	panes, err := srv.Panes(fleet)
	if err != nil {
		return fleet, false
	}
	var ids []string
	for _, p := range panes {
		if p.Label != "" && !p.Dead {
			ids = append(ids, fleet+":"+p.Window+":"+p.Label)
		}
	}
	return fleet, allIdle(pane, ids, func(id string) paneAgent {
		sess, err := store.FindByPane(id)
		if err != nil {
			return paneAgent{Unknown: true}
		}
		return paneAgent{Running: state.OwnerAlive(sess.State), Status: sess.State.AgentStatus}
	})
}

// paneAgent is what a pane's session says of its agent.
type paneAgent struct {
	// Unknown: the pane's session cannot be read (none yet, a file
	// being moved aside).
	Unknown bool
	// Running: its supervisor runs.
	Running bool
	// Status is what the agent last said it does: idle, busy, waiting.
	Status string
}

// allIdle is AllIdle's decision over the fleet's panes (self among them,
// its turn just ended): every other pane's agent is idle at its prompt,
// or its supervisor does not run (a pane stopped waits on no one). A pane
// whose agent is busy or waits for the person, or whose session cannot be
// read, is not idle. A fleet of one pane is all idle when its turn ends.
func allIdle(self string, panes []string, agent func(pane string) paneAgent) bool {
	seen := false
	for _, id := range panes {
		if id == self {
			seen = true
			continue
		}
		a := agent(id)
		switch {
		case a.Unknown:
			return false
		case !a.Running:
		case a.Status != "idle":
			return false
		}
	}
	return seen
}
