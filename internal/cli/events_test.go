package cli

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
)

// Regression, issue 19: +why and the dashboard's LAST EVENT showed the
// state file's field names and values ("supervisor status line: sessionId
// = \"…\"", "hook session-start … the handoff marker delivered: handoff
// deleted"). Every kind of event the code writes is now said in words.
func TestEventsAreSaidInWords(t *testing.T) {
	for _, tc := range []struct {
		name string
		ev   state.Event
		want string
	}{
		{"the status line binds a conversation",
			state.Event{Actor: "supervisor", Kind: "transition", Reason: "status line",
				Changes: map[string][2]any{"sessionId": {nil, "0f3a12cd-5e6f-4a1b-9c2d-7e8f9a0b1c2d"}}},
			"the agent is in conversation 0f3a12cd…"},
		{"the handoff is delivered",
			state.Event{Actor: "hook session-start", Kind: "transition", Reason: "hook session-start: the handoff marker delivered",
				Changes: map[string][2]any{"handoff": {"2026-11-25T10:00:00Z", nil}}},
			"the new agent was told that its predecessor's save and restart are done"},
		{"the overflow guard trips",
			state.Event{Actor: "hook pre-tool-use", Kind: "transition", Reason: "hook pre-tool-use",
				Changes: map[string][2]any{"overflowed": {false, true}}},
			"the context window is full: tools are refused until the agent saves its work and restarts"},
		{"superclaude's own session",
			state.Event{Actor: "supervisor", Kind: "transition", Reason: "activate (the supervisor's own session)",
				Changes: map[string][2]any{"auto": {nil, true}, "fleetPaneId": {nil, "work:main:A"}, "lifecycle": {"", "active"}, "pid": {0.0, 4194303.0}}},
			"superclaude opened a session of its own for the agent (no skill activated one): the session of pane work:main:A"},
		{"a skill activates",
			state.Event{Actor: "session activate", Kind: "transition", Reason: "activate implement",
				Changes: map[string][2]any{"skill": {nil, "implement"}, "pid": {17.0, 4194303.0}}},
			"skill implement activated the session"},
		{"a restart request",
			state.Event{Actor: "session restart", Kind: "transition", Reason: "restart requested",
				Changes: map[string][2]any{"killRequested": {false, true}, "restartPrompt": {nil, "/superclaude:session continue"}, "sessionId": {"abc", nil}}},
			"a restart was asked for: the next agent starts with a fresh context and the continuation prompt"},
		{"the supervisor resumes",
			state.Event{Actor: "supervisor", Kind: "transition", Reason: "supervisor start: resuming the pane's previous conversation",
				Changes: map[string][2]any{"lifecycle": {"active", "resuming"}, "pid": {1.0, 2.0}}},
			"superclaude started: resuming the pane's previous conversation"},
		{"halted",
			state.Event{Actor: "supervisor", Kind: "transition", Reason: "halted: 11 restarts in 10m",
				Changes: map[string][2]any{"halted": {nil, "11 restarts in 10m"}}},
			"HALTED: superclaude no longer restarts the agent (11 restarts in 10m); superclaude +session reset lets it restart again"},
		{"a pane moves on",
			state.Event{Actor: "session activate", Kind: "transition", Reason: "pane work:main:A claimed by other",
				Changes: map[string][2]any{"fleetPaneId": {"work:main:A", nil}}},
			"pane work:main:A claimed by other: no longer the session of pane work:main:A"},
		{"a pid past a million",
			state.Event{Actor: "supervisor", Kind: "transition", Reason: "update", Changes: map[string][2]any{"pid": {nil, 4194303.0}}},
			"run by superclaude pid 4194303"},
		{"a prompt noted (issue 18's carrying): no field names",
			state.Event{Actor: "hook user-prompt-submit", Kind: "transition", Reason: "hook user-prompt-submit: the person's prompt noted",
				Changes: map[string][2]any{"pendingPrompts": {nil, []any{map[string]any{"text": "hi"}}}, "lastPromptId": {nil, "p1"}, "lastPromptAt": {nil, "2026-11-25T10:00:00Z"}}},
			"the person's prompt noted: 1 prompt of the person's waits for an answer"},
		{"the prompts answered",
			state.Event{Actor: "hook stop", Kind: "transition", Reason: "hook stop: the turn answered the pending prompts",
				Changes: map[string][2]any{"pendingPrompts": {[]any{map[string]any{"text": "a"}, map[string]any{"text": "b"}}, nil}}},
			"the turn answered the pending prompts: no prompt of the person's waits for an answer"},
		{"the prompts of the turn that asked for a restart",
			state.Event{Actor: "supervisor", Kind: "transition", Reason: "restart requested",
				Changes: map[string][2]any{"killRequested": {false, true}, "pendingPrompts": {[]any{map[string]any{"text": "a"}},
					[]any{map[string]any{"text": "a", "turnAskedRestart": true}}}}},
			"a restart was asked for: the next agent starts with a fresh context and the continuation prompt: the prompt of the person's that waits for an answer was under way when the agent asked for the restart"},
		{"a field added later",
			state.Event{Actor: "supervisor", Kind: "transition", Changes: map[string][2]any{"somethingNew": {1.0, 2.0}}},
			"somethingNew changed"},
		{"agent start, fresh",
			state.Event{Actor: "supervisor", Kind: "agent-start", Reason: "first start", Detail: map[string]any{"pid": 17966.0, "plan": "fresh"}},
			"started the agent (pid 17966) with a fresh context — first start"},
		{"agent start, resume",
			state.Event{Actor: "supervisor", Kind: "agent-start", Reason: "resuming the pane's previous conversation",
				Detail: map[string]any{"pid": 18073.0, "plan": "resume", "conversation": "conv-A"}},
			"started the agent (pid 18073) resuming its conversation conv-A — resuming the pane's previous conversation"},
		{"agent exit",
			state.Event{Actor: "supervisor", Kind: "agent-exit", Reason: "superclaude was asked to stop; the agent exited with 143",
				Detail: map[string]any{"exit": "exited with 143", "killedByUs": true, "swept": 2.0, "decision": "stop"}},
			"the agent exited with 143, stopped by superclaude; 2 processes it left behind were ended; next: superclaude stops — superclaude was asked to stop"},
		// Issue 19's first hour: lines that said a thing twice, or
		// called a resumed conversation a fresh context.
		{"the person's exit, said once",
			state.Event{Actor: "supervisor", Kind: "agent-exit", Reason: "the user's own exit: the agent exited with 0",
				Detail: map[string]any{"exit": "exited with 0", "decision": "stop"}},
			"the agent exited with 0; next: superclaude stops — the user's own exit"},
		{"a start on the conversation the person chose (+resume N)",
			state.Event{Actor: "supervisor", Kind: "agent-start", Reason: "the user chose the conversation",
				Detail: map[string]any{"pid": 28430.0, "plan": "fresh", "args": []any{"--settings", "s.json", "--resume", "conv-one"}}},
			"started the agent (pid 28430) on the conversation you chose, conv-one"},
		{"the supervisor starts on the conversation the person chose",
			state.Event{Actor: "supervisor", Kind: "transition", Reason: "supervisor start: the user chose the conversation",
				Changes: map[string][2]any{"sessionId": {"conv-one", nil}, "pid": {1.0, 2.0}}},
			"superclaude started, on the conversation you chose"},
		{"a phase",
			state.Event{Actor: "session phase", Kind: "transition", Reason: "phase Phase 2: Build",
				Changes: map[string][2]any{"currentPhase": {nil, "Phase 2: Build"}}},
			"now in phase Phase 2: Build"},
		{"an unlabelled pane, as a person knows it",
			state.Event{Actor: "supervisor", Kind: "transition", Reason: "activate (the supervisor's own session)",
				Changes: map[string][2]any{"auto": {nil, true}, "fleetPaneId": {nil, "%0@/tmp/tmux-0/default@1796160946"}}},
			"superclaude opened a session of its own for the agent (no skill activated one): the session of pane %0"},
		{"a restart",
			state.Event{Actor: "supervisor", Kind: "restart", Reason: "restart asked for from the dashboard", Detail: map[string]any{"waitedMs": 3200.0}},
			"a restart was asked for (waited 3.2 s for the agent to finish its turn) — restart asked for from the dashboard"},
		{"a resume choice", state.Event{Actor: "supervisor", Kind: "resume-choice", Reason: "new"}, "the person chose: a new conversation"},
		// Issue 19's "Words": the dashboard's LAST EVENT and +why's last
		// line said the bare word "active"; one restart asked for from
		// the dashboard said "resuming the conversation" twice in a line,
		// and a fresh restart's decision was five clauses, cut mid-word
		// on the dashboard.
		{"a resumed conversation is bound: no bare state word",
			state.Event{Actor: "supervisor", Kind: "transition", Reason: "status line",
				Changes: map[string][2]any{"lifecycle": {"resuming", "active"}}},
			"the conversation is resumed"},
		{"a fresh agent takes the session up",
			state.Event{Actor: "session activate", Kind: "transition", Reason: "activate",
				Changes: map[string][2]any{"lifecycle": {"restarting", "active"}, "overflowed": {true, false}}},
			"the session was activated: the context window is no longer marked full"},
		{"the decision to resume, said once",
			state.Event{Actor: "supervisor", Kind: "transition", Reason: "a restart was asked for; resuming the conversation",
				Changes: map[string][2]any{"lastExit": {"user-exit", "restarted"}, "lifecycle": {"active", "resuming"}}},
			"a restart was asked for; resuming the conversation: the agent was restarted"},
		{"the decision to start fresh with the continuation prompt, in one clause",
			state.Event{Actor: "supervisor", Kind: "transition", Reason: "a restart was asked for: a fresh start with the continuation prompt",
				Changes: map[string][2]any{"killRequested": {true, false}, "lifecycle": {"active", "restarting"},
					"restartPrompt": {"/superclaude:session continue --session work", nil}, "handoff": {nil, "a restart was asked for"}}},
			"a restart was asked for: a fresh start with the continuation prompt; the new agent will be told its predecessor saved its work"},
		{"the agent stopped for a restart that resumes, said once",
			state.Event{Actor: "supervisor", Kind: "agent-exit", Reason: "a restart was asked for; resuming the conversation",
				Detail: map[string]any{"exit": "exited with 143", "killedByUs": true, "decision": "resume"}},
			"the agent exited with 143, stopped by superclaude; next: resuming the conversation — a restart was asked for"},
		{"the progress breaker let go by +session reset",
			state.Event{Actor: "session reset", Kind: "transition", Reason: "reset: the progress breaker re-armed",
				Changes: map[string][2]any{"halted": {"no progress", nil}}},
			"+session reset: superclaude restarts the agent again when it ends"},
		{"conversation unknown, as a transition",
			state.Event{Actor: "supervisor", Kind: "transition", Reason: "conversation unknown",
				Changes: map[string][2]any{"conversationUnknown": {nil, "gemini was started with --resume latest"}}},
			"the agent's conversation cannot be learned (gemini was started with --resume latest): a restart starts a new one"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Describe(tc.ev)
			if got != tc.want {
				t.Errorf("Describe =\n  %q\nwant\n  %q", got, tc.want)
			}
			line := FormatEvent(tc.ev)
			// No field name of the state file, no raw diff arrow, no Go
			// value syntax, no implementation's word on the person's line.
			if m := regexp.MustCompile(`sessionId|killRequested|fleetPaneId|restartPrompt|overflowed:|: false|→|<nil>|e\+0|breaker|re-arm|heartbeat`).FindString(line); m != "" {
				t.Errorf("FormatEvent shows %q: %s", m, line)
			}
			if strings.TrimSpace(got) == "active" || strings.HasSuffix(got, ": active") {
				t.Errorf("Describe says the bare state word: %q", got)
			}
		})
	}
}

