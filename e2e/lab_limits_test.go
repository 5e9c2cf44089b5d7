package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/superclaude/superclaude/testkit/fakeapi"
)

// Lab: what claude 2.1.330 does with an API rate limit (429 with
// retry-after and the anthropic-ratelimit-* headers, for an API key). It
// retries by itself — CLAUDE_CODE_MAX_RETRIES times (10 by default),
// waiting at least retry-after, busy all along, the screen showing
// "retrying in Ns · attempt n/N" — then gives up: it prints "API Error:
// Request rejected (429) · <message>", sends StopFailure {error:
// "rate_limit"} with that text as last_assistant_message and no
// error_details, and stays at an idle prompt. The status line gets no
// rate_limits (an API key never does). Typing after the limit lifts sends
// the lost prompt again together with the new one.
func TestLabRateLimitRetriedThenStopFailure(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.setEnv("CLAUDE_CODE_MAX_RETRIES=2")
	l := newLab(t, w)
	var limited atomic.Bool
	limited.Store(true)
	const retryAfter = 2 * time.Second
	w.api.SetGate(func(r *fakeapi.Request) (fakeapi.Reply, bool) {
		if limited.Load() && r.Kind == fakeapi.KindTurn {
			return fakeapi.RateLimited(retryAfter), true
		}
		return fakeapi.Reply{}, false
	})
	l.start()

	mark := w.api.Mark()
	typed := time.Now()
	l.tm.typeLine(l.pane, "lab prompt hit by a rate limit")
	banner := l.tm.waitMatch(l.pane, regexp.MustCompile(`retrying in \d+s · attempt 1/2`))
	if st := l.sessions.last(); st.Status != "busy" {
		t.Errorf("while retrying sessions/<pid>.json says %q, want busy (%s)", st.Status, l.sessions)
	}
	fail := l.waitPayload("hook-StopFailure", 0, nil)
	l.save("hook-StopFailure-rate-limit.json", fail.Raw)

	turns := turnsAfter(w, mark)
	if len(turns) != 3 {
		t.Fatalf("%d turn requests, want 3 (the first and CLAUDE_CODE_MAX_RETRIES=2 retries)", len(turns))
	}
	for i := 1; i < len(turns); i++ {
		if gap := turns[i].Time.Sub(turns[i-1].Time); gap < retryAfter-100*time.Millisecond {
			t.Errorf("retry %d came %v after the previous request, before retry-after (%v)", i, gap, retryAfter)
		}
	}
	t.Logf("banner %q; requests at +%v +%v +%v; StopFailure at +%v", banner,
		turns[0].Time.Sub(typed), turns[1].Time.Sub(typed), turns[2].Time.Sub(typed), fail.At.Sub(typed))

	want := "API Error: Request rejected (429) · " + fakeapi.RateLimitMessage
	if fail.Str("error") != "rate_limit" || fail.Str("last_assistant_message") != want {
		t.Errorf("StopFailure payload:\n%s", fail.Raw)
	}
	if _, ok := fail.JSON["error_details"]; ok {
		t.Errorf("StopFailure has error_details now:\n%s", fail.Raw)
	}
	l.tm.waitScreen(l.pane, "API Error: Request rejected (429) · This request would exceed")
	l.sessions.wait("idle after the failure", func(s sessionSample) bool { return s.Status == "idle" && s.At.After(fail.At.Add(-time.Second)) })
	sl := l.waitPayload("statusline", 0, func(p payload) bool { return p.At.After(fail.At) })
	if _, ok := sl.JSON["rate_limits"]; ok {
		t.Errorf("an API key's status line has rate_limits:\n%s", sl.Raw)
	}
	if !l.alive() {
		t.Fatal("claude exited on a rate limit")
	}

	limited.Store(false)
	mark = w.api.Mark()
	l.tm.typeLine(l.pane, "continue")
	next, ok := w.api.WaitAfter(mark, wait, fakeapi.IsTurn)
	if !ok {
		t.Fatal("typing after the rate limit sent nothing")
	}
	if u := next.LastUserText(); !strings.Contains(u, "lab prompt hit by a rate limit") || !strings.Contains(u, "continue") {
		t.Errorf("the request after the limit does not carry the lost prompt and the new one: %q", u)
	}
	l.waitPayload("hook-Stop", 0, nil)
}

