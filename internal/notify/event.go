package notify

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/internal/tmux"
)

// Kinds of events, as the config file names them.
const (
	NeedsInput = "needs-input" // the agent waits for the person's answer
	Limit      = "limit"       // a usage or rate limit stopped the agent
	Halted     = "halted"      // the progress breaker halted the session
	CrashLimit = "crash-limit" // the agent crashed past the crash limit
	TurnEnded  = "turn-ended"  // the agent finished a turn (off by default)
	FleetIdle  = "fleet-idle"  // every agent of a fleet is idle (off by default)
)

// Kinds lists every kind, in the order a notification names them.
var Kinds = []string{NeedsInput, Limit, Halted, CrashLimit, TurnEnded, FleetIdle}

// Event is one thing the person may want to know of one session.
type Event struct {
	Kind    string    `json:"kind"`
	Session string    `json:"session"`
	Host    string    `json:"host"`
	Pane    string    `json:"pane,omitempty"`
	At      time.Time `json:"at"`
	// Want says, in words, what is wanted of the person.
	Want string `json:"want"`
	// Until is when a limit resets.
	Until time.Time `json:"until,omitzero"`
}

// Notification is what the notifiers send: one or more events coalesced.
type Notification struct {
	Title  string  `json:"title"`
	Body   string  `json:"body"`
	Events []Event `json:"events"`
}

// Compose coalesces events into one notification: a title that says how
// many sessions want what, and a line per event naming session, host,
// pane (as +status shows it) and what is wanted. The events keep the
// pane's whole identity, for a command of the person's.
func Compose(evs []Event) Notification {
	n := Notification{Events: evs}
	sessions := map[string]bool{}
	kinds := map[string]int{}
	for _, e := range evs {
		sessions[e.Host+"/"+e.Session] = true
		kinds[e.Kind]++
	}
	var what []string
	for _, k := range Kinds {
		if kinds[k] > 0 {
			what = append(what, phrase(k))
		}
	}
	// Title and Body are text to show: no control character, nor one
	// that turns the text around, from a name or a reason reaches them
	// (termtext.Clean). The events themselves keep every byte.
	if len(sessions) == 1 {
		n.Title = termtext.Clean(fmt.Sprintf("superclaude: %s %s", evs[0].Session, strings.Join(what, ", ")))
	} else {
		n.Title = fmt.Sprintf("superclaude: %d sessions: %s", len(sessions), strings.Join(what, ", "))
	}
	lines := make([]string, 0, len(evs))
	sorted := append([]Event(nil), evs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].At.Before(sorted[j].At) })
	for _, e := range sorted {
		where := e.Session + " on " + e.Host
		if pane := tmux.Short(e.Pane); pane != "" {
			// As +status shows it: a fleet's session:window:label, or
			// %N — not the socket path and server start time that make
			// an unlabelled pane's identity unique.
			where += " (pane " + pane + ")"
		}
		lines = append(lines, termtext.Clean(where+": "+e.Want))
	}
	n.Body = strings.Join(lines, "\n")
	return n
}

func phrase(kind string) string {
	switch kind {
	case NeedsInput:
		return "needs input"
	case Limit:
		return "hit a usage limit"
	case Halted:
		return "halted"
	case CrashLimit:
		return "crashed and stopped"
	case TurnEnded:
		return "finished a turn"
	case FleetIdle:
		return "all idle"
	}
	return kind
}
