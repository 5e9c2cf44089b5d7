// Package fakeapi is a scriptable fake of the Anthropic Messages API, good
// enough to run the real Claude Code CLI (2.1.x) offline against 127.0.0.1.
//
// It serves POST /v1/messages (streamed SSE or plain JSON), POST
// /v1/messages/count_tokens, HEAD/GET /api/hello and answers anything else
// with an empty 200 JSON object. Stdlib only.
//
// Use from a test:
//
//	srv := fakeapi.Start()            // listens on 127.0.0.1:<random>
//	defer srv.Close()
//	srv.Push(fakeapi.Bash("echo hi", "say hi").WithUsage(fakeapi.Usage{InputTokens: 800_000}))
//	srv.Push(fakeapi.Text("done"))
//	// run claude with ANTHROPIC_BASE_URL=srv.URL ...
//	req, _ := srv.WaitFor(5*time.Second, func(r *fakeapi.Request) bool { return len(r.ToolResults()) > 0 })
//	fmt.Println(req.ToolResults()[0].Text)
//
// Requests are classified (see Kind). Only KindTurn requests consume the
// script; title requests (no tools + a json_schema output format), compaction
// requests (last user message starts with "CRITICAL: Respond with TEXT ONLY")
// and other tool-less side requests are answered automatically. When the
// script is empty a turn gets Fallback (nil: the text "ok", end_turn).
package fakeapi

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Kind classifies a /v1/messages request.
type Kind string

const (
	KindTurn    Kind = "turn"    // a normal agent turn (has tools): consumes the script
	KindTitle   Kind = "title"   // session-title request: no tools, json_schema output format
	KindCompact Kind = "compact" // compaction: last user message begins "CRITICAL: Respond with TEXT ONLY"
	KindSide    Kind = "side"    // any other tool-less request (suggestions, classifiers, quota probes …)
	KindCount   Kind = "count"   // POST /v1/messages/count_tokens
	KindOther   Kind = "other"   // any other path (HEAD /api/hello, …)
)

// CompactPrefix begins the last user message of a compaction request.
const CompactPrefix = "CRITICAL: Respond with TEXT ONLY"

// Usage is the token usage reported for one reply. The CLI's status line
// computes context_window.used_percentage from the last reply as
// round((InputTokens+CacheCreationInputTokens+CacheReadInputTokens) / window * 100).
type Usage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
}

// DefaultUsage is used by replies whose Usage is the zero value.
var DefaultUsage = Usage{InputTokens: 100, OutputTokens: 10}

// Block is one content block of a reply: text or tool_use.
type Block struct {
	Type  string         // "text" or "tool_use"
	Text  string         // for text
	ID    string         // for tool_use; generated when empty
	Name  string         // for tool_use, e.g. "Bash"
	Input map[string]any // for tool_use
}

// APIError makes a reply an HTTP error instead of a message.
type APIError struct {
	Status  int    // e.g. 400, 429, 500, 529
	Type    string // e.g. "invalid_request_error", "overloaded_error"
	Message string // e.g. "prompt is too long: 1050000 tokens > 1000000 maximum"
}

// Reply is one scripted answer.
type Reply struct {
	Content    []Block
	Usage      Usage         // zero → DefaultUsage
	StopReason string        // empty → "tool_use" if any tool_use block, else "end_turn"
	Delay      time.Duration // wait this long before answering (streamed: after message_start)
	Error      *APIError     // non-nil → answer with this HTTP error
	// Header is added to the response's headers (an error's too): the
	// rate-limit headers the real API sends, e.g. retry-after or
	// anthropic-ratelimit-unified-5h-utilization.
	Header http.Header
	// Hold, when non-nil, is received from after message_start before the
	// content is streamed; a test closes it to let the reply finish (or
	// leaves it open to keep the CLI "busy" mid-stream).
	Hold <-chan struct{}
	// Match, when non-nil, makes this reply wait in the script until a turn
	// request for which Match returns true arrives (earlier unmatched turns
	// get Fallback). Useful to target one conversation.
	Match func(*Request) bool
}

// Text is a reply with one text block.
func Text(s string) Reply { return Reply{Content: []Block{{Type: "text", Text: s}}} }

