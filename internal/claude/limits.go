package claude

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"
)

// What Claude Code 2.1.330 does at a limit (docs/claude-code-limits.md):
// it does not exit. An API rate limit (429 for an API key) is retried for
// minutes, then the turn fails; a subscription's usage limit fails the
// turn at once. Either way a StopFailure hook says error "rate_limit",
// claude waits at its prompt, and nothing goes on by itself after the
// reset.

// Limit is a usage or rate limit that stopped the agent's turn.
type Limit struct {
	// Kind names it for people: "5-hour usage limit", "weekly usage
	// limit", "API rate limit".
	Kind string
	// Until is when it resets.
	Until time.Time
}

// RateLimitWait is how long after an API rate limit the agent is
// continued: the reset reaches no hook, and claude has already spent
// minutes retrying.
const RateLimitWait = time.Minute

// StopFailureLimit reads the limit a StopFailure reports: error
// "rate_limit". A usage limit ("You've hit your 5-hour limit · resets
// 8:52pm (UTC)") resets when the transcript's last entry says (exact), else
// when the message says (to the minute, in the time zone it names); an API
// rate limit, RateLimitWait after now. (At the hook the transcript may not
// hold the entry yet.)
func StopFailureLimit(in HookInput, now time.Time) (Limit, bool) {
	if in.Error != "rate_limit" {
		return Limit{}, false
	}
	msg := in.LastAssistantMessage
	if !strings.Contains(msg, "You've hit your") {
		return Limit{Kind: "API rate limit", Until: now.Add(RateLimitWait)}, true
	}
	l := Limit{Kind: usageKind(msg)}
	if at, kind, ok := TranscriptLimit(in.TranscriptPath); ok {
		l.Until = at
		if kind != "" {
			l.Kind = kindName(kind)
		}
		return l, true
	}
	if at, ok := parseResets(msg, now); ok {
		// The message has the minute only: its end, so as never to go on
		// before the reset. The next status-line tick has the exact time
		// (rate_limits) and Bind takes it.
		l.Until = at.Add(time.Minute - time.Second)
		return l, true
	}
	l.Until = now.Add(RateLimitWait)
	return l, true
}

func usageKind(msg string) string {
	switch {
	case strings.Contains(msg, "5-hour"):
		return "5-hour usage limit"
	case strings.Contains(msg, "weekly"):
		return "weekly usage limit"
	}
	return "usage limit"
}

// kindName names a rate_limit_info.rateLimitType or a status line window.
func kindName(t string) string {
	switch t {
	case "five_hour":
		return "5-hour usage limit"
	case "seven_day", "seven_day_opus", "seven_day_sonnet":
		return "weekly usage limit"
	}
	return "usage limit (" + t + ")"
}

// resetsRE matches the reset time of a usage-limit message:
// "resets 8:52pm (UTC)" or "resets Nov 25, 4:30am (Europe/Paris)".
// (Compiled on first use, not at every superclaude's start.)
var resetsRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`resets (?:([A-Z][a-z]{2} \d{1,2}), )?(\d{1,2}(?::\d{2})?[ap]m) \(([^)]+)\)`)
})

// parseResets reads the reset time a usage-limit message names: the next
// such time after now, in the zone it names.
func parseResets(msg string, now time.Time) (time.Time, bool) {
	m := resetsRE().FindStringSubmatch(msg)
	if m == nil {
		return time.Time{}, false
	}
	loc, err := time.LoadLocation(m[3])
	if err != nil {
		loc = time.Local
	}
	clock := m[2]
	if !strings.Contains(clock, ":") {
		clock = strings.Replace(clock, "am", ":00am", 1)
		clock = strings.Replace(clock, "pm", ":00pm", 1)
	}
	t, err := time.ParseInLocation("3:04pm", clock, loc)
	if err != nil {
		return time.Time{}, false
	}
	local := now.In(loc)
	at := time.Date(local.Year(), local.Month(), local.Day(), t.Hour(), t.Minute(), 0, 0, loc)
	if m[1] != "" {
		d, err := time.ParseInLocation("Jan 2", m[1], loc)
		if err != nil {
			return time.Time{}, false
		}
		at = time.Date(local.Year(), d.Month(), d.Day(), t.Hour(), t.Minute(), 0, 0, loc)
		if at.Before(now.Add(-24 * time.Hour)) {
			at = at.AddDate(1, 0, 0)
		}
		return at, true
	}
	if at.Before(now.Add(-time.Minute)) {
		at = at.AddDate(0, 0, 1)
	}
	return at, true
}

// TranscriptLimit reads the exact reset of a usage limit from the last
// entries of a transcript: apiError "usage_limit_reached" with
// apiErrorParams.rate_limit_info.resetsAt (Unix seconds) and its
// rateLimitType.
func TranscriptLimit(path string) (time.Time, string, bool) {
	if path == "" {
		return time.Time{}, "", false
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return time.Time{}, "", false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return time.Time{}, "", false
	}
	const tail = 1 << 20
	if fi.Size() > tail {
		f.Seek(fi.Size()-tail, io.SeekStart)
	}
	var at time.Time
	var kind string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), tail)
	for sc.Scan() {
		line := sc.Bytes()
		if !strings.Contains(string(line), "usage_limit_reached") {
			continue
		}
		var e struct {
			APIError       string `json:"apiError"`
			APIErrorParams struct {
				RateLimitInfo struct {
					ResetsAt      int64  `json:"resetsAt"`
					RateLimitType string `json:"rateLimitType"`
				} `json:"rate_limit_info"`
			} `json:"apiErrorParams"`
		}
		if json.Unmarshal(line, &e) == nil && e.APIError == "usage_limit_reached" && e.APIErrorParams.RateLimitInfo.ResetsAt > 0 {
			at = time.Unix(e.APIErrorParams.RateLimitInfo.ResetsAt, 0)
			kind = e.APIErrorParams.RateLimitInfo.RateLimitType
		}
	}
	return at, kind, !at.IsZero()
}

// RateLimits is the status line's rate_limits: for a subscriber (or a
// Claude gateway), each usage window's use and reset, after the first
// reply.
type RateLimits map[string]struct {
	UsedPercentage float64 `json:"used_percentage"`
	ResetsAt       int64   `json:"resets_at"`
}

// Limit returns the window the tick shows used up (100 %), the one that
// resets last.
func (r RateLimits) Limit() (Limit, bool) {
	var l Limit
	for name, w := range r {
		if w.UsedPercentage >= 100 && w.ResetsAt > 0 {
			if at := time.Unix(w.ResetsAt, 0); at.After(l.Until) {
				l = Limit{Kind: kindName(name), Until: at}
			}
		}
	}
	return l, !l.Until.IsZero()
}
