package fakeapi

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

func post(t *testing.T, s *Server, body map[string]any, sid string) *http.Response {
	t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", s.URL+"/v1/messages?beta=true", bytes.NewReader(b))
	req.Header.Set("X-Claude-Code-Session-Id", sid)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

type sse struct {
	event string
	data  map[string]any
}

func readSSE(t *testing.T, r io.Reader) []sse {
	var out []sse
	sc := bufio.NewScanner(r)
	var ev string
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			ev = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			var d map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &d); err != nil {
				t.Fatalf("bad data %q", line)
			}
			if d["type"] != ev {
				t.Fatalf("event %q data type %v", ev, d["type"])
			}
			out = append(out, sse{ev, d})
		}
	}
	return out
}

var turnBody = map[string]any{
	"model": "claude-x", "stream": true, "tools": []any{map[string]any{"name": "Bash"}},
	"messages": []any{map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "text", "text": "<system-reminder>x</system-reminder>"},
		map[string]any{"type": "text", "text": "hello"}}}},
}

func TestStreamToolUse(t *testing.T) {
	s := Start()
	defer s.Close()
	s.Push(Bash("echo hi", "d").WithText("sure").WithUsage(Usage{InputTokens: 800000, CacheReadInputTokens: 5, OutputTokens: 7}))
	resp := post(t, s, turnBody, "sid-1")
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	evs := readSSE(t, resp.Body)
	var names []string
	var js string
	for _, e := range evs {
		names = append(names, e.event)
		if d, ok := e.data["delta"].(map[string]any); ok && d["type"] == "input_json_delta" {
			js += d["partial_json"].(string)
		}
	}
	want := "message_start ping content_block_start content_block_delta content_block_stop content_block_start content_block_delta content_block_delta content_block_delta content_block_stop message_delta message_stop"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("events\n got %s\nwant %s", got, want)
	}
	var in map[string]any
	if err := json.Unmarshal([]byte(js), &in); err != nil || in["command"] != "echo hi" {
		t.Fatalf("input json %q %v", js, err)
	}
	md := evs[len(evs)-2].data
	if md["delta"].(map[string]any)["stop_reason"] != "tool_use" {
		t.Fatalf("stop reason %v", md)
	}
	if md["usage"].(map[string]any)["input_tokens"].(float64) != 800000 {
		t.Fatalf("usage %v", md["usage"])
	}
	r := s.Turns()[0]
	if r.SessionID != "sid-1" || r.FirstUserText() != "<system-reminder>x</system-reminder>\nhello" || r.Kind != KindTurn {
		t.Fatalf("recorded %+v", r)
	}
}

func TestSideRequestsDoNotConsume(t *testing.T) {
	s := Start()
	defer s.Close()
	s.Push(Text("scripted"))
	title := map[string]any{"model": "h", "stream": true, "tools": []any{},
		"output_config": map[string]any{"format": map[string]any{"type": "json_schema",
			"schema": map[string]any{"type": "object", "properties": map[string]any{"title": map[string]any{"type": "string"}}}}},
		"messages": []any{map[string]any{"role": "user", "content": "name it"}}}
	evs := readSSE(t, post(t, s, title, "a").Body)
	if got := textOf(evs); got != `{"title":"Fake session"}` {
		t.Fatalf("title text %q", got)
	}
	compact := map[string]any{"model": "m", "stream": true, "tools": []any{map[string]any{"name": "Bash"}},
		"messages": []any{map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "text", "text": "pending prompt\n"},
			map[string]any{"type": "text", "text": "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools."}}}}}
	readSSE(t, post(t, s, compact, "a").Body)
	if s.Pending() != 1 {
		t.Fatal("side request consumed the script")
	}
	kinds := []Kind{}
	for _, r := range s.Requests() {
		kinds = append(kinds, r.Kind)
	}
	if kinds[0] != KindTitle || kinds[1] != KindCompact {
		t.Fatalf("kinds %v", kinds)
	}
	readSSE(t, post(t, s, turnBody, "a").Body)
	evs = readSSE(t, post(t, s, turnBody, "a").Body) // script empty → "ok"
	if got := textOf(evs); got != "ok" {
		t.Fatalf("fallback %v", got)
	}
}

