package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/superclaude/superclaude/state"
)

// Unreachable is the state of a view that stands for a host that did not
// answer: its sessions are not known, only when it last answered.
const Unreachable = "unreachable"

// HostDown is the view of a host that did not answer: err says why, and
// lastGood is when it last did (zero: never).
func HostDown(host string, err error, lastGood time.Time) SessionView {
	v := SessionView{Host: host, State: Unreachable, HostError: HostError(host, err)}
	if !lastGood.IsZero() {
		v.LastGood = state.FormatTime(lastGood)
	}
	return v
}

// HostError is why host did not answer, without what a view of the host
// says already: its name, and that it was unreachable.
func HostError(host string, err error) string {
	if err == nil {
		return ""
	}
	msg := strings.TrimPrefix(err.Error(), host+": ")
	return strings.TrimPrefix(msg, "unreachable: ")
}

// OnHost marks views as read on host.
func OnHost(views []SessionView, host string) []SessionView {
	for i := range views {
		views[i].Host = host
	}
	return views
}

// hasHosts reports whether any view is of another machine: only then does
// a table have a HOST column.
func hasHosts(views []SessionView) bool {
	for _, v := range views {
		if v.Host != "" {
			return true
		}
	}
	return false
}

// hostCell is the HOST column: the ssh destination, "local" for this
// machine.
func hostCell(host string) string {
	if host == "" {
		return "local"
	}
	return host
}

// unreachableLine is what a table says of a host that did not answer.
func unreachableLine(v SessionView, now time.Time) string {
	last := "never answered"
	if v.LastGood != "" {
		last = fmt.Sprintf("last good answer %s (%s)", clockSeconds(v.LastGood), Age(v.LastGood, now))
	}
	line := "UNREACHABLE — " + last
	if v.HostError != "" {
		line += ": " + v.HostError
	}
	return line
}

// clockSeconds renders an RFC 3339 time as the local time of day, to the
// second.
func clockSeconds(ts string) string {
	t, err := time.Parse(time.RFC3339, ts)
	if err != nil {
		return ts
	}
	return t.Local().Format("15:04:05")
}
