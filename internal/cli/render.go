package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/superclaude/superclaude/state"
)

// SessionView is one session as `+session list` and `+status` show it.
type SessionView struct {
	Name          string          `json:"name"`
	Dir           string          `json:"dir"`
	Pane          string          `json:"pane,omitempty"`
	PID           int             `json:"pid"`
	OwnerAlive    bool            `json:"ownerAlive"`
	Skill         string          `json:"skill,omitempty"`
	Phase         string          `json:"phase,omitempty"`
	Lifecycle     state.Lifecycle `json:"lifecycle"`
	Overflowed    bool            `json:"overflowed"`
	KillRequested bool            `json:"killRequested"`
	ContextUsage  float64         `json:"contextUsage"`
	SessionID     string          `json:"sessionId,omitempty"`
	LastHeartbeat string          `json:"lastHeartbeat,omitempty"`
	Restarts      int             `json:"restarts"`
}

// View summarises one session; alive is whether its owner verified alive.
func View(s state.Session, alive bool) SessionView {
	st := s.State
	v := SessionView{
		Name: s.Name, Dir: s.Dir, Pane: st.FleetPaneID, PID: st.PID, OwnerAlive: alive,
		Skill: st.Skill, Phase: st.CurrentPhase, Lifecycle: st.Lifecycle,
		Overflowed: st.Overflowed, KillRequested: st.KillRequested,
		ContextUsage: st.ContextUsage, SessionID: st.SessionID, Restarts: st.Restarts,
	}
	if !st.LastHeartbeat.IsZero() {
		v.LastHeartbeat = state.FormatTime(st.LastHeartbeat)
	}
	return v
}

// WriteJSON writes v as indented JSON.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// WriteTable writes sessions as an aligned table. now renders heartbeats
// as ages.
func WriteTable(w io.Writer, views []SessionView, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION\tPANE\tOWNER\tLIFECYCLE\tOVERFLOW\tCONTEXT\tHEARTBEAT\tRESTARTS")
	for _, v := range views {
		owner := "-"
		if v.PID > 0 {
			owner = fmt.Sprintf("%d dead", v.PID)
			if v.OwnerAlive {
				owner = fmt.Sprintf("%d alive", v.PID)
			}
		}
		flags := "-"
		if v.Overflowed {
			flags = "yes"
		}
		if v.KillRequested {
			flags += ",kill"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d%%\t%s\t%d\n",
			v.Name, dash(v.Pane), owner, v.Lifecycle, flags,
			int(v.ContextUsage*100+0.5), Age(v.LastHeartbeat, now), v.Restarts)
	}
	return tw.Flush()
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Age renders an RFC 3339 time as how long ago it was ("12s ago", "3h ago").
func Age(ts string, now time.Time) string {
	if ts == "" {
		return "-"
	}
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return ts
	}
	d := now.Sub(t)
	switch {
	case d < 0:
		return "now"
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	default:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
}
