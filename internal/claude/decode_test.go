package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// samples are claude's payloads in testdata whose names match pattern.
func samples(t testing.TB, pattern string) [][]byte {
	files, _ := filepath.Glob(filepath.Join("testdata", pattern))
	if len(files) == 0 {
		t.Fatalf("no %s in testdata", pattern)
	}
	var out [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// statusLineSamples are claude's status-line payloads in testdata.
func statusLineSamples(t testing.TB) [][]byte { return samples(t, "statusline-*.json") }

// Every payload claude sends (the samples) is read without encoding/json
// (issue 22: its first use cost a tick 130 µs), to what json.Unmarshal
// reads; what is not plain is left to json.Unmarshal.
func TestStatusLineSamplesTakeTheDecoderWithoutReflection(t *testing.T) {
	for i, b := range statusLineSamples(t) {
		got, ok := decodeStatusLine(b)
		var want StatusLine
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("sample %d: ok %v\n got %+v\nwant %+v", i, ok, got, want)
		}
	}
	for _, declined := range []string{
		`{"Session_ID":"x"}`, `{"cost":{"total_cost_usd":"1"}}`,
		`{"model":{"id":"a"},"model":{"display_name":"b"}}`, `{"context_window":{"context_window_size":1.5}}`,
		`{"rate_limits":{"five_hour":null}}`, `[1]`, `{"cwd":1}`, `{`,
	} {
		if _, ok := decodeStatusLine([]byte(declined)); ok {
			t.Errorf("%s read without json.Unmarshal", declined)
		}
	}
}

// FuzzStatusLineDecodersAgree: whatever the input, the decoder without
// reflection either declines it or reads what json.Unmarshal reads, and
// ParseStatusLine answers as json.Unmarshal alone did.
func FuzzStatusLineDecodersAgree(f *testing.F) {
	for _, b := range statusLineSamples(f) {
		f.Add(b)
	}
	for _, s := range []string{`null`, `{}`, `{"rate_limits":null}`, `{"rate_limits":{}}`,
		`{"context_window":{"used_percentage":null,"context_window_size":-3}}`, `{"x":[{"y":"\u00e9"}],"cwd":"/é"}`,
		`{"rate_limits":{"a":{"resets_at":1e3}}}`, `{"cost":{"total_cost_usd":-0}}`, `{"session_id":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want StatusLine
		werr := json.Unmarshal(data, &want)
		if got, ok := decodeStatusLine(data); ok && (werr != nil || !reflect.DeepEqual(got, want)) {
			t.Fatalf("%q: read %+v; json.Unmarshal: %+v, %v", data, got, want, werr)
		}
		got, err := ParseStatusLine(data)
		if (err != nil) != (werr != nil) || werr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: ParseStatusLine %+v, %v; json.Unmarshal %+v, %v", data, got, err, want, werr)
		}
	})
}

// hookSamples are claude's hook inputs in testdata.
func hookSamples(t testing.TB) [][]byte { return samples(t, "hook-*.json") }

// toolCallOf is what HookInput.Tool read of a tool input with
// json.Unmarshal alone.
func toolCallOf(in HookInput) ToolCall {
	var ti struct {
		Command  string `json:"command"`
		FilePath string `json:"file_path"`
		Skill    string `json:"skill"`
		Args     string `json:"args"`
	}
	json.Unmarshal(in.ToolInput, &ti)
	return ToolCall{Name: in.ToolName, Command: ti.Command, FilePath: ti.FilePath, Skill: ti.Skill, Args: ti.Args}
}

// Every hook input claude sends (the samples), and the tool call in it,
// is read without encoding/json (issue 22), to what json.Unmarshal reads.
func TestHookSamplesTakeTheDecoderWithoutReflection(t *testing.T) {
	for i, b := range hookSamples(t) {
		if len(b) == 0 {
			continue // an event claude gave no input (SessionEnd)
		}
		got, ok := decodeHookInput(b)
		var want HookInput
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("sample %d: ok %v\n got %+v\nwant %+v", i, ok, got, want)
		}
		if len(want.ToolInput) > 0 {
			if _, _, _, _, ok := decodeToolCall(want.ToolInput); !ok || got.Tool() != toolCallOf(want) {
				t.Errorf("sample %d: tool call %+v (ok %v), want %+v", i, got.Tool(), ok, toolCallOf(want))
			}
		}
	}
}

// FuzzHookDecodersAgree: whatever the input, ParseHookInput and Tool
// answer as with json.Unmarshal alone.
func FuzzHookDecodersAgree(f *testing.F) {
	for _, b := range hookSamples(f) {
		f.Add(b)
	}
	for _, s := range []string{`null`, `{}`, `{"tool_input":null}`, `{"tool_input":{"command":"echo \"hi\"\n","file_path":null}}`,
		`{"tool_name":5}`, `{"TOOL_NAME":"Bash"}`, `{"tool_input":{"command":1,"file_path":"x"}}`, `{"tool_input":[1]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var want HookInput
		werr := json.Unmarshal(data, &want)
		if got, ok := decodeHookInput(data); ok && (werr != nil || !reflect.DeepEqual(got, want)) {
			t.Fatalf("%q: read %+v; json.Unmarshal: %+v, %v", data, got, want, werr)
		}
		got, err := ParseHookInput(data)
		if werr == nil && (err != nil || !reflect.DeepEqual(got, want)) {
			t.Fatalf("%q: ParseHookInput %+v, %v; json.Unmarshal %+v", data, got, err, want)
		}
		if werr == nil && got.Tool() != toolCallOf(want) {
			t.Fatalf("%q: Tool %+v; json.Unmarshal %+v", data, got.Tool(), toolCallOf(want))
		}
	})
}
