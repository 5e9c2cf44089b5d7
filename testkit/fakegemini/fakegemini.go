// Package fakegemini is a scriptable fake of Google's Gemini API, good
// enough to run the real Gemini CLI (0.61) offline against 127.0.0.1.
//
// The CLI reads its base URL from GOOGLE_GEMINI_BASE_URL and its key from
// GEMINI_API_KEY, and calls two endpoints (docs/agent-clis.md): streaming
// POST /v1beta/models/MODEL:streamGenerateContent?alt=sse for the turns of
// the conversation, and plain POST /v1beta/models/MODEL:generateContent for
// side questions (which model a prompt is routed to, and others). Its shell
// tool is a function call named run_shell_command with the arguments
// {"command": "…"}; the output comes back as a functionResponse part of the
// next request. Anything else is answered with an empty 200 JSON object.
// Stdlib only.
package fakegemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/superclaude/superclaude/testkit/fakeserver"
)

// Kind classifies a request.
type Kind string

const (
	// KindTurn is a streamed turn of the conversation: consumes the script.
	KindTurn Kind = "turn"
	// KindSide is a plain generateContent request (routing and other side
	// questions): answered with "{}".
	KindSide Kind = "side"
	// KindOther is any other request.
	KindOther Kind = "other"
)

// Reply is one scripted answer.
type Reply struct {
	// Text is the model's text.
	Text string
	// Command, when set, asks the CLI to run it with run_shell_command.
	Command string
	// Hold, when not nil, is received from before the answer is streamed:
	// the CLI stays busy until the test closes it.
	Hold <-chan struct{}
	// Status, when not zero, answers with this HTTP error instead.
	Status int
}

// Text is a reply with one text part.
func Text(s string) Reply { return Reply{Text: s} }

// Shell is a reply that runs cmd with run_shell_command.
func Shell(cmd string) Reply { return Reply{Command: cmd} }

// Request is one recorded request.
type Request struct {
	Seq    int
	Time   time.Time
	Method string
	Path   string
	Header http.Header
	Raw    []byte
	Body   map[string]any
	Kind   Kind
}

