package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/internal/tmux"
	"github.com/superclaude/superclaude/state"
)

// EventWriter returns what writes an event to w as +why prints it: as a
// line for a person (FormatEvent), as recorded (verbose:
// FormatEventVerbose), or as JSON, one event a line.
func EventWriter(w io.Writer, asJSON, verbose bool) func(state.Event) error {
	return func(ev state.Event) error {
		if asJSON {
			b, err := json.Marshal(ev)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintf(w, "%s\n", b)
			return err
		}
		format := FormatEvent
		if verbose {
			format = FormatEventVerbose
		}
		_, err := fmt.Fprintln(w, format(ev))
		return err
	}
}

// FormatEvent renders one event of the log as a line a person reads:
// when, who, and what happened and why, in words — never the state file's
// field names (Describe). The raw event is FormatEventVerbose's
// (`+why --verbose`) and `+why --json`'s.
//
//	2026-11-21 22:22:33  claude       the context window is full: tools are refused until the agent saves its work and restarts
//	2026-11-21 22:22:40  superclaude  the agent exited with 143, stopped by superclaude; next: a fresh start with the continuation prompt — an overflow restart was asked for
//
// The line is passed through termtext.Clean: the event's text comes from
// the state and from whoever wrote the log, and must not carry an escape
// sequence or a line break.
func FormatEvent(ev state.Event) string {
	return termtext.Clean(fmt.Sprintf("%s  %-11s  %s", when(ev.Time), Who(ev.Actor), Describe(ev)))
}

// FormatEventVerbose renders one event with everything it records: the
// actor as written, the reason, and each changed field of the state file
// with its old and new value — what a person debugging superclaude, or
// reporting a bug, wants to see.
//
//	2026-11-21 22:22:33  hook pre-tool-use   hook pre-tool-use: overflowed: false → true
func FormatEventVerbose(ev state.Event) string {
	var what string
	switch ev.Kind {
	case "transition":
		what = describeChanges(ev.Changes)
		if ev.Reason != "" {
			what = ev.Reason + ": " + what
		}
	default:
		what = ev.Kind
		if ev.Reason != "" {
			what += ": " + ev.Reason
		}
		if len(ev.Detail) > 0 {
			what += " " + describeDetail(ev.Detail)
		}
	}
	return termtext.Clean(fmt.Sprintf("%s  %-18s  %s", when(ev.Time), ev.Actor, what))
}

func when(t time.Time) string { return t.Local().Format("2006-01-02 15:04:05") }

// Who names an event's actor for a person: superclaude itself (its
// supervisor and watchdog), claude (its status line and hooks, which
// superclaude answers for it), or the command that was run (`+session
// activate`, usually by a skill in claude's Bash tool, or by a person).
func Who(actor string) string {
	switch {
	case actor == "supervisor", actor == "watchdog", actor == "superclaude":
		return "superclaude"
	case actor == "statusline", strings.HasPrefix(actor, "hook "):
		return "claude"
	case strings.HasPrefix(actor, "session "), actor == "log", actor == "resume", actor == "history":
		return Prefix + actor
	}
	return actor
}

// Describe says what an event records, for a person: what happened, then
// why, in words, each clause once (sayOnce). It is what +why and the
// dashboard's LAST EVENT show.
func Describe(ev state.Event) string {
	return sayOnce(describe(ev))
}

