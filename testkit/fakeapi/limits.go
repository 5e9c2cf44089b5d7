package fakeapi

import (
	"encoding/base64"
	"math"
	"net/http"
	"strconv"
	"time"
)

// Limits, answered as the real API answers them. Measured against Claude
// Code 2.1.330 (docs/claude-code-limits.md); the shapes come from
// captures of api.anthropic.com published by other projects and from the
// CLI's own gateway documentation.
//
// Two kinds of 429 exist:
//
//   - a rate limit (an API key over its per-minute budget): the body names
//     the budget, retry-after says when to try again, and the
//     anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-*
//     headers give limit, remaining and reset (RFC 3339). Claude Code
//     retries it (10 times by default, CLAUDE_CODE_MAX_RETRIES), waiting
//     at least retry-after, then gives up with "API Error: Request
//     rejected (429) · <message>".
//   - a usage limit (a Claude subscription's 5-hour or weekly window used
//     up): the body says only "Error"; the
//     anthropic-ratelimit-unified-* headers say which window, and when it
//     resets (Unix seconds). Claude Code does not retry it and shows
//     "You've hit your 5-hour limit · resets 9:33pm (UTC)".
//
// Claude Code reads the unified headers only for a claude.ai login or a
// Claude gateway, never for an API key: run it with
// ANTHROPIC_AUTH_TOKEN=GatewayToken (and no ANTHROPIC_API_KEY) to see a
// usage limit, or the status line's rate_limits, offline.

