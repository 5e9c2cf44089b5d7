// Package fakeopenai is a scriptable fake of the OpenAI Responses API, good
// enough to run the real Codex CLI (0.169) offline against 127.0.0.1.
//
// Codex calls one endpoint, streaming POST /v1/responses, and reads the
// server-sent events response.created, response.output_item.added,
// response.output_text.delta, response.output_item.done and
// response.completed (docs/agent-clis.md). Its shell tool is a function
// call named exec_command with the arguments {"cmd": "…"}; the command's
// output comes back as a function_call_output item of the next request.
// Anything else is answered with an empty 200 JSON object. Stdlib only.
//
//	srv := fakeopenai.Start()
//	defer srv.Close()
//	srv.Fallback = fakeopenai.Obey // "run: CMD" runs CMD
//	// CODEX_HOME/config.toml: base_url = srv.URL + "/v1", wire_api = "responses"
package fakeopenai

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
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
	// KindTurn is a model request of the agent's conversation: it offers
	// tools, and consumes the script.
	KindTurn Kind = "turn"
	// KindSide is a tool-less model request, such as the title Codex asks
	// for after each turn on a thread of its own: answered "Fake title".
	KindSide Kind = "side"
	// KindOther is any other path.
	KindOther Kind = "other"
)

// Reply is one scripted answer.
type Reply struct {
	// Text is the assistant's message ("" with Command: none).
	Text string
	// Command, when set, asks Codex to run it with its exec_command tool,
	// in a plain (not a login) shell, so that the PATH Codex was given
	// holds.
	Command string
	// Escalate asks to run Command outside Codex's sandbox, which Codex
	// puts to the user first.
	Escalate bool
	// Delay is waited after response.created, before the output.
	Delay time.Duration
	// Hold, when not nil, is received from after response.created: the
	// reply stays in progress (Codex is busy) until the test closes it.
	Hold <-chan struct{}
	// Status, when not zero, answers with this HTTP error instead.
	Status int
	// Match, when set, keeps the reply in the script until a turn for
	// which it says yes.
	Match func(*Request) bool
}

// Text is a reply with one message.
func Text(s string) Reply { return Reply{Text: s} }

// Exec is a reply that runs cmd with the exec_command tool.
func Exec(cmd string) Reply { return Reply{Command: cmd} }

// Escalated is a reply that asks to run cmd outside the sandbox.
func Escalated(cmd string) Reply { return Reply{Command: cmd, Escalate: true} }

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
	// ThreadID is the conversation the request belongs to (the thread-id
	// header, which Codex sends on every model request).
	ThreadID string
	Reply    *Reply
}