func describe(ev state.Event) string {
	switch ev.Kind {
	case "transition":
		return describeTransition(ev.Reason, ev.Changes)
	case "agent-start":
		how := "with a fresh context"
		switch ev.Detail["plan"] {
		case "resume":
			how = "resuming its conversation"
			if c, _ := ev.Detail["conversation"].(string); c != "" {
				how += " " + shortID(c)
			}
		case "fresh", nil:
			if ev.Reason == chosenConversation {
				// Not fresh: the person named the conversation
				// (--resume ID, +resume N), and superclaude let it be.
				how = "on the conversation you chose"
				if id := resumeArg(ev.Detail["args"]); id != "" {
					how += ", " + shortID(id)
				}
				return fmt.Sprintf("started the agent%s %s", pidText(ev.Detail["pid"]), how)
			}
		default:
			how = fmt.Sprint(ev.Detail["plan"])
		}
		what := "started the agent " + how
		if pid, ok := ev.Detail["pid"].(float64); ok && pid > 0 {
			what = fmt.Sprintf("started the agent (pid %d) %s", int(pid), how)
		}
		return joinWhy(what, ev.Reason)
	case "agent-exit":
		how := "ended"
		switch e := ev.Detail["exit"].(type) {
		case string:
			if e != "" {
				how = e
			}
		case float64, int:
			how = fmt.Sprintf("exited with %v", e)
		}
		what := "the agent " + how
		why := restated(ev.Reason, "the agent "+how)
		if ev.Detail["killedByUs"] == true {
			what += ", stopped by superclaude"
		}
		if n, ok := ev.Detail["swept"].(float64); ok && n > 0 {
			what += fmt.Sprintf("; %d processes it left behind were ended", int(n))
		}
		if next := nextStep(ev.Detail["decision"]); next != "" {
			what += "; next: " + next
		}
		return joinWhy(what, why)
	case "restart":
		what := "a restart was asked for"
		if ms, ok := ev.Detail["waitedMs"].(float64); ok && ms >= 1 {
			what += fmt.Sprintf(" (waited %.1f s for the agent to finish its turn)", ms/1000)
		}
		return joinWhy(what, plainReason(ev.Reason))
	case "quarantine":
		return joinWhy("the state file could not be read, so it was kept aside and a new one started", ev.Reason)
	case "removed":
		return joinWhy("the session was removed: its directory and everything in it", ev.Reason)
	case "resume-choice":
		return "the person chose: " + map[string]string{"resume": "resume the conversation", "new": "a new conversation",
			"abort": "abort (no agent started)"}[ev.Reason]
	}
	if ev.Reason != "" {
		return ev.Reason
	}
	return strings.ReplaceAll(ev.Kind, "-", " ")
}

// chosenConversation is the reason of a start on a conversation the
// person named (supervise's).
const chosenConversation = "the user chose the conversation"

// pidText is " (pid N)" for an event's pid, "" without one.
func pidText(pid any) string {
	if p, ok := pid.(float64); ok && p > 0 {
		return fmt.Sprintf(" (pid %d)", int(p))
	}
	return ""
}

// resumeArg is the conversation an agent's arguments (as the event log
// has them) resume with --resume ID, "" when none.
func resumeArg(args any) string {
	list, _ := args.([]any)
	for i, a := range list {
		if a == "--resume" && i+1 < len(list) {
			id, _ := list[i+1].(string)
			return id
		}
		if s, _ := a.(string); strings.HasPrefix(s, "--resume=") {
			return strings.TrimPrefix(s, "--resume=")
		}
	}
	return ""
}

// restated drops from reason the words said already (said): a decision's
// reason ends with how the agent ended ("the user's own exit: the agent
// exited with 0"), which the line has just said.
func restated(reason, said string) string {
	for _, sep := range []string{": ", "; "} {
		if r, ok := strings.CutSuffix(reason, sep+said); ok {
			return r
		}
	}
	if reason == said {
		return ""
	}
	return reason
}

// nextStep words the supervisor's decision after an agent exited.
func nextStep(decision any) string {
	switch decision {
	case "stop":
		return "superclaude stops"
	case "fresh":
		return "a fresh start"
	case "resume":
		return "resuming the conversation"
	case "backoff":
		return "a restart after a pause"
	case nil, "":
		return ""
	}
	return fmt.Sprint(decision)
}

// joinWhy is "what — why", or what alone.
func joinWhy(what, why string) string {
	if why == "" || why == what {
		return what
	}
	return what + " — " + why
}