// ToolUse is a reply with one tool_use block.
func ToolUse(name string, input map[string]any) Reply {
	return Reply{Content: []Block{{Type: "tool_use", Name: name, Input: input}}}
}

// Bash is a reply that asks the CLI to run command with its Bash tool.
func Bash(command, description string) Reply {
	in := map[string]any{"command": command}
	if description != "" {
		in["description"] = description
	}
	return ToolUse("Bash", in)
}

// WithUsage returns r with usage u.
func (r Reply) WithUsage(u Usage) Reply { r.Usage = u; return r }

// WithText returns r with a text block put before its other blocks.
func (r Reply) WithText(s string) Reply {
	r.Content = append([]Block{{Type: "text", Text: s}}, r.Content...)
	return r
}

// WithDelay returns r answering after d.
func (r Reply) WithDelay(d time.Duration) Reply { r.Delay = d; return r }

// ErrorReply is a reply that fails with an HTTP error.
func ErrorReply(status int, typ, msg string) Reply {
	return Reply{Error: &APIError{Status: status, Type: typ, Message: msg}}
}

// Request is one recorded HTTP request.
type Request struct {
	Seq       int
	Time      time.Time
	Method    string
	Path      string // URL path, e.g. /v1/messages
	Query     string // raw query, e.g. beta=true
	Header    http.Header
	Raw       []byte         // raw body
	Body      map[string]any // parsed JSON body (nil if none / not JSON)
	Kind      Kind
	SessionID string // X-Claude-Code-Session-Id header
	Stream    bool
	Reply     *Reply // what was answered (nil for KindOther / KindCount)
}

// Messages returns body.messages.
func (r *Request) Messages() []map[string]any {
	arr, _ := r.Body["messages"].([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, m := range arr {
		if mm, ok := m.(map[string]any); ok {
			out = append(out, mm)
		}
	}
	return out
}

// ToolNames returns the names of body.tools.
func (r *Request) ToolNames() []string {
	arr, _ := r.Body["tools"].([]any)
	var out []string
	for _, t := range arr {
		if tm, ok := t.(map[string]any); ok {
			if n, ok := tm["name"].(string); ok {
				out = append(out, n)
			}
		}
	}
	return out
}

// Tool returns the tool definition named name, or nil.
func (r *Request) Tool(name string) map[string]any {
	arr, _ := r.Body["tools"].([]any)
	for _, t := range arr {
		if tm, ok := t.(map[string]any); ok && tm["name"] == name {
			return tm
		}
	}
	return nil
}

// System returns the system prompt text (all text blocks joined by "\n").
func (r *Request) System() string {
	switch s := r.Body["system"].(type) {
	case string:
		return s
	case []any:
		var parts []string
		for _, b := range s {
			if bm, ok := b.(map[string]any); ok {
				if t, ok := bm["text"].(string); ok {
					parts = append(parts, t)
				}
			}
		}
		return strings.Join(parts, "\n")
	}
	return ""
}

// MessageTexts returns the text blocks of message m (string content counts
// as one block). tool_result blocks are not included.
func MessageTexts(m map[string]any) []string {
	switch c := m["content"].(type) {
	case string:
		return []string{c}
	case []any:
		var out []string
		for _, b := range c {
			if bm, ok := b.(map[string]any); ok && bm["type"] == "text" {
				if t, ok := bm["text"].(string); ok {
					out = append(out, t)
				}
			}
		}
		return out
	}
	return nil
}

// UserTexts returns every text block of every user message, in order.
// Claude Code puts <system-reminder> blocks and the typed prompt in
// separate text blocks of the same message.
func (r *Request) UserTexts() []string {
	var out []string
	for _, m := range r.Messages() {
		if m["role"] == "user" {
			out = append(out, MessageTexts(m)...)
		}
	}
	return out
}

// SystemMessageTexts returns the text of role "system" entries of
// body.messages. Claude Code 2.1.330 sends one after the first user message
// holding the environment, skills listing and SessionStart additionalContext.
func (r *Request) SystemMessageTexts() []string {
	var out []string
	for _, m := range r.Messages() {
		if m["role"] == "system" {
			out = append(out, MessageTexts(m)...)
		}
	}
	return out
}

// FirstUserText returns the text blocks of the first user message joined by
// "\n" — what the conversation started with (a continuation prompt, an
// expanded slash command …).
func (r *Request) FirstUserText() string {
	for _, m := range r.Messages() {
		if m["role"] == "user" {
			return strings.Join(MessageTexts(m), "\n")
		}
	}
	return ""
}

// LastUserText returns the text blocks of the last user message joined by "\n".
func (r *Request) LastUserText() string {
	ms := r.Messages()
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i]["role"] == "user" {
			return strings.Join(MessageTexts(ms[i]), "\n")
		}
	}
	return ""
}