func TestNonStreamAndErrors(t *testing.T) {
	s := Start()
	defer s.Close()
	s.Push(Text("plain"), ErrorReply(529, "overloaded_error", "Overloaded"))
	b := map[string]any{}
	for k, v := range turnBody {
		b[k] = v
	}
	b["stream"] = false
	resp := post(t, s, b, "x")
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	if m["type"] != "message" || m["content"].([]any)[0].(map[string]any)["text"] != "plain" || m["stop_reason"] != "end_turn" {
		t.Fatalf("json %v", m)
	}
	resp = post(t, s, b, "x")
	if resp.StatusCode != 529 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	// other paths
	r2, err := http.Head(s.URL + "/api/hello")
	if err != nil || r2.StatusCode != 200 {
		t.Fatalf("hello %v %v", r2, err)
	}
}

func TestHoldMatchWait(t *testing.T) {
	s := Start()
	defer s.Close()
	hold := make(chan struct{})
	r := Text("held")
	r.Hold = hold
	r.Match = func(q *Request) bool { return q.SessionID == "B" }
	s.Push(r)
	readSSE(t, post(t, s, turnBody, "A").Body) // A gets fallback
	done := make(chan []sse)
	go func() { done <- readSSE(t, post(t, s, turnBody, "B").Body) }()
	if _, ok := s.WaitFor(2*time.Second, func(q *Request) bool { return q.SessionID == "B" }); !ok {
		t.Fatal("WaitFor B")
	}
	select {
	case <-done:
		t.Fatal("not held")
	case <-time.After(100 * time.Millisecond):
	}
	close(hold)
	evs := <-done
	if textOf(evs) != "held" {
		t.Fatalf("got %v", evs[3].data)
	}
	if ids := s.SessionIDs(); len(ids) != 2 || ids[0] != "A" {
		t.Fatalf("ids %v", ids)
	}
	if _, ok := s.WaitAfter(s.Mark(), 50*time.Millisecond, nil); ok {
		t.Fatal("WaitAfter should time out")
	}
}

func textOf(evs []sse) string {
	var b strings.Builder
	for _, e := range evs {
		if d, ok := e.data["delta"].(map[string]any); ok && d["type"] == "text_delta" {
			b.WriteString(d["text"].(string))
		}
	}
	return b.String()
}

func TestReplyHeadersAndServerHeaders(t *testing.T) {
	s := Start()
	defer s.Close()
	s.SetHeaders(func(*Request) http.Header { return http.Header{"X-Every": {"server"}, "X-Both": {"server"}} })
	r := Text("hi")
	r.Header = http.Header{"x-both": {"reply"}}
	s.Push(r)
	resp := post(t, s, turnBody, "a")
	readSSE(t, resp.Body)
	if resp.Header.Get("X-Every") != "server" || resp.Header.Get("X-Both") != "reply" {
		t.Fatalf("headers %v", resp.Header)
	}
	if got := s.Turns()[0].Reply.Header.Get("X-Both"); got != "reply" {
		t.Fatalf("recorded reply header %q", got)
	}
}

func TestRateLimited(t *testing.T) {
	s := Start()
	defer s.Close()
	s.Push(RateLimited(1500 * time.Millisecond))
	before := time.Now().UTC().Truncate(time.Second)
	resp := post(t, s, turnBody, "a")
	var body struct {
		Type  string
		Error struct{ Type, Message string }
		ID    string `json:"request_id"`
	}
	json.NewDecoder(resp.Body).Decode(&body)
	if resp.StatusCode != 429 || body.Type != "error" || body.Error.Type != "rate_limit_error" ||
		body.Error.Message != RateLimitMessage || body.ID != resp.Header.Get("request-id") {
		t.Fatalf("%d %+v", resp.StatusCode, body)
	}
	if got := resp.Header.Get("retry-after"); got != "2" {
		t.Fatalf("retry-after %q, want the 1.5 s rounded up", got)
	}
	for _, kind := range []string{"requests", "tokens", "input-tokens", "output-tokens"} {
		for _, f := range []string{"limit", "remaining", "reset"} {
			if resp.Header.Get("anthropic-ratelimit-"+kind+"-"+f) == "" {
				t.Errorf("no anthropic-ratelimit-%s-%s", kind, f)
			}
		}
	}
	reset, err := time.Parse(time.RFC3339, resp.Header.Get("anthropic-ratelimit-input-tokens-reset"))
	if err != nil || reset.Before(before.Add(time.Second)) || resp.Header.Get("anthropic-ratelimit-input-tokens-remaining") != "0" {
		t.Fatalf("input-tokens reset %v %v, remaining %q", reset, err, resp.Header.Get("anthropic-ratelimit-input-tokens-remaining"))
	}
	if resp.Header.Get("anthropic-ratelimit-unified-status") != "" {
		t.Fatal("an API key's rate limit carries unified headers")
	}
}