// headline words the transitions whose reason says more than their
// fields do, and names the fields it already says; ok is false for the
// other reasons.
func headline(reason string) (text string, covered []string, ok bool) {
	switch {
	case reason == "activate (the supervisor's own session)":
		return "superclaude opened a session of its own for the agent (no skill activated one)",
			[]string{"auto", "lifecycle", "pid", "sessionId"}, true
	case reason == "activate":
		return "the session was activated", []string{"lifecycle", "pid", "auto"}, true
	case strings.HasPrefix(reason, "activate "):
		return "skill " + strings.TrimPrefix(reason, "activate ") + " activated the session",
			[]string{"skill", "lifecycle", "pid", "auto"}, true
	case reason == "hook session-start: the handoff marker delivered":
		return "the new agent was told that its predecessor's save and restart are done", []string{"handoff"}, true
	case reason == "restart requested":
		return "a restart was asked for: the next agent starts with a fresh context and the continuation prompt",
			[]string{"killRequested", "restartPrompt", "sessionId"}, true
	case reason == "reset: the progress breaker re-armed":
		return "+session reset: superclaude restarts the agent again when it ends", []string{"halted"}, true
	case reason == "deactivate":
		return "the skill completed the session", []string{"lifecycle"}, true
	case strings.HasPrefix(reason, "halted: "):
		return haltedPhrase(strings.TrimPrefix(reason, "halted: ")), []string{"halted", "lastExit"}, true
	case reason == "supervisor start: "+chosenConversation:
		return "superclaude started, on the conversation you chose", []string{"lifecycle", "pid", "sessionId"}, true
	case strings.HasPrefix(reason, "phase "):
		return "now in " + reason, []string{"currentPhase"}, true
	case strings.HasPrefix(reason, "supervisor start: "):
		return "superclaude started: " + strings.TrimPrefix(reason, "supervisor start: "), []string{"lifecycle", "pid"}, true
	}
	return "", nil, false
}

// describeTransition words a state change: a headline for the reasons
// that have one, else the reason made plain, and then what changed, in
// words (fieldPhrase).
func describeTransition(reason string, changes map[string][2]any) string {
	head, covered := plainReason(reason), map[string]bool{}
	if text, fields, ok := headline(reason); ok {
		head = text
		for _, f := range fields {
			covered[f] = true
		}
	}
	var phrases []string
	if p, fields := decisionPhrase(changes); p != "" {
		phrases = append(phrases, p)
		for _, f := range fields {
			covered[f] = true
		}
	}
	for _, k := range orderedKeys(changes) {
		if covered[k] {
			continue
		}
		if p := fieldPhrase(k, changes[k][0], changes[k][1]); p != "" {
			phrases = append(phrases, p)
		}
	}
	what := strings.Join(phrases, "; ")
	switch {
	case head == "":
		return what
	case what == "":
		return head
	}
	return head + ": " + what
}

// decisionPhrase words, as one, the writes of a decision for a fresh
// start with the continuation prompt (supervise's applyPlan): the restart
// request cleared, the prompt handed over, the session restarting, and
// the marker that tells the new agent its predecessor saved its work —
// four fields, one thing that happened, which field by field made a line
// of five clauses. It returns the fields it says.
func decisionPhrase(changes map[string][2]any) (string, []string) {
	h, ok := changes["handoff"]
	if !ok || h[1] == nil || h[1] == "" {
		return "", nil
	}
	if l, ok := changes["lifecycle"]; !ok || l[1] != string(state.Restarting) {
		return "", nil
	}
	return "a fresh start with the continuation prompt; the new agent will be told its predecessor saved its work",
		[]string{"handoff", "lifecycle", "restartPrompt", "killRequested", "sessionId"}
}

// haltedPhrase says that superclaude stopped restarting the agent, why,
// and what starts it again.
func haltedPhrase(why string) string {
	return "HALTED: superclaude no longer restarts the agent (" + why + "); superclaude +session reset lets it restart again"
}

// plainReason drops from a reason what Who already says (the hook's or
// status line's name) and words superclaude's own shorthands.
func plainReason(reason string) string {
	switch {
	case reason == "status line", reason == "agent status", reason == "update", reason == "conversation unknown":
		return ""
	case strings.HasPrefix(reason, "hook "):
		_, rest, ok := strings.Cut(reason, ": ")
		if !ok {
			return ""
		}
		return rest
	case strings.HasPrefix(reason, "taken over by "):
		return "a skill's session took over (" + strings.TrimPrefix(reason, "taken over by ") + "): this one is done"
	case strings.HasPrefix(reason, "target "):
		return "the status line shows " + strings.TrimPrefix(reason, "target ")
	}
	return reason
}

