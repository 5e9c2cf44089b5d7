package fakeapi

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
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
