package claude

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
)

// testdata holds the payloads the real CLI (2.1.330) sent, saved by the
// lab tests of e2e (SUPERCLAUDE_LAB_SAVE); hook-PreToolUse-Skill-dehydrate.json
// is hook-PreToolUse.json with the Skill call the lab saw the model make.
func sample(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func TestStatusLineSamples(t *testing.T) {
	for _, tc := range []struct {
		file     string
		session  string
		usage    float64
		hasUsage bool
	}{
		{"statusline-startup.json", "092ea89d-33b0-4db4-8242-cd623ef49030", 0, false},
		{"statusline-after-turn-175k.json", "092ea89d-33b0-4db4-8242-cd623ef49030", 0.18, true},
		{"statusline-after-resume.json", "11111111-2222-4333-8444-555555555555", 0.99, true},
		{"statusline-80pct-1M.json", "", 0.80, true},
	} {
		s, err := ParseStatusLine(sample(t, tc.file))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		u, ok := s.Usage()
		if ok != tc.hasUsage || (ok && (u < tc.usage-1e-9 || u > tc.usage+1e-9)) || (tc.session != "" && s.SessionID != tc.session) {
			t.Errorf("%s: session %q usage %v %v", tc.file, s.SessionID, u, ok)
		}
		if s.Model.DisplayName == "" {
			t.Errorf("%s: no model", tc.file)
		}
	}
}

func base() *state.State {
	return &state.State{Lifecycle: state.Active, StartedAt: now.Add(-time.Hour), ContextUsage: 0.4, SessionID: "old"}
}

func TestBindGuardsTheSessionID(t *testing.T) {
	tick, _ := ParseStatusLine(sample(t, "statusline-after-turn-175k.json"))
	startup, _ := ParseStatusLine(sample(t, "statusline-startup.json"))
	for _, tc := range []struct {
		name      string
		st        func(*state.State)
		tick      StatusLine
		sessionID string
		usage     float64
		lifecycle state.Lifecycle
	}{
		{"binds", nil, tick, tick.SessionID, 0.18, state.Active},
		{"startup null usage keeps the stored value", nil, startup, startup.SessionID, 0.4, state.Active},
		{"R1: kill requested", func(s *state.State) { s.KillRequested, s.SessionID = true, "" }, tick, "", 0.18, state.Active},
		{"R1: overflowed", func(s *state.State) { s.Overflowed = true }, tick, "old", 0.18, state.Active},
		{"R1: dehydrating", func(s *state.State) { s.Lifecycle = state.Dehydrating }, tick, "old", 0.18, state.Dehydrating},
		{"resumed conversation becomes active", func(s *state.State) { s.Lifecycle = state.Resuming }, tick, tick.SessionID, 0.18, state.Active},
		{"empty payload", nil, StatusLine{}, "old", 0.4, state.Active},
	} {
		st := base()
		if tc.st != nil {
			tc.st(st)
		}
		Bind(st, tc.tick, now)
		if st.SessionID != tc.sessionID || st.ContextUsage != tc.usage || st.Lifecycle != tc.lifecycle || !st.LastHeartbeat.Equal(now) {
			t.Errorf("%s: %+v", tc.name, st)
		}
	}
}

func TestRender(t *testing.T) {
	in := LineInfo{Session: "2026_11_21_SDK", Skill: "implement", Phase: "Phase 2", Model: "Opus 5.5", CostUSD: 0.634, Usage: 0.18, HasUsage: true}
	plain := Render(in, false)
	if plain != "2026_11_21_SDK · implement/Phase 2 · Opus 5.5 · $0.63 · ctx 18%" {
		t.Fatalf("plain: %q", plain)
	}
	if strings.Contains(plain, "\x1b") {
		t.Fatal("escapes with colour off")
	}
	for _, tc := range []struct {
		usage float64
		color string
	}{{0.18, green}, {0.65, yellow}, {0.76, red}, {0.99, red}} {
		in.Usage = tc.usage
		if got := Render(in, true); !strings.Contains(got, tc.color+"ctx") {
			t.Errorf("usage %v: %q, want colour %q", tc.usage, got, tc.color)
		}
	}
	if got := Render(LineInfo{Problem: "no session", Model: "Opus"}, false); got != "no session · Opus · $0.00 · ctx –" {
		t.Errorf("problem line: %q", got)
	}
	in.Overflowed = true
	if got := Render(in, false); !strings.Contains(got, "OVERFLOW") {
		t.Errorf("overflow not shown: %q", got)
	}
}

func hook(t *testing.T, file string, edit func(map[string]any)) HookInput {
	t.Helper()
	var m map[string]any
	json.Unmarshal(sample(t, file), &m)
	if edit != nil {
		edit(m)
	}
	b, _ := json.Marshal(m)
	in, err := ParseHookInput(b)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func bash(cmd string) func(map[string]any) {
	return func(m map[string]any) { m["tool_input"] = map[string]any{"command": cmd, "description": "x"} }
}

func TestPreToolUse(t *testing.T) {
	skill := func(f func(*state.State)) func(*state.State) {
		return func(s *state.State) {
			s.Skill, s.ToolUseWithoutLogsWarnAfter, s.ToolUseWithoutLogsBlockAfter = "implement", 3, 10
			if f != nil {
				f(s)
			}
		}
	}
	key := "d297140c-1c36-4b25-ad4b-a2ff52142402.jsonl"
	self, _ := selfPolicy(t)
	gated := self
	gated.SessionRequired = true
	for _, tc := range []struct {
		name    string
		in      HookInput
		st      func(*state.State) // nil state when noSess
		noSess  bool
		policy  Policy
		deny    bool
		warn    bool
		change  Change
		inReply string
	}{
		{name: "healthy", in: hook(t, "hook-PreToolUse.json", nil)},
		{name: "no session, no gate", in: hook(t, "hook-PreToolUse.json", nil), noSess: true},
		{name: "S10 gate: no session", in: hook(t, "hook-PreToolUse.json", nil), noSess: true, policy: Policy{SessionRequired: true}, deny: true, inReply: "SESSION REQUIRED"},
		{name: "S10 gate: whitelisted session command", in: hook(t, "hook-PreToolUse.json", bash("superclaude +session activate sessions/X implement")), noSess: true, policy: gated},
		{name: "S10 gate: whitelisted read", in: hook(t, "hook-PreToolUse.json", func(m map[string]any) {
			m["tool_name"], m["tool_input"] = "Read", map[string]any{"file_path": "/home/u/.claude/CLAUDE.md"}
		}), noSess: true, policy: Policy{SessionRequired: true}},
		{name: "S10 gate: the supervisor's own session does not open it", in: hook(t, "hook-PreToolUse.json", nil), st: func(s *state.State) { s.Auto = true }, policy: Policy{SessionRequired: true}, deny: true, inReply: "no session is active"},
		{name: "the supervisor's own session without the gate", in: hook(t, "hook-PreToolUse.json", nil), st: func(s *state.State) { s.Auto = true }},
		{name: "S11 gate: completed", in: hook(t, "hook-PreToolUse.json", nil), st: func(s *state.State) { s.Lifecycle = state.Completed }, policy: Policy{SessionRequired: true}, deny: true, inReply: "is completed"},
		{name: "overflow blocks and marks", in: hook(t, "hook-PreToolUse.json", nil), st: func(s *state.State) { s.ContextUsage = 0.8 }, deny: true, change: Change{Overflowed: true}, inReply: "/superclaude:session dehydrate restart"},
		{name: "custom threshold", in: hook(t, "hook-PreToolUse.json", nil), st: func(s *state.State) { s.ContextUsage = 0.6 }, policy: Policy{Threshold: 0.5}, deny: true, change: Change{Overflowed: true}},
		{name: "overflowed stays blocked", in: hook(t, "hook-PreToolUse.json", nil), st: func(s *state.State) { s.Overflowed = true; s.ContextUsage = 0 }, deny: true},
		{name: "dehydrate passes and starts dehydrating", in: hook(t, "hook-PreToolUse-Skill-dehydrate.json", nil), st: func(s *state.State) { s.Overflowed = true }, change: Change{Dehydrating: true}},
		{name: "R4: dehydrating lets everything through", in: hook(t, "hook-PreToolUse.json", nil), st: func(s *state.State) { s.Overflowed, s.Lifecycle = true, state.Dehydrating }},
		{name: "kill requested lets everything through", in: hook(t, "hook-PreToolUse.json", nil), st: func(s *state.State) { s.Overflowed, s.KillRequested = true, true }},
		{name: "restarting: the fresh agent is not overflowed", in: hook(t, "hook-PreToolUse.json", nil), st: func(s *state.State) { s.Overflowed, s.Lifecycle = true, state.Restarting }},
		{name: "session command passes the overflow guard", in: hook(t, "hook-PreToolUse.json", bash(shellQuote(self.Self)+" +session restart")), st: func(s *state.State) { s.Overflowed = true }, policy: self},
		{name: "a command merely mentioning superclaude is blocked", in: hook(t, "hook-PreToolUse.json", bash("echo superclaude +sessions")), st: func(s *state.State) { s.Overflowed = true }, deny: true},
		{name: "heartbeat counts", in: hook(t, "hook-PreToolUse.json", nil), st: skill(nil), change: Change{CountKey: key}},
		{name: "heartbeat warns", in: hook(t, "hook-PreToolUse.json", nil), st: skill(func(s *state.State) { s.ToolCallsByTranscript = map[string]int{key: 2} }), warn: true, change: Change{CountKey: key}, inReply: "Logging heartbeat"},
		{name: "heartbeat blocks", in: hook(t, "hook-PreToolUse.json", nil), st: skill(func(s *state.State) { s.ToolCallsByTranscript = map[string]int{key: 9} }), deny: true, change: Change{CountKey: key}, inReply: "LOGGING HEARTBEAT VIOLATION"},
		{name: "other transcripts do not count", in: hook(t, "hook-PreToolUse.json", nil), st: skill(func(s *state.State) { s.ToolCallsByTranscript = map[string]int{"agent-x.jsonl": 50} }), change: Change{CountKey: key}},
		{name: "logging resets", in: hook(t, "hook-PreToolUse.json", bash("superclaude +log <<'EOF'\nstep done\nEOF")), st: skill(func(s *state.State) { s.ToolCallsByTranscript = map[string]int{key: 9} }), policy: self, change: Change{ResetKey: key}},
		{name: "a seed's log.sh is not superclaude's log", in: hook(t, "hook-PreToolUse.json", bash("~/.claude/scripts/log.sh IMPL.md")), st: skill(func(s *state.State) { s.ToolCallsByTranscript = map[string]int{key: 9} }), policy: self, deny: true, change: Change{CountKey: key}, inReply: "LOGGING HEARTBEAT VIOLATION"},
		{name: "loading bypasses the heartbeat", in: hook(t, "hook-PreToolUse.json", nil), st: skill(func(s *state.State) { l := true; s.Loading = &l; s.ToolCallsByTranscript = map[string]int{key: 20} })},
		{name: "template read is not counted", in: hook(t, "hook-PreToolUse.json", func(m map[string]any) {
			m["tool_name"], m["tool_input"] = "Read", map[string]any{"file_path": "/p/TEMPLATE_IMPLEMENTATION_LOG.md"}
		}), st: skill(nil)},
		{name: "no skill, no heartbeat", in: hook(t, "hook-PreToolUse.json", nil), st: func(s *state.State) { s.ToolCallsByTranscript = map[string]int{key: 50} }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var st *state.State
			if !tc.noSess {
				st = base()
				if tc.st != nil {
					tc.st(st)
				}
			}
			a, c := PreToolUse(tc.in, st, tc.policy)
			if a.Deny != tc.deny || (a.Context != "") != tc.warn || c != tc.change {
				t.Fatalf("answer %+v change %+v", a, c)
			}
			if tc.inReply != "" && !strings.Contains(a.Reason+a.Context, tc.inReply) {
				t.Fatalf("reply %q lacks %q", a.Reason+a.Context, tc.inReply)
			}
		})
	}
}

func TestAnswerProtocol(t *testing.T) {
	var out, errb bytes.Buffer
	if code := (Answer{Deny: true, Reason: "R"}).Write("PreToolUse", &out, &errb); code != 0 {
		t.Fatalf("deny exit %d", code)
	}
	var v struct {
		H struct {
			Event    string `json:"hookEventName"`
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out.Bytes(), &v); err != nil || v.H.Event != "PreToolUse" || v.H.Decision != "deny" || v.H.Reason != "R" {
		t.Fatalf("deny JSON %q %v", out.String(), err)
	}
	out.Reset()
	if code := (Answer{Block: true, Reason: "stop"}).Write("PreCompact", &out, &errb); code != 2 || errb.String() != "stop\n" || out.Len() != 0 {
		t.Fatalf("block: %d %q %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := (Answer{}).Write("PreToolUse", &out, &errb); code != 0 || out.Len() != 0 {
		t.Fatalf("allow: %d %q", code, out.String())
	}
	if code := (Answer{Context: "C"}).Write("SessionStart", &out, &errb); code != 0 || !strings.Contains(out.String(), `"additionalContext":"C"`) {
		t.Fatalf("context: %d %q", code, out.String())
	}
}

func TestOtherHookEventsOnTheSamples(t *testing.T) {
	sess := &state.Session{Name: "S", Dir: t.TempDir(), State: base()}
	sess.State.CurrentPhase = "Phase 2"

	ups := hook(t, "hook-UserPromptSubmit.json", nil)
	if a := UserPromptSubmit(ups, sess, Policy{}); a != (Answer{}) {
		t.Errorf("UPS with a healthy session: %+v", a)
	}
	if a := UserPromptSubmit(ups, nil, Policy{SessionRequired: true}); !strings.Contains(a.Context, "no session is active") {
		t.Errorf("S10: %+v", a)
	}
	own := &state.Session{Name: "A", State: base()}
	own.State.Auto = true
	if a := UserPromptSubmit(ups, own, Policy{SessionRequired: true}); !strings.Contains(a.Context, "no session is active") {
		t.Errorf("S10 with the supervisor's own session: %+v", a)
	}
	done := &state.Session{Name: "S", State: base()}
	done.State.Lifecycle, done.State.Skill = state.Completed, "implement"
	if a := UserPromptSubmit(ups, done, Policy{SessionRequired: true}); !strings.Contains(a.Context, "S (skill implement) is completed") {
		t.Errorf("S11: %+v", a)
	}

	auto := hook(t, "hook-PreCompact-auto.json", nil)
	if a, mark := PreCompact(auto, sess.State); !a.Block || !mark {
		t.Errorf("PreCompact auto: %+v %v", a, mark)
	}
	if a, _ := PreCompact(auto, sess.State); a.Restart == "" {
		t.Errorf("a blocked compaction does not ask the supervisor to restart: %+v", a)
	}
	tooLong := hook(t, "hook-StopFailure-prompt-too-long.json", nil)
	if a, mark := StopFailure(tooLong, sess.State); a.Restart == "" || !mark || a.Block || a.Deny {
		t.Errorf("StopFailure prompt too long: %+v %v", a, mark)
	}
	other := hook(t, "hook-StopFailure-prompt-too-long.json", func(m map[string]any) {
		m["error"], m["error_details"], m["last_assistant_message"] = "server_error", "500 overloaded", "API Error"
	})
	if a, mark := StopFailure(other, sess.State); a.Restart != "" || mark {
		t.Errorf("StopFailure for another error asked for a restart: %+v", a)
	}
	manual := hook(t, "hook-PreCompact-auto.json", func(m map[string]any) { m["trigger"] = "manual" })
	if a, _ := PreCompact(manual, sess.State); a.Block {
		t.Errorf("manual compaction blocked")
	}

	for file, want := range map[string]string{
		"hook-SessionStart.json":         "runs in session S",
		"hook-SessionStart-resume.json":  "resumed the conversation",
		"hook-SessionStart-clear.json":   "was cleared",
		"hook-SessionStart-compact.json": "context compacted",
	} {
		a := SessionStart(hook(t, file, nil), sess)
		if !strings.Contains(a.Context, want) || !strings.Contains(a.Context, "Phase 2") {
			t.Errorf("%s: %q", file, a.Context)
		}
	}
	// A fresh start after an overflow restart points at the saved context.
	os.WriteFile(filepath.Join(sess.Dir, state.DehydratedFile), []byte("x"), 0o600)
	sess.State.Lifecycle = state.Restarting
	if a := SessionStart(hook(t, "hook-SessionStart.json", nil), sess); !strings.Contains(a.Context, state.DehydratedFile) {
		t.Errorf("startup after restart: %q", a.Context)
	}
	// The empty SessionEnd sample and garbage parse as errors, never panics.
	if _, err := ParseHookInput(sample(t, "hook-SessionEnd.json")); err == nil {
		t.Error("empty payload parsed")
	}
}

func TestCommandLineRunsACommandOnlyWhereTheShellWould(t *testing.T) {
	p, _ := selfPolicy(t)
	for cmd, want := range map[string]bool{
		"superclaude +session restart":                   true,
		p.Self + " +session phase x":                     true,
		"cd x && superclaude +log <<'EOF'\nentry\nEOF\n": true,
		"echo superclaude +session":                      false, // the words are there, the command is echo
		"superclaude +status":                            false,
		"/usr/local/bin/superclaude +session phase x":    false, // another file
		"session.sh phase 'x'":                           false,
	} {
		if got := parseCommandLine(cmd).runs(p.isSelf, "+session", "+log"); got != want {
			t.Errorf("runs(%q) = %v", cmd, got)
		}
	}
}

func TestBookkeepingUnderAnotherName(t *testing.T) {
	p, bin := selfPolicy(t)
	st := base()
	st.Overflowed = true
	in := hook(t, "hook-PreToolUse.json", bash("sc +session restart"))
	if a, _ := PreToolUse(in, st, p); !a.Deny {
		t.Fatal("an unknown program was taken for superclaude")
	}
	os.Symlink(p.Self, filepath.Join(bin, "sc"))
	if a, _ := PreToolUse(hook(t, "hook-PreToolUse.json", bash(filepath.Join(bin, "sc")+" +session restart")), st, p); a.Deny {
		t.Fatalf("superclaude installed as sc was blocked: %+v", a)
	}
	gated := p
	gated.SessionRequired = true
	if a, _ := PreToolUse(in, nil, gated); a.Deny {
		t.Fatalf("superclaude installed as sc, by its bare name, was refused by the gate: %+v", a)
	}
}

func TestClaimTakesOverOnlyFromTheDead(t *testing.T) {
	sup := proc.Identity{PID: 500, Start: 9, Boot: "b"}
	st := base()
	st.PID = 400
	if Claim(st, sup, true) || st.PID != 400 {
		t.Fatal("a live owner was displaced")
	}
	if !Claim(st, sup, false) || st.PID != 500 || st.PIDStart != 9 {
		t.Fatalf("a dead owner was not replaced: %+v", st)
	}
	if Claim(st, sup, false) {
		t.Fatal("claimed what it already owns")
	}
	if Claim(st, proc.Identity{}, false) {
		t.Fatal("claimed with no supervisor")
	}
}

// Regression: a restart of a session with no recorded phase told the fresh
// Claude to carry on at "Phase 1: Setup", a phase the work never had. The
// prompt names only what was recorded.
func TestContinuePromptNamesOnlyWhatWasRecorded(t *testing.T) {
	for _, tc := range []struct{ skill, phase, want string }{
		{"", "", "/superclaude:session continue --session S"},
		{"implement", "", "/superclaude:session continue --session S --skill implement"},
		{"implement", "Phase 2: Build", `/superclaude:session continue --session S --skill implement --phase "Phase 2: Build"`},
	} {
		if got := ContinuePrompt("S", tc.skill, tc.phase); got != tc.want {
			t.Errorf("ContinuePrompt(S, %q, %q) = %q, want %q", tc.skill, tc.phase, got, tc.want)
		}
	}
}