// fieldOrder is the order a transition's changes are said in: the most
// telling first. Fields not listed come after, by name.
var fieldOrder = []string{"halted", "overflowed", "limit", "lastExit", "killRequested", "lifecycle", "sessionId",
	"restartPrompt", "handoff", "skill", "currentPhase", "fleetPaneId", "pid", "auto"}

func orderedKeys(changes map[string][2]any) []string {
	rank := map[string]int{}
	for i, k := range fieldOrder {
		rank[k] = i + 1
	}
	keys := make([]string, 0, len(changes))
	for k := range changes {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		ri, rj := rank[keys[i]], rank[keys[j]]
		if ri == 0 {
			ri = len(fieldOrder) + 1
		}
		if rj == 0 {
			rj = len(fieldOrder) + 1
		}
		if ri != rj {
			return ri < rj
		}
		return keys[i] < keys[j]
	})
	return keys
}

// fieldPhrase words one change of a state field, old to new (nil: absent).
// A field this does not know is named as changed: a new field still shows,
// and --verbose has its values.
func fieldPhrase(field string, old, new any) string {
	s := func(v any) string {
		switch v := v.(type) {
		case nil:
			return ""
		case float64: // JSON's numbers: a PID is no 1.7e+06
			return strconv.FormatFloat(v, 'f', -1, 64)
		}
		return fmt.Sprint(v)
	}
	or := func(word, raw string) string {
		if word == "" {
			return raw
		}
		return word
	}
	o, n := s(old), s(new)
	set, cleared := n != "" && n != "false" && n != "0", n == "" || n == "false" || n == "0"
	switch field {
	case "sessionId":
		switch {
		case cleared:
			return "its conversation let go (the next agent starts a new one)"
		case o != "":
			return "the agent is in conversation " + shortID(n) + " (was " + shortID(o) + ")"
		}
		return "the agent is in conversation " + shortID(n)
	case "lifecycle":
		return lifecyclePhrase(o, n)
	case "overflowed":
		if set {
			return "the context window is full: tools are refused until the agent saves its work and restarts"
		}
		return "the context window is no longer marked full"
	case "killRequested":
		if set {
			return "a restart is under way"
		}
		return "the restart is done"
	case "pid":
		if set {
			return "run by superclaude pid " + n
		}
		return "no longer run by a supervisor"
	case "fleetPaneId":
		if set {
			return "the session of pane " + tmux.Short(n)
		}
		return "no longer the session of pane " + tmux.Short(o)
	case "skill":
		if set {
			return "skill " + n
		}
		return "no skill"
	case "currentPhase":
		if set {
			return "phase " + n
		}
		return "no phase"
	case "restartPrompt":
		if set {
			return "the continuation prompt for the next agent is written"
		}
		return "the continuation prompt was handed to the new agent"
	case "auto":
		if set {
			return "superclaude's own session (no skill activated one)"
		}
		return "now a skill's session"
	case "limit":
		if set {
			return "waiting out the " + n
		}
		return "the " + o + " is over"
	case "halted":
		if set {
			return haltedPhrase(n)
		}
		return "superclaude restarts the agent again when it ends"
	case "lastExit":
		return "the agent " + or(map[string]string{
			"crash": "crashed", "limit": "stopped at a usage limit", "no-progress": "ended without making progress",
			"restart-loop": "was restarted too often", "user-exit": "was exited by the person", "stopped": "was stopped",
			"restarted": "was restarted",
		}[n], "ended: "+n)
	case "handoff":
		if set {
			return "the next agent will be told its predecessor saved its work"
		}
		return "the new agent was told its predecessor's save and restart are done"
	case "conversationUnknown":
		if set {
			return "the agent's conversation cannot be learned (" + n + "): a restart starts a new one"
		}
		return "the agent's conversation is known again"
	case "pendingPrompts":
		return pendingPhrase(old, new)
	case "lastPromptId", "lastPromptAt":
		return "" // which prompt a turn's end answers: the reason says it
	}
	return field + " changed"
}

