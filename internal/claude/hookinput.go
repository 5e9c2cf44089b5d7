package claude

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/superclaude/superclaude/state"
)

// MaxHookInput is how much of a hook's stdin superclaude reads. Claude
// Code's payloads are a few KiB, but a tool call carries its whole input
// (a Write of a big file), so one can be larger.
const MaxHookInput = 4 << 20

// maxDrain bounds how much of an oversized input is read and thrown away,
// so that claude's write of it does not fail.
const maxDrain = 1 << 30

// unreadableKey is the field ReadHookInput puts in the input it stands in
// for one it could not read; HookInput.Unreadable holds it.
const unreadableKey = "superclaude_unreadable"

// salvaged are the fields ReadHookInput keeps from an input it could not
// read whole: everything small a guard or a message uses. tool_input is
// not among them: it is what made the input too big, and an exemption that
// depends on it cannot be granted unread.
var salvaged = map[string]bool{
	"session_id": true, "transcript_path": true, "cwd": true, "hook_event_name": true,
	"tool_name": true, "tool_use_id": true, "prompt_id": true, "permission_mode": true, "source": true, "trigger": true,
	"error": true, "error_details": true,
}

// InputDeadline bounds how long a hook or the status line waits for
// claude to finish writing its input and close it: one that never closes
// its end would otherwise keep the tool call (or the status line) waiting
// for ever. Claude writes a few KiB at once; past this the input is taken
// as unreadable.
var InputDeadline = 5 * time.Second

// ReadInput reads r to its end, at most limit bytes, within InputDeadline.
// Past the limit the rest is read and thrown away (up to maxDrain), so that
// the writer does not fail; over is set. When the deadline passes first,
// late is set and what was read so far is not returned: the reading goes
// on in the background, and the caller answers and exits.
//
// A file (claude's pipe on standard input) is read in the calling
// goroutine where the system lets it be waited on with a timeout
// (readFileInput): a callback's read then needs no second goroutine, no
// timer and no hand-over between threads, which cost a status-line tick a
// tenth of its time (issue 22).
func ReadInput(r io.Reader, limit int64) (data []byte, over, late bool, err error) {
	if f, ok := r.(*os.File); ok {
		if data, over, late, err, ok := readFileInput(f, limit, time.Now().Add(InputDeadline)); ok {
			return data, over, late, err
		}
	}
	type result struct {
		b    []byte
		over bool
		err  error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(io.LimitReader(r, limit+1))
		over := int64(len(b)) > limit
		if over {
			b = b[:limit]
			io.Copy(io.Discard, io.LimitReader(r, maxDrain))
		}
		done <- result{b, over, err}
	}()
	t := time.NewTimer(InputDeadline)
	defer t.Stop()
	select {
	case res := <-done:
		return res.b, res.over, false, res.err
	case <-t.C:
		return nil, false, true, nil
	}
}

// ReadHookInput reads a hook's stdin, at most MaxHookInput bytes, within
// InputDeadline. An input within the limit that is valid JSON comes back
// as it is. Anything else — over the limit, not JSON, or not closed in
// time — comes back as a small JSON object that says why
// (HookInput.Unreadable) and keeps the fields of salvaged that could be
// read from the start of the input, so that the guards fail closed on it
// (see PreToolUse) instead of letting the call through as input they could
// not parse.
func ReadHookInput(r io.Reader) []byte {
	b, over, late, err := ReadInput(r, MaxHookInput)
	switch {
	case late:
		return unreadable(nil, fmt.Sprintf("claude did not finish writing it within %s", InputDeadline))
	case err != nil:
		return unreadable(b, "reading it failed: "+err.Error())
	case over:
		return unreadable(b, fmt.Sprintf("it is larger than the %d MiB superclaude reads", MaxHookInput>>20))
	case !json.Valid(b):
		return unreadable(b, "it is not valid JSON")
	}
	return b
}

// unreadable builds the stand-in for an input that could not be read.
func unreadable(head []byte, why string) []byte {
	out := map[string]any{unreadableKey: why}
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		b, _ := json.Marshal(out)
		return b
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			break // cut off inside this value
		}
		if salvaged[key] {
			var s string
			if json.Unmarshal(val, &s) == nil {
				out[key] = s
			}
		}
	}
	b, _ := json.Marshal(out)
	return b
}

// PreToolUse is the guard before every tool call: the session gate, the
// overflow guard, then the logging heartbeat (see preToolUse). sess is the session found for the caller, nil when there is
// none. It returns the answer and the state change to make; the caller
// makes it under the session's lock and asks again there, so that two
// concurrent tool calls count twice.
//
// A call whose input superclaude could not read (HookInput.Unreadable)
// gets no exemption that depends on what it is: where a guard is up it is
// denied, and the reason says why; where none is (no gate, no session, a
// healthy session) it passes, as any call would.
func PreToolUse(in HookInput, sess *state.State, p Policy) (Answer, Change) {
	a, c := preToolUse(in, sess, p)
	if a.Deny && in.Unreadable != "" {
		a.Reason += " (superclaude could not read this tool call: " + in.Unreadable +
			"; so it cannot tell whether the call is one that is allowed, and blocks it like any other.)"
	}
	return a, c
}
