package sessions

import (
	"context"
	"fmt"
	"time"

	"github.com/superclaude/superclaude/state"
)

// followEvery is how often a followed event log is read again.
const followEvery = 500 * time.Millisecond

// WriteEvents is +why: it hands each event of sess's log to write, oldest
// first, and, when follow, every event logged after, until ctx ends. A
// session without events is an error unless followed.
func WriteEvents(ctx context.Context, sess *state.Session, follow bool, write func(state.Event) error) error {
	evs, err := sess.Store.Events(sess.Name)
	if err != nil {
		return err
	}
	if len(evs) == 0 && !follow {
		return fmt.Errorf("no events for session %s in %s", sess.Name, sess.Store.Root)
	}
	for _, ev := range evs {
		if err := write(ev); err != nil {
			return err
		}
	}
	if !follow {
		return nil
	}
	seen := len(evs)
	tick := time.NewTicker(followEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		evs, err := sess.Store.Events(sess.Name)
		if err != nil {
			return err
		}
		if len(evs) < seen {
			seen = 0 // the log was rotated
		}
		for _, ev := range evs[seen:] {
			if err := write(ev); err != nil {
				return err
			}
		}
		seen = len(evs)
	}
}
