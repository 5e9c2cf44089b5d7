package claude

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
)

// The payloads are what 2.1.330 sent in the lab (docs/claude-code-limits.md).
func TestStopFailureLimit(t *testing.T) {
	now := time.Date(2026, 11, 22, 20, 51, 10, 0, time.UTC)
	usage := hook(t, "hook-StopFailure-usage-limit.json", nil)
	// The transcript named there is not here: the message's time is used.
	l, ok := StopFailureLimit(usage, now)
	if !ok || l.Kind != "5-hour usage limit" || !l.Until.Equal(time.Date(2026, 11, 22, 20, 52, 59, 0, time.UTC)) {
		t.Fatalf("usage limit from the message: %+v %v", l, ok)
	}
	// With the transcript, its exact reset.
	dir := t.TempDir()
	tr := filepath.Join(dir, "t.jsonl")
	entry := sample(t, "transcript-usage-limit-entry.json")
	os.WriteFile(tr, append(compact(t, entry), '\n'), 0o600)
	exact := hook(t, "hook-StopFailure-usage-limit.json", func(m map[string]any) { m["transcript_path"] = tr })
	if l, _ := StopFailureLimit(exact, now); !l.Until.Equal(time.Unix(1795380734, 0)) || l.Kind != "5-hour usage limit" {
		t.Fatalf("usage limit from the transcript: %+v", l)
	}
	rate := hook(t, "hook-StopFailure-rate-limit.json", nil)
	if l, ok := StopFailureLimit(rate, now); !ok || l.Kind != "API rate limit" || !l.Until.Equal(now.Add(RateLimitWait)) {
		t.Fatalf("API rate limit: %+v %v", l, ok)
	}
	if _, ok := StopFailureLimit(hook(t, "hook-StopFailure-prompt-too-long.json", nil), now); ok {
		t.Fatal("a prompt too long taken for a limit")
	}
}

func TestParseResets(t *testing.T) {
	now := time.Date(2026, 11, 22, 23, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		msg  string
		want time.Time
	}{
		{"You've hit your 5-hour limit · resets 11:30pm (UTC)", time.Date(2026, 11, 22, 23, 30, 0, 0, time.UTC)},
		{"You've hit your 5-hour limit · resets 2am (UTC)", time.Date(2026, 11, 23, 2, 0, 0, 0, time.UTC)},
		{"You've hit your weekly limit · resets Nov 25, 4:30am (UTC)", time.Date(2026, 11, 25, 4, 30, 0, 0, time.UTC)},
		{"You've hit your 5-hour limit · resets 11:30pm (Europe/Paris)", time.Date(2026, 11, 23, 22, 30, 0, 0, time.UTC)},
	} {
		got, ok := parseResets(tc.msg, now)
		if !ok || !got.Equal(tc.want) {
			t.Errorf("%q: %v %v, want %v", tc.msg, got, ok, tc.want)
		}
	}
}

// The status line's rate_limits: a window at 100 % is a limit until its
// reset; the first tick after the reset no longer shows it.
func TestRateLimitsOfTheStatusLine(t *testing.T) {
	for file, want := range map[string]bool{
		"statusline-rate-limits.json":             false,
		"statusline-rate-limits-rejected.json":    true,
		"statusline-rate-limits-after-reset.json": false,
	} {
		tick, err := ParseStatusLine(sample(t, file))
		if err != nil {
			t.Fatal(err)
		}
		l, ok := tick.RateLimits.Limit()
		if ok != want || (ok && (l.Kind != "5-hour usage limit" || !l.Until.Equal(time.Unix(1795380734, 0)))) {
			t.Errorf("%s: %+v %v", file, l, ok)
		}
	}
	rejected, _ := ParseStatusLine(sample(t, "statusline-rate-limits-rejected.json"))
	st := &state.State{Lifecycle: state.Active}
	Bind(st, rejected, time.Unix(1795380700, 0))
	if st.Limit != "5-hour usage limit" || !st.LimitedUntil.Equal(time.Unix(1795380734, 0)) {
		t.Fatalf("Bind did not record the limit: %+v", st)
	}
}

func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// Regression, issue 19: the overflow block read "PreToolUse:Bash hook
// error: CONTEXT OVERFLOW", like a crash. Claude Code's prefix is its own;
// the reason after it now reads as advice: what is going on, that it is
// planned, and the one command to run.
func TestTheOverflowBlockReadsAsAdvice(t *testing.T) {
	msg := overflowMessage(0.81, 0.76)
	for _, want := range []string{"Context window full (81% used; superclaude restarts at 76%)", "This is no error",
		SessionCommand + " dehydrate restart now"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the block does not say %q: %s", want, msg)
		}
	}
	if strings.Contains(msg, "OVERFLOW") || strings.Contains(msg, "blocked") {
		t.Errorf("the block shouts or blocks: %s", msg)
	}
}