// Contents returns body.contents.
func (r *Request) Contents() []map[string]any {
	arr, _ := r.Body["contents"].([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, c := range arr {
		if m, ok := c.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func parts(c map[string]any) []map[string]any {
	arr, _ := c["parts"].([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, p := range arr {
		if m, ok := p.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// UserTexts returns the text parts of every user content, in order.
func (r *Request) UserTexts() []string {
	var out []string
	for _, c := range r.Contents() {
		if c["role"] != "user" {
			continue
		}
		for _, p := range parts(c) {
			if t, ok := p["text"].(string); ok {
				out = append(out, t)
			}
		}
	}
	return out
}

// LastUserText is the last text part of a user content.
func (r *Request) LastUserText() string {
	u := r.UserTexts()
	if len(u) == 0 {
		return ""
	}
	return u[len(u)-1]
}

// EndsWithToolOutput reports whether the last content carries a
// functionResponse: the request goes on with a turn the model began.
func (r *Request) EndsWithToolOutput() bool {
	cs := r.Contents()
	if len(cs) == 0 {
		return false
	}
	for _, p := range parts(cs[len(cs)-1]) {
		if _, ok := p["functionResponse"]; ok {
			return true
		}
	}
	return false
}

// ToolOutputs returns every functionResponse's response, as JSON.
func (r *Request) ToolOutputs() []string {
	var out []string
	for _, c := range r.Contents() {
		for _, p := range parts(c) {
			if fr, ok := p["functionResponse"].(map[string]any); ok {
				b, _ := json.Marshal(fr["response"])
				out = append(out, string(b))
			}
		}
	}
	return out
}

// Obey is a fake model that does what the prompt says: a last user text
// with a line "run: CMD" is answered with a run_shell_command call of CMD,
// a request that ends with the command's output with "done", and anything
// else with "ok".
func Obey(r *Request) Reply {
	if r.EndsWithToolOutput() {
		return Text("done")
	}
	if cmd, ok := fakeserver.Line(r.LastUserText(), "run: "); ok {
		return Shell(cmd)
	}
	return Text("ok")
}

// Server is the fake API.
type Server struct {
	// URL is http://127.0.0.1:PORT, the CLI's GOOGLE_GEMINI_BASE_URL.
	URL string
	// Fallback answers a turn when the script is empty (nil: Obey).
	Fallback func(*Request) Reply

	hs     *http.Server
	script fakeserver.Script[Reply]
	rec    fakeserver.Record[*Request]
}

// Start serves on 127.0.0.1 at a random port; it panics if it cannot.
func Start() *Server {
	s := &Server{}
	s.URL, s.hs = fakeserver.Listen(s)
	return s
}

// Close stops the server and wakes every WaitAfter.
func (s *Server) Close() {
	s.hs.Close()
	s.rec.Wake()
}

// Push appends replies to the script.
func (s *Server) Push(rs ...Reply) { s.script.Push(rs...) }

// Requests returns the recorded requests.
func (s *Server) Requests() []*Request { return s.rec.All() }

// Turns returns the recorded KindTurn requests.
func (s *Server) Turns() []*Request {
	var out []*Request
	for _, r := range s.Requests() {
		if r.Kind == KindTurn {
			out = append(out, r)
		}
	}
	return out
}

// Mark is the number of requests recorded so far, for WaitAfter.
func (s *Server) Mark() int { return s.rec.Mark() }

// WaitAfter waits until a request recorded after mark satisfies pred and
// returns it.
func (s *Server) WaitAfter(mark int, timeout time.Duration, pred func(*Request) bool) (*Request, bool) {
	return s.rec.WaitAfter(mark, timeout, pred)
}

// IsTurn is a predicate for WaitAfter.
func IsTurn(r *Request) bool { return r.Kind == KindTurn }

func classify(r *Request) Kind {
	switch {
	case r.Method != http.MethodPost:
		return KindOther
	case strings.HasSuffix(r.Path, ":streamGenerateContent"):
		return KindTurn
	case strings.HasSuffix(r.Path, ":generateContent"):
		return KindSide
	}
	return KindOther
}

func (s *Server) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	raw, _ := io.ReadAll(hr.Body)
	req := &Request{Time: time.Now(), Method: hr.Method, Path: hr.URL.Path, Header: hr.Header.Clone(), Raw: raw}
	if len(bytes.TrimSpace(raw)) > 0 {
		json.Unmarshal(raw, &req.Body)
	}
	req.Kind = classify(req)
	var reply Reply
	if req.Kind == KindTurn {
		reply = s.take(req)
	}
	s.rec.Add(req, func(n int) { req.Seq = n })
	switch req.Kind {
	case KindTurn:
		s.stream(w, reply)
	case KindSide:
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(response(map[string]any{"text": "{}"}, "STOP"))
		w.Write(b)
	default:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{}")
	}
}

func (s *Server) take(req *Request) Reply {
	if r, ok := s.script.Take(nil); ok {
		return r
	}
	if s.Fallback != nil {
		return s.Fallback(req)
	}
	return Obey(req)
}

// response is one GenerateContentResponse holding part.
func response(part map[string]any, finish string) map[string]any {
	c := map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "index": 0}
	if finish != "" {
		c["finishReason"] = finish
	}
	return map[string]any{"candidates": []any{c}, "modelVersion": "gemini-fake",
		"usageMetadata": map[string]any{"promptTokenCount": 100, "candidatesTokenCount": 10, "totalTokenCount": 110}}
}

// stream answers a turn as server-sent events, one chunk per part.
func (s *Server) stream(w http.ResponseWriter, r Reply) {
	if r.Hold != nil {
		<-r.Hold
	}
	if r.Status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(r.Status)
		fmt.Fprintf(w, `{"error":{"code":%d,"message":"fake error","status":"INTERNAL"}}`, r.Status)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	chunk := func(v map[string]any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\r\n\r\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	if r.Command != "" {
		chunk(response(map[string]any{"functionCall": map[string]any{"name": "run_shell_command",
			"args": map[string]any{"command": r.Command, "description": "as asked"}}}, "STOP"))
		return
	}
	chunk(response(map[string]any{"text": r.Text}, "STOP"))
}