func TestUsageLimitedUntilReset(t *testing.T) {
	s := Start()
	defer s.Close()
	reset := time.Now().Add(1500 * time.Millisecond)
	s.SetGate(LimitedUntil(reset, UsageLimited))
	s.Push(Text("after the reset"))
	title := map[string]any{"model": "h", "stream": true, "messages": []any{map[string]any{"role": "user", "content": "x"}}}

	for _, body := range []map[string]any{turnBody, title} {
		resp := post(t, s, body, "a")
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 429 || !strings.Contains(string(b), `"message":"Error"`) {
			t.Fatalf("%d %s", resp.StatusCode, b)
		}
		h := resp.Header
		wantReset := strconv.FormatInt(reset.Truncate(time.Second).Add(time.Second).Unix(), 10)
		if h.Get("anthropic-ratelimit-unified-status") != "rejected" || h.Get("anthropic-ratelimit-unified-5h-status") != "rejected" ||
			h.Get("anthropic-ratelimit-unified-representative-claim") != "five_hour" ||
			h.Get("anthropic-ratelimit-unified-reset") != wantReset || h.Get("anthropic-ratelimit-unified-5h-reset") != wantReset ||
			h.Get("anthropic-ratelimit-unified-5h-utilization") != "1" {
			t.Fatalf("headers %v, want reset %s", h, wantReset)
		}
		if ra, _ := strconv.Atoi(h.Get("retry-after")); ra < 61 {
			t.Fatalf("retry-after %d: Claude Code would retry a usage limit through the gateway path", ra)
		}
	}
	if s.Pending() != 1 {
		t.Fatal("a limited turn consumed the script")
	}
	if r, err := http.Head(s.URL + "/api/hello"); err != nil || r.StatusCode != 200 {
		t.Fatalf("the gate answered /api/hello: %v %v", r, err)
	}
	time.Sleep(time.Until(reset.Truncate(time.Second).Add(time.Second)))
	evs := readSSE(t, post(t, s, turnBody, "a").Body)
	if textOf(evs) != "after the reset" {
		t.Fatalf("after the reset: %v", evs)
	}
}

func TestUnifiedHeaders(t *testing.T) {
	r5, r7 := time.Unix(1795383077, 0), time.Unix(1795638677, 0)
	h := UnifiedHeaders(0.42, r5, 1, r7)
	want := map[string]string{
		"anthropic-ratelimit-unified-status":               "allowed",
		"anthropic-ratelimit-unified-5h-utilization":       "0.42",
		"anthropic-ratelimit-unified-5h-reset":             "1795383077",
		"anthropic-ratelimit-unified-5h-status":            "allowed",
		"anthropic-ratelimit-unified-7d-utilization":       "1",
		"anthropic-ratelimit-unified-7d-reset":             "1795638677",
		"anthropic-ratelimit-unified-7d-status":            "rejected",
		"anthropic-ratelimit-unified-reset":                "1795383077",
		"anthropic-ratelimit-unified-representative-claim": "five_hour",
	}
	for k, v := range want {
		if got := h.Get(k); got != v {
			t.Errorf("%s = %q, want %q", k, got, v)
		}
	}
}

func TestGatewayToken(t *testing.T) {
	parts := strings.Split(GatewayToken, ".")
	if len(parts) != 3 {
		t.Fatalf("not a JWT: %q", GatewayToken)
	}
	b, err := base64.RawURLEncoding.DecodeString(parts[1])
	var claims map[string]any
	if err != nil || json.Unmarshal(b, &claims) != nil || claims["aud"] != "claude-gateway" {
		t.Fatalf("claims %s %v", b, err)
	}
}