// ToolResult is one tool_result block sent back to the model.
type ToolResult struct {
	ToolUseID string
	IsError   bool
	Text      string // text content joined by "\n"
}

// ToolResults returns every tool_result block of the request, in order.
func (r *Request) ToolResults() []ToolResult {
	var out []ToolResult
	for _, m := range r.Messages() {
		arr, _ := m["content"].([]any)
		for _, b := range arr {
			bm, ok := b.(map[string]any)
			if !ok || bm["type"] != "tool_result" {
				continue
			}
			tr := ToolResult{}
			tr.ToolUseID, _ = bm["tool_use_id"].(string)
			tr.IsError, _ = bm["is_error"].(bool)
			switch c := bm["content"].(type) {
			case string:
				tr.Text = c
			case []any:
				var parts []string
				for _, cb := range c {
					if cm, ok := cb.(map[string]any); ok {
						if t, ok := cm["text"].(string); ok {
							parts = append(parts, t)
						}
					}
				}
				tr.Text = strings.Join(parts, "\n")
			}
			out = append(out, tr)
		}
	}
	return out
}

// LastToolResult returns the last tool_result of the request (ok=false if none).
func (r *Request) LastToolResult() (ToolResult, bool) {
	trs := r.ToolResults()
	if len(trs) == 0 {
		return ToolResult{}, false
	}
	return trs[len(trs)-1], true
}

// Server is the fake API.
type Server struct {
	URL string // http://127.0.0.1:PORT — use as ANTHROPIC_BASE_URL

	// Fallback answers a turn when the script is empty (nil: Text("ok")).
	Fallback func(*Request) Reply
	// Classify overrides the default classification (nil: Classify).
	Classify func(*Request) Kind
	// TitleText is the title request's answer (default {"title":"Fake session"},
	// or built from the schema).
	TitleText string
	// CompactText is the compaction answer's text.
	CompactText string
	// CompactUsage is the usage of the compaction answer (zero: DefaultUsage).
	CompactUsage Usage
	// Log, when non-nil, gets one line per request.
	Log     io.Writer
	ln      net.Listener
	hs      *http.Server
	mu      sync.Mutex
	cond    *sync.Cond
	q       []Reply
	reqs    []*Request
	seq     int
	gate    func(*Request) (Reply, bool)
	headers func(*Request) http.Header
}

// SetGate sets (nil: removes) a gate asked first about every
// /v1/messages request, turns and side requests alike, as the real API
// limits them all: when it says ok the request gets its reply, and a turn
// does not consume the script. Safe while requests are served. See
// LimitedUntil.
func (s *Server) SetGate(gate func(*Request) (Reply, bool)) {
	s.mu.Lock()
	s.gate = gate
	s.mu.Unlock()
}

// SetHeaders sets (nil: removes) a function whose headers are added to
// every /v1/messages answer, as the real API adds its rate-limit headers
// to each one (see UnifiedHeaders). A reply's own Header wins. Safe while
// requests are served.
func (s *Server) SetHeaders(headers func(*Request) http.Header) {
	s.mu.Lock()
	s.headers = headers
	s.mu.Unlock()
}

// Start listens on 127.0.0.1 with a random port and serves. It panics if it
// cannot listen.
func Start() *Server {
	s, err := Listen("127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	return s
}

// Listen serves on addr (must be a loopback address such as "127.0.0.1:0").
func Listen(addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{
		ln:          ln,
		URL:         "http://" + ln.Addr().String(),
		CompactText: "<summary>\n1. Primary Request and Intent: fake conversation summary.\n</summary>",
	}
	s.cond = sync.NewCond(&s.mu)
	s.hs = &http.Server{Handler: s}
	go s.hs.Serve(ln)
	return s, nil
}

// Close stops the server (it also wakes any WaitFor).
func (s *Server) Close() {
	s.hs.Close()
	s.mu.Lock()
	s.cond.Broadcast()
	s.mu.Unlock()
}

// Push appends replies to the script.
func (s *Server) Push(rs ...Reply) {
	s.mu.Lock()
	s.q = append(s.q, rs...)
	s.mu.Unlock()
}

// Pending returns how many scripted replies are left.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.q)
}