// GatewayToken is a bearer token for ANTHROPIC_AUTH_TOKEN: an unsigned JWT
// whose audience is "claude-gateway". With it and ANTHROPIC_BASE_URL on a
// host other than api.anthropic.com, Claude Code takes the fake API for a
// Claude gateway and reads the anthropic-ratelimit-unified-* headers as it
// does for a subscriber. It never checks the signature.
var GatewayToken = func() string {
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"none","typ":"JWT"}`)) + "." +
		enc([]byte(`{"aud":"claude-gateway","sub":"superclaude-e2e","exp":4102444800}`)) + "." +
		enc([]byte("unsigned"))
}()

// RateLimitMessage is the message of the real API's 429 for an
// organization over its per-minute input-token budget.
const RateLimitMessage = "This request would exceed your organization's rate limit of 30,000 input tokens per minute " +
	"(org: 00000000-0000-4000-8000-000000000000, model: claude-fake). For details, refer to: " +
	"https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. " +
	"Please reduce the prompt length or the maximum tokens requested, or try again later. You may also " +
	"contact sales at https://claude.com/contact-sales to discuss your options for a rate limit increase."

// UsageLimitMinRetryAfter is the least retry-after UsageLimited sends:
// over the 60 s beyond which Claude Code does not retry a 429.
const UsageLimitMinRetryAfter = 61 * time.Second

// UsageLimitMessage is the whole message of the real API's 429 for a
// subscription whose usage window is used up.
const UsageLimitMessage = "Error"

// seconds is d in whole seconds, rounded up, never negative: what
// retry-after carries.
func seconds(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	return strconv.FormatInt(int64(math.Ceil(d.Seconds())), 10)
}

func unix(t time.Time) string { return strconv.FormatInt(t.Unix(), 10) }

// RateLimited is the real API's answer to an API key over its per-minute
// input-token budget, which comes back in retryAfter: 429
// rate_limit_error with RateLimitMessage, retry-after, and the
// anthropic-ratelimit-* headers (the input-token and token budgets at 0).
func RateLimited(retryAfter time.Duration) Reply {
	now := time.Now().UTC()
	reset := now.Add(retryAfter).Format(time.RFC3339)
	h := http.Header{}
	h.Set("retry-after", seconds(retryAfter))
	set := func(kind, limit, remaining, reset string) {
		h.Set("anthropic-ratelimit-"+kind+"-limit", limit)
		h.Set("anthropic-ratelimit-"+kind+"-remaining", remaining)
		h.Set("anthropic-ratelimit-"+kind+"-reset", reset)
	}
	set("requests", "50", "49", now.Add(1200*time.Millisecond).Format(time.RFC3339))
	set("input-tokens", "30000", "0", reset)
	set("output-tokens", "8000", "8000", now.Format(time.RFC3339))
	set("tokens", "38000", "0", reset)
	r := ErrorReply(http.StatusTooManyRequests, "rate_limit_error", RateLimitMessage)
	r.Header = h
	return r
}

// UsageLimited is api.anthropic.com's answer to a subscription whose
// 5-hour window is used up until resetAt (the weekly window at 59 %):
// 429 rate_limit_error "Error", retry-after, and the
// anthropic-ratelimit-unified-* headers with status "rejected", the
// representative claim "five_hour" and the reset in Unix seconds. Claude
// Code (with GatewayToken) shows "You've hit your 5-hour limit · resets …",
// does not retry, and sends StopFailure with error "rate_limit".
func UsageLimited(resetAt time.Time) Reply {
	h := UnifiedHeaders(1.0, resetAt, 0.59, resetAt.Add(72*time.Hour))
	h.Set("anthropic-ratelimit-unified-status", "rejected")
	h.Set("anthropic-ratelimit-unified-5h-status", "rejected")
	h.Set("anthropic-ratelimit-unified-reset", unix(resetAt))
	h.Set("anthropic-ratelimit-unified-representative-claim", "five_hour")
	h.Set("anthropic-ratelimit-unified-fallback-percentage", "0.5")
	h.Set("anthropic-ratelimit-unified-overage-status", "rejected")
	h.Set("anthropic-ratelimit-unified-overage-disabled-reason", "out_of_credits")
	// The real retry-after is the time to the reset. Claude Code gives up
	// at once on a 429 whose retry-after is over 60 s, and a claude.ai
	// login never retries a usage limit at all; through the gateway path
	// it would retry one whose reset is under a minute away. The floor
	// keeps the fake's near resets behaving like real ones.
	h.Set("retry-after", seconds(max(time.Until(resetAt), UsageLimitMinRetryAfter)))
	r := ErrorReply(http.StatusTooManyRequests, "rate_limit_error", UsageLimitMessage)
	r.Header = h
	return r
}

// UnifiedHeaders are the usage headers api.anthropic.com puts on every
// answer to a subscriber: how much of the 5-hour and the weekly (7-day)
// window is used (a fraction, 0.42 = 42 %) and when each resets. With
// GatewayToken Claude Code shows them in the status line's rate_limits
// ({"five_hour":{"used_percentage":42,"resets_at":<unix>},"seven_day":…});
// a window whose reset is past is left out. Use them with Server.SetHeaders.
func UnifiedHeaders(fiveHour float64, fiveHourReset time.Time, sevenDay float64, sevenDayReset time.Time) http.Header {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	status := func(x float64) string {
		if x >= 1 {
			return "rejected"
		}
		return "allowed"
	}
	h := http.Header{}
	h.Set("anthropic-ratelimit-unified-status", "allowed")
	h.Set("anthropic-ratelimit-unified-reset", unix(fiveHourReset))
	h.Set("anthropic-ratelimit-unified-representative-claim", "five_hour")
	h.Set("anthropic-ratelimit-unified-5h-status", status(fiveHour))
	h.Set("anthropic-ratelimit-unified-5h-utilization", f(fiveHour))
	h.Set("anthropic-ratelimit-unified-5h-reset", unix(fiveHourReset))
	h.Set("anthropic-ratelimit-unified-7d-status", status(sevenDay))
	h.Set("anthropic-ratelimit-unified-7d-utilization", f(sevenDay))
	h.Set("anthropic-ratelimit-unified-7d-reset", unix(sevenDayReset))
	return h
}

// LimitedUntil is a gate (Server.SetGate) that answers every request with
// limit(until) until that time, as the real API refuses every request of
// a limited account, and lets requests through from then on:
//
//	srv.SetGate(fakeapi.LimitedUntil(time.Now().Add(5*time.Second), fakeapi.UsageLimited))
//
// until is rounded up to a whole second, as the headers carry Unix
// seconds: a client that waits for the reset they name is let through.
func LimitedUntil(until time.Time, limit func(time.Time) Reply) func(*Request) (Reply, bool) {
	if r := until.Truncate(time.Second); r.Before(until) {
		until = r.Add(time.Second)
	}
	return func(*Request) (Reply, bool) {
		if time.Now().Before(until) {
			return limit(until), true
		}
		return Reply{}, false
	}
}

// RateLimitedFor adapts RateLimited to LimitedUntil: a rate limit whose
// retry-after runs until then.
func RateLimitedFor(until time.Time) Reply { return RateLimited(time.Until(until)) }