func TestWhoNamesTheActorForAPerson(t *testing.T) {
	for actor, want := range map[string]string{
		"supervisor": "superclaude", "watchdog": "superclaude", "statusline": "claude", "hook pre-tool-use": "claude",
		"session activate": "+session activate", "log": "+log", "someone": "someone",
	} {
		if got := Who(actor); got != want {
			t.Errorf("Who(%q) = %q, want %q", actor, got, want)
		}
	}
}

func TestVerboseKeepsTheRawEvent(t *testing.T) {
	ev := state.Event{Time: time.Now(), Actor: "hook pre-tool-use", Kind: "transition", Reason: "hook pre-tool-use",
		Changes: map[string][2]any{"overflowed": {false, true}}}
	if got := FormatEventVerbose(ev); !strings.Contains(got, "hook pre-tool-use: overflowed: false → true") {
		t.Errorf("verbose: %s", got)
	}
	ev = state.Event{Time: time.Now(), Actor: "supervisor", Kind: "agent-exit", Reason: "r", Detail: map[string]any{"exit": "exited with 1"}}
	if got := FormatEventVerbose(ev); !strings.Contains(got, `agent-exit: r (exit="exited with 1")`) {
		t.Errorf("verbose: %s", got)
	}
}

// sayOnce drops a clause said already in the line — the same, or found
// whole in an earlier one — but never a clause that only looks like one
// ("exited with 1" is not said by "exited with 143").
func TestSayOnce(t *testing.T) {
	for in, want := range map[string]string{
		"restart requested; resuming the conversation: the agent was restarted; resuming the conversation": "restart requested; resuming the conversation: the agent was restarted",
		"a restart was asked for — a restart was asked for":                                                "a restart was asked for",
		"the agent exited with 143; the agent exited with 1":                                               "the agent exited with 143; the agent exited with 1",
		"now in phase Phase 2: Build":                                                                      "now in phase Phase 2: Build",
		"a fresh start with the prompt: a fresh start":                                                     "a fresh start with the prompt",
		"no: no": "no",
		"":       "",
	} {
		if got := sayOnce(in); got != want {
			t.Errorf("sayOnce(%q) = %q, want %q", in, got, want)
		}
	}
}
