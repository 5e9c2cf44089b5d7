package fakeapi

import (
	"strings"
	"sync"
)

// Obey is a fake model that does what the prompt says, so that an
// end-to-end test can drive the real CLI the way a person types into it:
//
//   - a user prompt with a line "run: CMD" is answered with a Bash tool
//     call of CMD (the CLI runs it and sends the result back);
//   - a request whose last message carries a tool result is answered with
//     the text "done";
//   - anything else with the text "ok".
//
// Every reply reports the usage set with SetUsage, so a test moves the
// context window the status line shows. Use it as Server.Fallback:
//
//	obey := &fakeapi.Obey{}
//	srv.Fallback = obey.Reply
type Obey struct {
	mu    sync.Mutex
	usage Usage
}

// SetUsage sets the usage every later reply reports.
func (o *Obey) SetUsage(u Usage) {
	o.mu.Lock()
	o.usage = u
	o.mu.Unlock()
}

// Reply answers one turn.
func (o *Obey) Reply(r *Request) Reply {
	o.mu.Lock()
	u := o.usage
	o.mu.Unlock()
	if HasToolResult(r) {
		return Text("done").WithUsage(u)
	}
	if cmd, ok := RunLine(r.LastUserText()); ok {
		return Bash(cmd, "as asked").WithUsage(u)
	}
	return Text("ok").WithUsage(u)
}

// RunLine returns CMD from the last line of text that reads "run: CMD".
func RunLine(text string) (string, bool) {
	lines := strings.Split(text, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if cmd, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "run: "); ok && cmd != "" {
			return cmd, true
		}
	}
	return "", false
}