// Lab: what claude 2.1.330 does with a subscription's usage limit (429
// "Error" with anthropic-ratelimit-unified-status: rejected, read only
// for a claude.ai login or a gateway). Before it, the status line's
// rate_limits show the windows' use. It does not retry: one request, then
// "You've hit your 5-hour limit · resets <h:mm><am|pm> (<zone>)" on screen
// and as StopFailure's last_assistant_message (error "rate_limit"), the
// transcript's last entry carries apiError "usage_limit_reached" and the
// reset in Unix seconds, the status line shows five_hour at 100 % with
// resets_at, claude stays at an idle prompt and sends nothing by itself.
// At the reset it calls the status line once more, five_hour gone. Typing
// then sends the lost prompt with the new one.
func TestLabUsageLimitStopsTheTurnUntilReset(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	l := newLab(t, w)
	l.useGateway(fakeapi.GatewayToken)
	weekReset := time.Now().Add(72 * time.Hour)
	w.api.SetHeaders(func(*fakeapi.Request) http.Header {
		return fakeapi.UnifiedHeaders(0.42, time.Now().Add(2*time.Hour), 0.3, weekReset)
	})
	l.start()

	l.tm.typeLine(l.pane, "first prompt")
	l.waitPayload("hook-Stop", 0, nil)
	before := l.waitPayload("statusline", 0, func(p payload) bool { return p.JSON["rate_limits"] != nil })
	l.save("statusline-rate-limits.json", before.Raw)
	if got := window(before, "five_hour"); got["used_percentage"] != 42.0 {
		t.Errorf("status line rate_limits.five_hour %v, want used_percentage 42:\n%s", got, before.Raw)
	}

	reset := time.Now().Add(10 * time.Second).Truncate(time.Second)
	w.api.SetGate(fakeapi.LimitedUntil(reset, fakeapi.UsageLimited))
	mark := w.api.Mark()
	l.tm.typeLine(l.pane, "second prompt hit by the usage limit")
	fail := l.waitPayload("hook-StopFailure", 0, nil)
	l.save("hook-StopFailure-usage-limit.json", fail.Raw)
	msg := regexp.MustCompile(`^You've hit your 5-hour limit · resets \d{1,2}(:\d\d)?[ap]m \(UTC\)$`)
	if fail.Str("error") != "rate_limit" || !msg.MatchString(fail.Str("last_assistant_message")) {
		t.Errorf("StopFailure payload:\n%s", fail.Raw)
	}
	l.tm.waitScreen(l.pane, fail.Str("last_assistant_message"))
	limitedAt := l.waitPayload("statusline", 0, func(p payload) bool {
		return p.At.After(fail.At.Add(-time.Second)) && window(p, "five_hour")["used_percentage"] == 100.0
	})
	l.save("statusline-rate-limits-rejected.json", limitedAt.Raw)
	if got := window(limitedAt, "five_hour")["resets_at"]; got != float64(reset.Unix()) {
		t.Errorf("rate_limits.five_hour.resets_at %v, want the reset %d", got, reset.Unix())
	}
	entry, raw := lastTranscriptEntry(t, l, fail.Str("transcript_path"))
	l.save("transcript-usage-limit-entry.json", raw)
	if entry["apiError"] != "usage_limit_reached" || resetsAt(entry) != float64(reset.Unix()) {
		t.Errorf("the transcript's last entry: %v", entry)
	}
	after := l.sessions.wait("idle after the limit", func(s sessionSample) bool { return s.Status == "idle" && s.At.After(fail.At.Add(-time.Second)) })
	l.save("sessions-pid-after-usage-limit.json", after.Raw)
	if n := len(turnsAfter(w, mark)); n != 1 {
		t.Errorf("%d requests for the limited prompt, want 1 (no retry)", n)
	}

	lifted := l.waitPayload("statusline", 0, func(p payload) bool { return p.At.After(reset) })
	l.save("statusline-rate-limits-after-reset.json", lifted.Raw)
	if _, ok := lifted.JSON["rate_limits"].(map[string]any)["five_hour"]; ok || lifted.At.Sub(reset) > 10*time.Second {
		t.Errorf("the status line %v after the reset still shows five_hour:\n%s", lifted.At.Sub(reset), lifted.Raw)
	}
	t.Logf("StopFailure %v after the request; status line %v after the reset", fail.At.Sub(turnsAfter(w, mark)[0].Time), lifted.At.Sub(reset))
	if n := len(turnsAfter(w, mark)); n != 1 || !l.alive() {
		t.Fatalf("after the reset claude sent %d requests by itself (alive %v)", n-1, l.alive())
	}

	mark = w.api.Mark()
	l.tm.typeLine(l.pane, "continue")
	next, ok := w.api.WaitAfter(mark, wait, fakeapi.IsTurn)
	if !ok {
		t.Fatal("typing after the reset sent nothing")
	}
	if u := next.LastUserText(); !strings.Contains(u, "second prompt hit by the usage limit") || !strings.Contains(u, "continue") {
		t.Errorf("the request after the reset does not carry the lost prompt and the new one: %q", u)
	}
	l.waitPayload("hook-Stop", 1, nil)
}