// lifecyclePhrase words where a session moved in its life, from old to
// new — a sentence, never the bare state word ("active" said nothing on
// the dashboard's LAST EVENT).
func lifecyclePhrase(old, new string) string {
	switch state.Lifecycle(new) {
	case state.Active:
		switch state.Lifecycle(old) {
		case state.Resuming:
			return "the conversation is resumed"
		case state.Restarting:
			return "the fresh agent took the session up"
		case "":
			return "the session is in use"
		}
		return "the session is in use again"
	case state.Completed:
		return "the session is completed"
	case state.Dehydrating:
		return "the agent is saving what it was doing"
	case state.Restarting:
		return "restarting the agent"
	case state.Resuming:
		return "resuming the conversation"
	}
	return "the session is now " + new
}

// pendingPhrase words a change of the person's prompts no turn has
// answered yet (state.State.PendingPrompts), as JSON decoded them.
func pendingPhrase(old, new any) string {
	was, now := asList(old), asList(new)
	begun := func(ps []any) int {
		n := 0
		for _, p := range ps {
			if m, _ := p.(map[string]any); m["turnAskedRestart"] == true {
				n++
			}
		}
		return n
	}
	switch {
	case len(now) == 0:
		return "no prompt of the person's waits for an answer"
	case len(now) == len(was) && begun(now) > begun(was) && len(now) == 1:
		return "the prompt of the person's that waits for an answer was under way when the agent asked for the restart"
	case len(now) == len(was) && begun(now) > begun(was):
		return fmt.Sprintf("the %d prompts of the person's that wait for an answer were under way when the agent asked for the restart", len(now))
	case len(now) == 1:
		return "1 prompt of the person's waits for an answer"
	}
	return fmt.Sprintf("%d prompts of the person's wait for an answer", len(now))
}

// asList is v as a JSON array, nil when it is not one.
func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// shortID shortens a conversation id to its first 8 characters: enough to
// tell conversations apart on a screen (+history shows them whole).
func shortID(id string) string {
	if len(id) > 8 {
		return id[:8] + "…"
	}
	return id
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

// describeDetail renders an event's details as key=value, sorted.
func describeDetail(detail map[string]any) string {
	keys := make([]string, 0, len(detail))
	for k := range detail {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+short(detail[k]))
	}
	return "(" + strings.Join(parts, ", ") + ")"
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

// clauseSeps are where a line of Describe's is cut into clauses, for
// sayOnce.
var clauseSeps = []string{" — ", "; ", ": ", ", "}

// sayOnce drops from line every clause said already: one equal to an
// earlier clause, or of three words or more and found whole (at word
// boundaries) in an earlier one. A line is put together from an event's
// parts — what happened, the decision, its reason — that often say the
// same thing ("restart requested; resuming the conversation: the agent
// was restarted; resuming the conversation"). A dropped clause takes the
// separator before it with it.
func sayOnce(line string) string {
	type clause struct{ sep, text string }
	var cs []clause
	sep := ""
	for rest := line; ; {
		i, width := -1, 0
		for _, s := range clauseSeps {
			if j := strings.Index(rest, s); j >= 0 && (i < 0 || j < i) {
				i, width = j, len(s)
			}
		}
		if i < 0 {
			cs = append(cs, clause{sep, rest})
			break
		}
		cs = append(cs, clause{sep, rest[:i]})
		sep, rest = rest[i:i+width], rest[i+width:]
	}
	var b strings.Builder
	var said []string
	for _, c := range cs {
		t := strings.ToLower(strings.TrimSpace(c.text))
		if t != "" && saidIn(t, said) {
			continue
		}
		said = append(said, t)
		if b.Len() > 0 {
			b.WriteString(c.sep)
		}
		b.WriteString(c.text)
	}
	return b.String()
}

// saidIn reports whether clause t was said in one of said: the same, or,
// three words or more, a part of one at word boundaries.
func saidIn(t string, said []string) bool {
	long := len(strings.Fields(t)) >= 3
	for _, s := range said {
		if s == t {
			return true
		}
		if !long {
			continue
		}
		for i := strings.Index(s, t); i >= 0; {
			end := i + len(t)
			if (i == 0 || !isWordByte(s[i-1])) && (end == len(s) || !isWordByte(s[end])) {
				return true
			}
			j := strings.Index(s[i+1:], t)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80
}