// Input returns body.input's items.
func (r *Request) Input() []map[string]any {
	arr, _ := r.Body["input"].([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, it := range arr {
		if m, ok := it.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// texts returns the text parts of a message item.
func texts(item map[string]any) []string {
	switch c := item["content"].(type) {
	case string:
		return []string{c}
	case []any:
		var out []string
		for _, p := range c {
			if pm, ok := p.(map[string]any); ok {
				if t, ok := pm["text"].(string); ok {
					out = append(out, t)
				}
			}
		}
		return out
	}
	return nil
}

// UserTexts returns the text of every user message, in order.
func (r *Request) UserTexts() []string {
	var out []string
	for _, it := range r.Input() {
		if it["type"] == "message" && it["role"] == "user" {
			out = append(out, strings.Join(texts(it), "\n"))
		}
	}
	return out
}

// LastUserText is the text of the last user message.
func (r *Request) LastUserText() string {
	u := r.UserTexts()
	if len(u) == 0 {
		return ""
	}
	return u[len(u)-1]
}

// ToolOutputs returns the outputs of every function_call_output item.
func (r *Request) ToolOutputs() []string {
	var out []string
	for _, it := range r.Input() {
		if it["type"] == "function_call_output" {
			switch o := it["output"].(type) {
			case string:
				out = append(out, o)
			default:
				b, _ := json.Marshal(o)
				out = append(out, string(b))
			}
		}
	}
	return out
}

// EndsWithToolOutput reports whether the last input item is a tool's
// output: the request goes on with a turn the model began.
func (r *Request) EndsWithToolOutput() bool {
	in := r.Input()
	return len(in) > 0 && in[len(in)-1]["type"] == "function_call_output"
}

// Obey is a fake model that does what the prompt says: a last user
// message with a line "run: CMD" is answered with an exec_command call of
// CMD, one with a line "ask: CMD" with a call of CMD outside the sandbox
// (which Codex asks the user about), a request that ends with the
// command's output with "done", and anything else with "ok".
func Obey(r *Request) Reply {
	if r.EndsWithToolOutput() {
		return Text("done")
	}
	text := r.LastUserText()
	if cmd, ok := fakeserver.Line(text, "run: "); ok {
		return Exec(cmd)
	}
	if cmd, ok := fakeserver.Line(text, "ask: "); ok {
		return Escalated(cmd)
	}
	return Text("ok")
}

// Server is the fake API.
type Server struct {
	// URL is http://127.0.0.1:PORT; Codex's base_url is URL + "/v1".
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

// Close stops the server and wakes every WaitFor.
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

// WaitFor is WaitAfter over every request.
func (s *Server) WaitFor(timeout time.Duration, pred func(*Request) bool) (*Request, bool) {
	return s.WaitAfter(0, timeout, pred)
}

// IsTurn is a predicate for WaitFor.
func IsTurn(r *Request) bool { return r.Kind == KindTurn }

func classify(r *Request) Kind {
	if r.Method != http.MethodPost || !strings.HasSuffix(r.Path, "/responses") {
		return KindOther
	}
	if tools, _ := r.Body["tools"].([]any); len(tools) == 0 {
		return KindSide
	}
	return KindTurn
}

func newID(prefix string) string {
	b := make([]byte, 8)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	raw, _ := io.ReadAll(hr.Body)
	req := &Request{Time: time.Now(), Method: hr.Method, Path: hr.URL.Path, Header: hr.Header.Clone(), Raw: raw,
		ThreadID: hr.Header.Get("thread-id")}
	if len(bytes.TrimSpace(raw)) > 0 {
		json.Unmarshal(raw, &req.Body)
	}
	req.Kind = classify(req)
	var reply Reply
	switch req.Kind {
	case KindTurn:
		reply = s.take(req)
	case KindSide:
		reply = Text("Fake title")
	}
	if req.Kind != KindOther {
		r := reply
		req.Reply = &r
	}
	s.rec.Add(req, func(n int) { req.Seq = n })
	if req.Kind == KindOther {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "{}")
		return
	}
	s.answer(w, req, reply)
}

func (s *Server) take(req *Request) Reply {
	if r, ok := s.script.Take(func(r Reply) bool { return r.Match == nil || r.Match(req) }); ok {
		return r
	}
	if s.Fallback != nil {
		return s.Fallback(req)
	}
	return Obey(req)
}

// answer streams r as the Responses API does.
func (s *Server) answer(w http.ResponseWriter, req *Request, r Reply) {
	if r.Status != 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(r.Status)
		fmt.Fprintf(w, `{"error":{"message":"fake error %d","type":"server_error","code":null}}`, r.Status)
		return
	}
	model, _ := req.Body["model"].(string)
	respID := newID("resp_")
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	ev := func(data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", data["type"], b)
		if fl != nil {
			fl.Flush()
		}
	}
	created := time.Now().Unix()
	response := func(status string, output []any) map[string]any {
		m := map[string]any{"id": respID, "object": "response", "created_at": created, "status": status,
			"model": model, "output": output}
		if status == "completed" {
			m["usage"] = map[string]any{"input_tokens": 100, "input_tokens_details": map[string]any{"cached_tokens": 0},
				"output_tokens": 10, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 110}
		}
		return m
	}
	ev(map[string]any{"type": "response.created", "response": response("in_progress", []any{})})
	if r.Delay > 0 {
		time.Sleep(r.Delay)
	}
	if r.Hold != nil {
		<-r.Hold
	}
	var output []any
	if r.Text != "" || r.Command == "" {
		id := newID("msg_")
		idx := len(output)
		ev(map[string]any{"type": "response.output_item.added", "output_index": idx,
			"item": map[string]any{"type": "message", "id": id, "status": "in_progress", "role": "assistant", "content": []any{}}})
		ev(map[string]any{"type": "response.output_text.delta", "item_id": id, "output_index": idx, "content_index": 0, "delta": r.Text})
		item := map[string]any{"type": "message", "id": id, "status": "completed", "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": r.Text, "annotations": []any{}}}}
		ev(map[string]any{"type": "response.output_item.done", "output_index": idx, "item": item})
		output = append(output, item)
	}
	if r.Command != "" {
		a := map[string]any{"cmd": r.Command, "login": false}
		if r.Escalate {
			a["sandbox_permissions"] = "require_escalated"
			a["justification"] = "the test asks for it"
		}
		args, _ := json.Marshal(a)
		idx := len(output)
		item := map[string]any{"type": "function_call", "id": newID("fc_"), "call_id": newID("call_"),
			"name": "exec_command", "arguments": string(args), "status": "completed"}
		ev(map[string]any{"type": "response.output_item.added", "output_index": idx, "item": item})
		ev(map[string]any{"type": "response.output_item.done", "output_index": idx, "item": item})
		output = append(output, item)
	}
	ev(map[string]any{"type": "response.completed", "response": response("completed", output)})
}