// Lab: with CLAUDE_CODE_RETRY_WATCHDOG=1 in its environment claude waits
// out a usage limit by itself: the screen says "5-hour limit reached ·
// retrying in Ns (<time>) · attempt 1/300", sessions/<pid>.json stays
// busy, no StopFailure, no status line or transcript entry reports it;
// at the reset it sends the same turn again and finishes it. A supervisor
// that sets the variable needs no continue prompt, but sees the limit only
// on the screen.
func TestLabRetryWatchdogWaitsOutUsageLimit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.setEnv("CLAUDE_CODE_RETRY_WATCHDOG=1")
	l := newLab(t, w)
	l.useGateway(fakeapi.GatewayToken)
	l.start()

	reset := time.Now().Add(8 * time.Second).Truncate(time.Second)
	w.api.SetGate(fakeapi.LimitedUntil(reset, fakeapi.UsageLimited))
	mark := w.api.Mark()
	l.tm.typeLine(l.pane, "prompt that waits for the reset")
	banner := l.tm.waitMatch(l.pane, regexp.MustCompile(`5-hour limit reached · retrying in \d+s \([^)]*\) · attempt 1/\d+`))
	l.save("sessions-pid-retry-watchdog-wait.json", l.sessions.last().Raw)
	stop := l.waitPayload("hook-Stop", 0, nil)
	// Nothing but the screen shows the wait: no status line reports the
	// limit, the transcript holds no error.
	for _, p := range l.payloads("statusline") {
		if p.At.Before(reset) && window(p, "five_hour")["used_percentage"] == 100.0 {
			t.Errorf("a status line reported the limit during the wait:\n%s", p.Raw)
		}
	}
	if b, _ := os.ReadFile(stop.Str("transcript_path")); strings.Contains(string(b), `"isApiErrorMessage":true`) {
		t.Error("the transcript holds an API error")
	}
	if stop.At.Before(reset) {
		t.Errorf("the turn ended %v before the reset", reset.Sub(stop.At))
	}
	if n := l.count("hook-StopFailure"); n != 0 {
		t.Errorf("%d StopFailure with the watchdog on", n)
	}
	for _, s := range l.sessions.since(time.Now().Add(-time.Hour)) {
		if s.At.After(turnsAfter(w, mark)[0].Time) && s.At.Before(stop.At.Add(-500*time.Millisecond)) && s.Status != "busy" {
			t.Errorf("while waiting for the reset sessions/<pid>.json said %q (%s)", s.Status, l.sessions)
		}
	}
	turns := turnsAfter(w, mark)
	if last := turns[len(turns)-1]; last.Time.Before(reset) || !strings.Contains(last.LastUserText(), "prompt that waits for the reset") {
		t.Errorf("the turn that went through: at %v (reset %v), %q", last.Time, reset, last.LastUserText())
	}
	t.Logf("banner %q; %d requests; the turn ended %v after the reset", banner, len(turns), stop.At.Sub(reset))
}