// Reset clears the script and the recorded requests.
func (s *Server) Reset() {
	s.mu.Lock()
	s.q = nil
	s.reqs = nil
	s.mu.Unlock()
}

// Requests returns a copy of the recorded requests.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.reqs...)
}

// RequestsOf returns the recorded requests of the given kinds.
func (s *Server) RequestsOf(kinds ...Kind) []*Request {
	var out []*Request
	for _, r := range s.Requests() {
		for _, k := range kinds {
			if r.Kind == k {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// Turns returns the recorded KindTurn requests.
func (s *Server) Turns() []*Request { return s.RequestsOf(KindTurn) }

// SessionIDs returns the distinct X-Claude-Code-Session-Id values of turns,
// in order of first appearance.
func (s *Server) SessionIDs() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range s.Turns() {
		if r.SessionID != "" && !seen[r.SessionID] {
			seen[r.SessionID] = true
			out = append(out, r.SessionID)
		}
	}
	return out
}

// WaitFor waits until a recorded request (already recorded or arriving)
// satisfies pred, and returns the first such one. It scans all requests, so
// use a predicate on Seq to wait only for new ones (see Mark/WaitAfter).
func (s *Server) WaitFor(timeout time.Duration, pred func(*Request) bool) (*Request, bool) {
	return s.waitFrom(0, timeout, pred)
}

// Mark returns the current request count, for WaitAfter.
func (s *Server) Mark() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

// WaitAfter is WaitFor over requests recorded after mark.
func (s *Server) WaitAfter(mark int, timeout time.Duration, pred func(*Request) bool) (*Request, bool) {
	return s.waitFrom(mark, timeout, pred)
}

func (s *Server) waitFrom(from int, timeout time.Duration, pred func(*Request) bool) (*Request, bool) {
	deadline := time.Now().Add(timeout)
	t := time.AfterFunc(timeout, func() { s.mu.Lock(); s.cond.Broadcast(); s.mu.Unlock() })
	defer t.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	i := from
	for {
		for ; i < len(s.reqs); i++ {
			if pred == nil || pred(s.reqs[i]) {
				return s.reqs[i], true
			}
		}
		if !time.Now().Before(deadline) {
			return nil, false
		}
		s.cond.Wait()
	}
}

// IsTurn, IsTitle … are predicates for WaitFor.
func IsTurn(r *Request) bool    { return r.Kind == KindTurn }
func IsCompact(r *Request) bool { return r.Kind == KindCompact }
func IsTitle(r *Request) bool   { return r.Kind == KindTitle }

// HasToolResult is a predicate: the request's last message carries a tool_result.
func HasToolResult(r *Request) bool {
	ms := r.Messages()
	if len(ms) == 0 {
		return false
	}
	arr, _ := ms[len(ms)-1]["content"].([]any)
	for _, b := range arr {
		if bm, ok := b.(map[string]any); ok && bm["type"] == "tool_result" {
			return true
		}
	}
	return false
}

// Classify is the default request classification.
func Classify(r *Request) Kind {
	if r.Method != http.MethodPost || !strings.HasPrefix(r.Path, "/v1/messages") {
		return KindOther
	}
	if strings.HasSuffix(r.Path, "/count_tokens") {
		return KindCount
	}
	if r.isCompaction() {
		return KindCompact
	}
	tools, _ := r.Body["tools"].([]any)
	if len(tools) == 0 {
		if jsonSchema(r.Body) != nil {
			return KindTitle
		}
		return KindSide
	}
	return KindTurn
}

// isCompaction: a text block of the last user message begins with CompactPrefix.
func (r *Request) isCompaction() bool {
	ms := r.Messages()
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i]["role"] != "user" {
			continue
		}
		for _, t := range MessageTexts(ms[i]) {
			if strings.HasPrefix(strings.TrimSpace(t), CompactPrefix) {
				return true
			}
		}
		return false
	}
	return false
}

// jsonSchema returns the json_schema of the request's output format, if any
// (output_format.schema or output_config.format.schema).
func jsonSchema(body map[string]any) map[string]any {
	try := func(f any) map[string]any {
		fm, ok := f.(map[string]any)
		if !ok || fm["type"] != "json_schema" {
			return nil
		}
		if sc, ok := fm["schema"].(map[string]any); ok {
			return sc
		}
		return map[string]any{}
	}
	if sc := try(body["output_format"]); sc != nil {
		return sc
	}
	if oc, ok := body["output_config"].(map[string]any); ok {
		if sc := try(oc["format"]); sc != nil {
			return sc
		}
	}
	return nil
}

// sampleFor builds a JSON value satisfying a (simple) JSON schema.
func sampleFor(sc map[string]any, key string) any {
	if en, ok := sc["enum"].([]any); ok && len(en) > 0 {
		return en[0]
	}
	switch sc["type"] {
	case "object":
		out := map[string]any{}
		props, _ := sc["properties"].(map[string]any)
		for k, v := range props {
			vm, _ := v.(map[string]any)
			out[k] = sampleFor(vm, k)
		}
		return out
	case "array":
		return []any{}
	case "boolean":
		return false
	case "integer", "number":
		return 0
	default:
		if key == "title" || key == "" {
			return "Fake session"
		}
		return "fake " + key
	}
}

func newID(prefix string) string {
	b := make([]byte, 10)
	rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func (s *Server) ServeHTTP(w http.ResponseWriter, hr *http.Request) {
	raw, _ := io.ReadAll(hr.Body)
	req := &Request{
		Time:      time.Now(),
		Method:    hr.Method,
		Path:      hr.URL.Path,
		Query:     hr.URL.RawQuery,
		Header:    hr.Header.Clone(),
		Raw:       raw,
		SessionID: hr.Header.Get("X-Claude-Code-Session-Id"),
	}
	if len(bytes.TrimSpace(raw)) > 0 {
		var body map[string]any
		if json.Unmarshal(raw, &body) == nil {
			req.Body = body
		}
	}
	req.Stream, _ = req.Body["stream"].(bool)
	classify := s.Classify
	if classify == nil {
		classify = Classify
	}
	req.Kind = classify(req)

	s.mu.Lock()
	gate, headers := s.gate, s.headers
	s.mu.Unlock()
	var reply Reply
	gated := false
	if gate != nil && req.Kind != KindOther && req.Kind != KindCount {
		reply, gated = gate(req)
	}
	switch {
	case gated:
	case req.Kind == KindTurn:
		reply = s.take(req)
	case req.Kind == KindTitle:
		t := s.TitleText
		if t == "" {
			b, _ := json.Marshal(sampleFor(jsonSchema(req.Body), ""))
			t = string(b)
		}
		reply = Text(t)
	case req.Kind == KindCompact:
		reply = Text(s.CompactText).WithUsage(s.CompactUsage)
	case req.Kind == KindSide:
		reply = Text("ok")
	}
	if headers != nil && req.Kind != KindOther && req.Kind != KindCount {
		h := headers(req).Clone()
		if h == nil {
			h = http.Header{}
		}
		for k, v := range reply.Header {
			h[http.CanonicalHeaderKey(k)] = v
		}
		reply.Header = h
	}

	s.mu.Lock()
	s.seq++
	req.Seq = s.seq
	if req.Kind != KindOther && req.Kind != KindCount {
		r := reply
		req.Reply = &r
	}
	s.reqs = append(s.reqs, req)
	s.cond.Broadcast()
	s.mu.Unlock()
	if s.Log != nil {
		fmt.Fprintf(s.Log, "fakeapi: #%d %s %s?%s kind=%s session=%s stream=%v\n",
			req.Seq, req.Method, req.Path, req.Query, req.Kind, req.SessionID, req.Stream)
	}

	switch req.Kind {
	case KindOther:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		if hr.Method != http.MethodHead {
			io.WriteString(w, "{}")
		}
		return
	case KindCount:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens":100}`)
		return
	}
	s.answer(w, req, reply)
}

// take pops the first scripted reply matching req, or the fallback.
func (s *Server) take(req *Request) Reply {
	s.mu.Lock()
	for i, r := range s.q {
		if r.Match == nil || r.Match(req) {
			s.q = append(s.q[:i:i], s.q[i+1:]...)
			s.mu.Unlock()
			return r
		}
	}
	fb := s.Fallback
	s.mu.Unlock()
	if fb != nil {
		return fb(req)
	}
	return Text("ok")
}

func (s *Server) answer(w http.ResponseWriter, req *Request, r Reply) {
	for k, v := range r.Header {
		w.Header()[http.CanonicalHeaderKey(k)] = v
	}
	if r.Error != nil {
		if r.Delay > 0 {
			time.Sleep(r.Delay)
		}
		id := newID("req_")
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("request-id", id)
		w.WriteHeader(r.Error.Status)
		b, _ := json.Marshal(map[string]any{"type": "error",
			"error": map[string]any{"type": r.Error.Type, "message": r.Error.Message}, "request_id": id})
		w.Write(b)
		return
	}
	u := r.Usage
	if u == (Usage{}) {
		u = DefaultUsage
	}
	stop := r.StopReason
	blocks := make([]map[string]any, 0, len(r.Content))
	for _, b := range r.Content {
		switch b.Type {
		case "tool_use":
			id := b.ID
			if id == "" {
				id = newID("toolu_")
			}
			in := b.Input
			if in == nil {
				in = map[string]any{}
			}
			blocks = append(blocks, map[string]any{"type": "tool_use", "id": id, "name": b.Name, "input": in})
			if stop == "" {
				stop = "tool_use"
			}
		default:
			blocks = append(blocks, map[string]any{"type": "text", "text": b.Text})
		}
	}
	if stop == "" {
		stop = "end_turn"
	}
	model, _ := req.Body["model"].(string)
	if model == "" {
		model = "claude-fake"
	}
	msgID := newID("msg_")
	usage := map[string]any{
		"input_tokens":                u.InputTokens,
		"cache_creation_input_tokens": u.CacheCreationInputTokens,
		"cache_read_input_tokens":     u.CacheReadInputTokens,
		"output_tokens":               u.OutputTokens,
		"service_tier":                "standard",
	}
	w.Header().Set("request-id", newID("req_"))
	w.Header().Set("anthropic-organization-id", "00000000-0000-4000-8000-000000000000")

	if !req.Stream {
		if r.Delay > 0 {
			time.Sleep(r.Delay)
		}
		if r.Hold != nil {
			<-r.Hold
		}
		w.Header().Set("Content-Type", "application/json")
		b, _ := json.Marshal(map[string]any{
			"id": msgID, "type": "message", "role": "assistant", "model": model,
			"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": usage,
		})
		w.Write(b)
		return
	}

	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	fl, _ := w.(http.Flusher)
	ev := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
		if fl != nil {
			fl.Flush()
		}
	}
	startUsage := map[string]any{
		"input_tokens":                u.InputTokens,
		"cache_creation_input_tokens": u.CacheCreationInputTokens,
		"cache_read_input_tokens":     u.CacheReadInputTokens,
		"output_tokens":               1,
		"service_tier":                "standard",
	}
	ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": msgID, "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": startUsage,
	}})
	if r.Delay > 0 {
		time.Sleep(r.Delay)
	}
	if r.Hold != nil {
		<-r.Hold
	}
	ev("ping", map[string]any{"type": "ping"})
	for i, b := range blocks {
		if b["type"] == "tool_use" {
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			js, _ := json.Marshal(b["input"])
			// split the JSON in two deltas, as the real API streams it in pieces
			half := len(js) / 2
			for _, part := range []string{"", string(js[:half]), string(js[half:])} {
				ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]any{"type": "input_json_delta", "partial_json": part}})
			}
		} else {
			ev("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "text", "text": ""}})
			text, _ := b["text"].(string)
			for _, part := range splitText(text) {
				ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i,
					"delta": map[string]any{"type": "text_delta", "text": part}})
			}
		}
		ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	ev("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": usage})
	ev("message_stop", map[string]any{"type": "message_stop"})
}

// splitText cuts s into two pieces (one if short), like a token stream.
func splitText(s string) []string {
	if len(s) < 8 {
		return []string{s}
	}
	h := len(s) / 2
	for h < len(s) && (s[h]&0xC0) == 0x80 { // keep UTF-8 sequences whole
		h++
	}
	return []string{s[:h], s[h:]}
}
