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
//
// Followed by identity, not by count: the log is read oldest first by
// time, and a supervisor writes its first events of a session a few
// seconds late (state.Store.HoldEvents), before lines already written.
func WriteEvents(ctx context.Context, sess *state.Session, follow bool, write func(state.Event) error) error {
	evs, err := sess.Store.Events(sess.Name)
	if err != nil {
		return err
	}
	if len(evs) == 0 && !follow {
		return fmt.Errorf("no events for session %s in %s", sess.Name, sess.Store.Root)
	}
	written := map[string]bool{}
	for _, ev := range evs {
		written[eventKey(ev)] = true
		if err := write(ev); err != nil {
			return err
		}
	}
	if !follow {
		return nil
	}
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
		for _, ev := range evs {
			if k := eventKey(ev); !written[k] {
				written[k] = true
				if err := write(ev); err != nil {
					return err
				}
			}
		}
	}
}

// eventKey tells one event of the log from another.
func eventKey(ev state.Event) string {
	return fmt.Sprint(ev.Time.UnixNano(), " ", ev.PID, " ", ev.Actor, " ", ev.Kind, " ", ev.Reason)
}