// Lab: -p mode. A rate limit: retried CLAUDE_CODE_MAX_RETRIES times (not
// at all when retry-after is over 60 s), then "API Error: Request rejected
// (429) · <message>" on stdout and exit 1; for a subscriber (gateway) the
// text is "API Error: Server is temporarily limiting requests (not your
// usage limit) · <message>". A
// usage limit: no retry, "You've hit your 5-hour limit · resets …" on
// stdout, exit 1; with --output-format json the result says is_error,
// api_error "usage_limit_reached", api_error_status 429; `claude -p
// --resume <id> continue` after the reset sends the lost prompt with
// "continue". With
// CLAUDE_CODE_RETRY_WATCHDOG=1 it waits for the reset and exits 0.
func TestLabLimitsInPrintMode(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	gateway := func(env []string) []string {
		var out []string
		for _, e := range env {
			if !strings.HasPrefix(e, "ANTHROPIC_API_KEY=") {
				out = append(out, e)
			}
		}
		return append(out, "ANTHROPIC_AUTH_TOKEN="+fakeapi.GatewayToken)
	}
	run := func(env []string, args ...string) (stdout string, code int, elapsed time.Duration) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		defer cancel()
		cmd := exec.CommandContext(ctx, w.claudeAt, args...)
		cmd.Dir, cmd.Env = w.project, env
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		start := time.Now()
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("claude %v: %v", args, err)
		}
		if errb.Len() > 0 {
			t.Errorf("claude %v wrote to stderr: %s", args, errb.String())
		}
		return out.String(), code, time.Since(start)
	}

	t.Run("rate limit", func(t *testing.T) {
		w.api.SetGate(func(*fakeapi.Request) (fakeapi.Reply, bool) { return fakeapi.RateLimited(time.Second), true })
		mark := w.api.Mark()
		out, code, took := run(append(w.env, "CLAUDE_CODE_MAX_RETRIES=1"), "-p", "hello")
		if code != 1 || out != "API Error: Request rejected (429) · "+fakeapi.RateLimitMessage+"\n" {
			t.Errorf("exit %d, stdout %q", code, out)
		}
		if n := len(turnsAfter(w, mark)); n != 2 {
			t.Errorf("%d requests, want 2", n)
		}
		t.Logf("took %v", took)
	})
	t.Run("rate limit with retry-after over a minute", func(t *testing.T) {
		w.api.SetGate(func(*fakeapi.Request) (fakeapi.Reply, bool) { return fakeapi.RateLimited(61 * time.Second), true })
		mark := w.api.Mark()
		out, code, _ := run(w.env, "-p", "hello")
		if n := len(turnsAfter(w, mark)); n != 1 || code != 1 || !strings.HasPrefix(out, "API Error: Request rejected (429) · ") {
			t.Errorf("%d requests (want 1: no retry), exit %d, stdout %q", n, code, out)
		}
	})
	t.Run("rate limit for a subscriber", func(t *testing.T) {
		w.api.SetGate(func(*fakeapi.Request) (fakeapi.Reply, bool) { return fakeapi.RateLimited(time.Second), true })
		out, code, _ := run(append(gateway(w.env), "CLAUDE_CODE_MAX_RETRIES=0"), "-p", "hello")
		if code != 1 || out != "API Error: Server is temporarily limiting requests (not your usage limit) · "+fakeapi.RateLimitMessage+"\n" {
			t.Errorf("exit %d, stdout %q", code, out)
		}
	})
	t.Run("usage limit", func(t *testing.T) {
		w.api.SetGate(fakeapi.LimitedUntil(time.Now().Add(time.Hour), fakeapi.UsageLimited))
		mark := w.api.Mark()
		out, code, _ := run(gateway(w.env), "-p", "hello")
		if code != 1 || !regexp.MustCompile(`^You've hit your 5-hour limit · resets [^\n]+\n$`).MatchString(out) {
			t.Errorf("exit %d, stdout %q", code, out)
		}
		if n := len(turnsAfter(w, mark)); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
		out, code, _ = run(gateway(w.env), "-p", "hello", "--output-format", "json")
		var res map[string]any
		if err := json.Unmarshal([]byte(out), &res); err != nil || code != 1 {
			t.Fatalf("exit %d, %v: %s", code, err, out)
		}
		if res["is_error"] != true || res["api_error"] != "usage_limit_reached" || res["api_error_status"] != 429.0 ||
			!strings.HasPrefix(res["result"].(string), "You've hit your 5-hour limit") {
			t.Errorf("json result: %s", out)
		}
		// After the reset: --resume keeps the lost prompt in the conversation.
		w.api.SetGate(nil)
		mark = w.api.Mark()
		sid, _ := res["session_id"].(string)
		out, code, _ = run(gateway(w.env), "-p", "--resume", sid, "continue")
		turns := turnsAfter(w, mark)
		if code != 0 || out != "ok\n" || len(turns) != 1 ||
			!strings.Contains(turns[0].LastUserText(), "hello") || !strings.Contains(turns[0].LastUserText(), "continue") {
			t.Errorf("resumed: exit %d, stdout %q, %d requests", code, out, len(turns))
		}
	})
	t.Run("usage limit with the retry watchdog", func(t *testing.T) {
		reset := time.Now().Add(5 * time.Second).Truncate(time.Second)
		w.api.SetGate(fakeapi.LimitedUntil(reset, fakeapi.UsageLimited))
		out, code, _ := run(append(gateway(w.env), "CLAUDE_CODE_RETRY_WATCHDOG=1"), "-p", "hello")
		if code != 0 || out != "ok\n" || time.Now().Before(reset) {
			t.Errorf("exit %d, stdout %q, before the reset %v", code, out, time.Now().Before(reset))
		}
	})
}

