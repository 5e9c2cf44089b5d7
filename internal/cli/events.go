package cli

import (
	"fmt"
	"sort"
	"strings"

	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/state"
)

// FormatEvent renders one event of the log as a line a person reads:
// when, who, what happened and why. The line is passed through
// termtext.Clean: the event's text comes from the state and from whoever
// wrote the log, and must not carry an escape sequence or a line break.
//
//	2026-11-21 22:22:33  hook pre-tool-use   overflowed: false → true
//	2026-11-21 22:22:33  supervisor          the agent exited (exit 143, killed by superclaude) → fresh: overflow restart requested
func FormatEvent(ev state.Event) string {
	when := ev.Time.Local().Format("2006-01-02 15:04:05")
	var what string
	switch ev.Kind {
	case "transition":
		what = describeChanges(ev.Changes)
		if ev.Reason != "" {
			what = ev.Reason + ": " + what
		}
	case "agent-start":
		what = fmt.Sprintf("started the agent (pid %v, %v)", ev.Detail["pid"], ev.Detail["plan"])
		if ev.Reason != "" {
			what += ": " + ev.Reason
		}
	case "agent-exit":
		how := fmt.Sprint(ev.Detail["exit"])
		if ev.Detail["killedByUs"] == true {
			how += ", killed by superclaude"
		}
		if n, ok := ev.Detail["swept"].(float64); ok && n > 0 {
			how += fmt.Sprintf(", %d leftover processes swept", int(n))
		}
		if cause, _ := ev.Detail["cause"].(string); cause != "" {
			how = cause + ": " + how
		}
		what = fmt.Sprintf("the agent ended (%s) → %v: %s", how, ev.Detail["decision"], ev.Reason)
	case "restart":
		what = "restart asked for: " + ev.Reason
		if ms, ok := ev.Detail["waitedMs"].(float64); ok && ms >= 1 {
			what += fmt.Sprintf(" (waited %.1f s for claude to finish its turn)", ms/1000)
		}
	case "quarantine":
		what = "state file kept aside: " + ev.Reason
	default:
		what = ev.Kind
		if ev.Reason != "" {
			what += ": " + ev.Reason
		}
	}
	return termtext.Clean(fmt.Sprintf("%s  %-18s  %s", when, ev.Actor, what))
}

func describeChanges(changes map[string][2]any) string {
	keys := make([]string, 0, len(changes))
	for k := range changes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		c := changes[k]
		switch {
		case c[1] == nil:
			parts = append(parts, k+" deleted")
		case c[0] == nil:
			parts = append(parts, fmt.Sprintf("%s = %s", k, short(c[1])))
		default:
			parts = append(parts, fmt.Sprintf("%s: %s → %s", k, short(c[0]), short(c[1])))
		}
	}
	return strings.Join(parts, ", ")
}

func short(v any) string {
	s := fmt.Sprint(v)
	if str, ok := v.(string); ok {
		if len(str) > 60 {
			str = str[:57] + "…"
		}
		s = fmt.Sprintf("%q", str)
	}
	return s
}
