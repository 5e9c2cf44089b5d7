package supervise

import (
	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/state"
)

// OpenSessions opens the sessions directory dir the way superclaude's own
// commands open theirs: through the user's lookup index (in
// $SUPERCLAUDE_STATE_DIR, else $XDG_STATE_HOME/superclaude, else
// ~/.local/state/superclaude). A run whose Config.Store it is shows in
// `superclaude +status` and the dashboard beside superclaude's own, and
// `+why`, `+history` and `+session restart --session` reach it. An empty
// dir is the directory superclaude itself would use here:
// $SUPERCLAUDE_SESSIONS_DIR, else ./sessions when it exists, else the
// user's own. (state.Open gives a directory an index of its own instead,
// which superclaude's commands do not read.)
func OpenSessions(dir string) (*state.Store, error) {
	if dir == "" {
		d, err := config.SessionsDir()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	idx, err := config.IndexDir()
	if err != nil {
		return nil, err
	}
	store, err := state.OpenIn(dir, idx)
	if err != nil {
		return nil, err
	}
	store.Actor = "supervisor"
	return store, nil
}
