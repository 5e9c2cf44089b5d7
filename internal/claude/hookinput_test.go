package claude

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/state"
)

// countingReader is a reader that says how much was read of it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestReadHookInput(t *testing.T) {
	small := sample(t, "hook-PreToolUse.json")
	if got := ReadHookInput(bytes.NewReader(small)); !bytes.Equal(got, small) {
		t.Fatal("a valid input within the limit was changed")
	}

	// In Claude Code's order of fields: tool_input comes late.
	var m map[string]any
	json.Unmarshal(small, &m)
	huge := bytes.Replace(small, []byte(`"echo hi from tool"`), []byte(`"`+strings.Repeat("x", MaxHookInput+100)+`"`), 1)
	src := &countingReader{r: bytes.NewReader(huge)}
	in, err := ParseHookInput(ReadHookInput(src))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(in.Unreadable, "4 MiB") || in.ToolName != "Bash" || in.SessionID != m["session_id"] || in.TranscriptPath != m["transcript_path"] || in.ToolInput != nil {
		t.Fatalf("oversized input read as %+v", in)
	}
	if src.n != len(huge) {
		t.Fatalf("read %d of %d bytes: the rest was not drained", src.n, len(huge))
	}

	for _, bad := range []string{"", "{not json", "[1,2]x", `{"tool_name":"Bash","tool_input":{"command":"ls"`} {
		in, err := ParseHookInput(ReadHookInput(strings.NewReader(bad)))
		if err != nil || in.Unreadable == "" {
			t.Fatalf("%q read as %+v, %v", bad, in, err)
		}
		if strings.HasPrefix(bad, `{"tool_name"`) && in.ToolName != "Bash" {
			t.Fatalf("tool name not salvaged from %q: %+v", bad, in)
		}
	}
}

// An unreadable call gets none of the exemptions that depend on what it
// is; the reason says why.
func TestPreToolUseFailsClosedOnUnreadableInput(t *testing.T) {
	unreadable := func(file string) HookInput {
		in := hook(t, file, nil)
		in.Unreadable = "it is larger than the 4 MiB superclaude reads"
		return in
	}
	overflowed := base()
	overflowed.Overflowed = true
	gated := Policy{SessionRequired: true}
	for _, tc := range []struct {
		name string
		file string
		sess *state.State
		p    Policy
		deny bool
	}{
		// The dehydrate Skill call passes an overflowed session's guard
		// when read; unread, it cannot be told from any other call.
		{"dehydrate, overflowed", "hook-PreToolUse-Skill-dehydrate.json", overflowed, Policy{}, true},
		// A Skill call passes the gate when read.
		{"skill, gated", "hook-PreToolUse-Skill-dehydrate.json", nil, gated, true},
		{"bash, healthy session", "hook-PreToolUse.json", base(), Policy{}, false},
		{"bash, no session, no gate", "hook-PreToolUse.json", nil, Policy{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			readable, _ := PreToolUse(hook(t, tc.file, nil), tc.sess, tc.p)
			a, _ := PreToolUse(unreadable(tc.file), tc.sess, tc.p)
			if a.Deny != tc.deny {
				t.Fatalf("deny = %v, want %v (%q)", a.Deny, tc.deny, a.Reason)
			}
			if tc.deny && (readable.Deny || !strings.Contains(a.Reason, "could not read this tool call") || !strings.Contains(a.Reason, "4 MiB")) {
				t.Fatalf("readable deny %v; unreadable reason %q", readable.Deny, a.Reason)
			}
		})
	}
}

// FuzzHookInput: whatever claude (or anyone) writes to a hook's stdin,
// superclaude reads it without panicking into input its parser takes, and
// an input it could not read whole and well typed never passes a guard
// that is up: with the context overflowed, such a tool call is denied.
func FuzzHookInput(f *testing.F) {
	for _, s := range []string{
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"superclaude +session restart"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Skill","tool_input":{"skill":"superclaude:session","args":"dehydrate"}}`,
		`{"session_id":1,"tool_name":"Bash"}`, `{"tool_name":["Bash"]}`, `[]`, `null`, `"x"`, `{`, ``,
		`{"superclaude_unreadable":"x","tool_name":"Bash"}`, "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"\\u0000\"}}",
	} {
		f.Add([]byte(s))
	}
	overflowed := &state.State{Lifecycle: state.Active, Overflowed: true, ContextUsage: 0.9, Skill: "implement"}
	f.Fuzz(func(t *testing.T, data []byte) {
		b := ReadHookInput(bytes.NewReader(data))
		in, err := ParseHookInput(b)
		if err != nil {
			t.Fatalf("ReadHookInput gave %q, which does not parse: %v", b, err)
		}
		var probe HookInput
		wellTyped := json.Unmarshal(data, &probe) == nil && bytes.HasPrefix(bytes.TrimSpace(data), []byte("{"))
		a, _ := PreToolUse(in, overflowed, Policy{})
		if !wellTyped && !a.Deny {
			t.Fatalf("input %q, read as %+v, passed the overflow guard", data, in)
		}
		if in.Unreadable != "" && !a.Deny {
			t.Fatalf("unreadable input %q passed the overflow guard", data)
		}
	})
}