// window returns rate_limits.<name> of a status-line payload (nil when absent).
func window(p payload, name string) map[string]any {
	rl, _ := p.JSON["rate_limits"].(map[string]any)
	m, _ := rl[name].(map[string]any)
	return m
}

// turnsAfter returns the turn requests recorded after mark.
func turnsAfter(w *world, mark int) []*fakeapi.Request {
	var out []*fakeapi.Request
	for _, r := range w.api.Requests()[mark:] {
		if r.Kind == fakeapi.KindTurn {
			out = append(out, r)
		}
	}
	return out
}

// lastTranscriptEntry returns the last API-error entry of claude's
// transcript (the synthetic assistant message it shows), parsed and raw.
func lastTranscriptEntry(t *testing.T, l *lab, path string) (map[string]any, []byte) {
	t.Helper()
	var last map[string]any
	var raw []byte
	l.w.until("the transcript's error entry", func() bool {
		b, err := os.ReadFile(path)
		if err != nil {
			return false
		}
		for _, line := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
			var e map[string]any
			if json.Unmarshal(line, &e) == nil && e["isApiErrorMessage"] == true {
				last, raw = e, line
			}
		}
		return last != nil
	})
	return last, raw
}

// resetsAt returns apiErrorParams.rate_limit_info.resetsAt of a transcript entry.
func resetsAt(e map[string]any) any {
	p, _ := e["apiErrorParams"].(map[string]any)
	info, _ := p["rate_limit_info"].(map[string]any)
	return info["resetsAt"]
}
