package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/superclaude/superclaude/testkit/reexec"
)

// The test binary re-executes itself as the writer processes of the
// concurrency test.
func TestMain(m *testing.M) {
	reexec.Main(m, reexec.Roles{
		"increment": func(string) { incrementHelper() },
		"list":      func(string) { listHelper() },
	})
}

// incrementHelper runs n concurrent Updates, each adding one to the
// "counter" field of the session in STATE_TEST_DIR.
func incrementHelper() {
	dir := os.Getenv("STATE_TEST_DIR")
	n, _ := strconv.Atoi(os.Getenv("STATE_TEST_N"))
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := Update(dir, func(st *State) error {
				var c int
				if raw, ok := st.Extra("counter"); ok {
					if err := json.Unmarshal(raw, &c); err != nil {
						return err
					}
				}
				st.SetExtra("counter", json.RawMessage(strconv.Itoa(c+1)))
				return nil
			})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

var t0 = time.Date(2026, 2, 7, 14, 30, 0, 0, time.UTC)

func newStore(t testing.TB) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	now := t0
	s.Now = func() time.Time { return now }
	s.Actor = "test"
	return s
}

// seed writes a state file directly, as a seed-era tool would.
func seed(t testing.TB, s *Store, name, body string) string {
	t.Helper()
	dir := filepath.Join(s.Root, name)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, StateFile)
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestFiftyProcessesHundredUpdatesEachLoseNothing(t *testing.T) {
	s := newStore(t)
	seed(t, s, "shared", `{"pid":0,"lifecycle":"active","startedAt":"2026-02-07T14:30:00Z","counter":0}`)
	const procs, each = 50, 100
	var wg sync.WaitGroup
	for i := 0; i < procs; i++ {
		cmd := reexec.Command("increment", "", []string{
			"STATE_TEST_DIR=" + filepath.Join(s.Root, "shared"),
			"STATE_TEST_N=" + strconv.Itoa(each)})
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("writer process: %v\n%s", err, out)
			}
		}()
	}
	wg.Wait()
	st, err := s.Load("shared")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := st.Extra("counter")
	if string(raw) != strconv.Itoa(procs*each) {
		t.Fatalf("counter = %s after %d updates", raw, procs*each)
	}
}

func TestCorruptFilesAreKeptAsideAndNamed(t *testing.T) {
	valid := `{"pid":1,"lifecycle":"active","startedAt":"2026-02-07T14:30:00Z"}`
	for _, tc := range []struct {
		name, body, field, problem string
	}{
		{"empty", "", "", "file is empty"},
		{"truncated", valid[:30], "", "truncated"},
		{"not-object", `[1,2]`, "", "want a JSON object"},
		{"garbage", "\x00\x01{{", "", "not valid JSON"},
		{"pid-string", strings.Replace(valid, `"pid":1`, `"pid":"abc"`, 1), "pid", "want a number"},
		{"pid-negative", strings.Replace(valid, `"pid":1`, `"pid":-4`, 1), "pid", "whole number"},
		{"lifecycle-enum", strings.Replace(valid, `"active"`, `"overflow"`, 1), "lifecycle", `"overflow" is not one of`},
		{"overflowed-type", strings.Replace(valid, `}`, `,"overflowed":"yes"}`, 1), "overflowed", "want true or false"},
		{"usage-type", strings.Replace(valid, `}`, `,"contextUsage":[0.5]}`, 1), "contextUsage", "want a number"},
		{"counts-type", strings.Replace(valid, `}`, `,"toolCallsByTranscript":{"a.jsonl":"x"}}`, 1), "toolCallsByTranscript", `key "a.jsonl"`},
		{"future", strings.Replace(valid, "2026-02-07T14:30:00Z", "2027-01-01T00:00:00Z", 1), "startedAt", "in the future"},
		{"heartbeat-future", strings.Replace(valid, `}`, `,"lastHeartbeat":"2026-02-07T15:30:00Z"}`, 1), "lastHeartbeat", "in the future"},
		{"bad-time", strings.Replace(valid, "2026-02-07T14:30:00Z", "yesterday", 1), "startedAt", "RFC 3339"},
		{"missing-lifecycle", `{"pid":1,"startedAt":"2026-02-07T14:30:00Z"}`, "lifecycle", "required field is missing"},
		{"missing-startedAt", `{"pid":1,"lifecycle":"active"}`, "startedAt", "required field is missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newStore(t)
			path := seed(t, s, "sess", tc.body)

			// A reader names the file and field and leaves it alone.
			_, err := s.Load("sess")
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Load: %v, want *Error", err)
			}
			if e.Field != tc.field || !strings.Contains(e.Problem, tc.problem) || !strings.Contains(err.Error(), filepath.Join("sess", StateFile)) {
				t.Fatalf("Load error = %q (field %q), want field %q and %q", err, e.Field, tc.field, tc.problem)
			}
			if b, _ := os.ReadFile(path); string(b) != tc.body {
				t.Fatal("Load changed the corrupt file")
			}

			// A writer moves it aside byte for byte and writes nothing.
			called := false
			_, err = s.Update("sess", "test", func(*State) error { called = true; return nil })
			if !errors.As(err, &e) || e.KeptAs == "" || !errors.Is(err, ErrCorrupt) {
				t.Fatalf("Update: %v, want *Error with KeptAs", err)
			}
			if called {
				t.Fatal("Update called fn on a corrupt file")
			}
			if _, err := os.Stat(path); !os.IsNotExist(err) {
				t.Fatalf("corrupt file still in place (or replaced): %v", err)
			}
			kept, _ := filepath.Glob(path + CorruptSuffix + "*")
			if len(kept) != 1 {
				t.Fatalf("kept copies: %v", kept)
			}
			if b, _ := os.ReadFile(kept[0]); string(b) != tc.body {
				t.Fatalf("kept copy differs: %q", b)
			}
			if !strings.Contains(err.Error(), filepath.Base(kept[0])) {
				t.Fatalf("error %q does not say where the file went", err)
			}

			// activate then starts fresh.
			st, err := s.Activate("sess", "implement", Caller{})
			if err != nil || st.Lifecycle != Active {
				t.Fatalf("Activate after quarantine: %+v, %v", st, err)
			}
		})
	}
}

func TestUnknownFieldsSurviveEveryWrite(t *testing.T) {
	s := newStore(t)
	seed(t, s, "sess", `{
  "pid": 0, "lifecycle": "active", "startedAt": "2026-02-07T14:30:00Z",
  "customTool": {"nested": [1, 2, {"x": "y"}], "n": 1.5e3},
  "zzz": "kept",
  "aaa": null
}`)
	for _, op := range []func() (*State, error){
		func() (*State, error) { return s.Phase("sess", "Phase 2") },
		func() (*State, error) { return s.RequestRestart("sess", false, testPrompt) },
		func() (*State, error) { return s.Activate("sess", "test", Caller{}) },
		func() (*State, error) { return s.Set("sess", []string{"other=1"}) },
	} {
		if _, err := op(); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(filepath.Join(s.Root, "sess", StateFile))
	var got map[string]json.RawMessage
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{
		"customTool": `{"nested": [1, 2, {"x": "y"}], "n": 1.5e3}`,
		"zzz":        `"kept"`,
		"aaa":        `null`,
		"other":      `1`,
	} {
		var a, b bytes.Buffer
		json.Compact(&a, got[k])
		json.Compact(&b, []byte(want))
		if a.String() != b.String() {
			t.Errorf("%s = %s, want %s", k, got[k], want)
		}
	}
}

func TestFilesAndDirectoriesArePrivate(t *testing.T) {
	s := newStore(t)
	if _, err := s.Activate("sess", "implement", Caller{Pane: "f:w:p"}); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{
		s.Root:                                   0o700,
		filepath.Join(s.Root, "sess"):            0o700,
		filepath.Join(s.Root, indexDir):          0o700,
		filepath.Join(s.Root, "sess", StateFile): 0o600,
		filepath.Join(s.Root, "sess", lockFile):  0o600,
		filepath.Join(s.Root, EventsFile):        0o600,
	} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode().Perm(), want)
		}
	}
}

func TestSessionNamesCannotEscapeTheRoot(t *testing.T) {
	s := newStore(t)
	for _, bad := range []string{"", ".", "..", "../x", "a/b", `a\b`, ".index", ".hidden", "x\x00y", "tab\tname", strings.Repeat("n", MaxNameLen+1)} {
		if err := CheckName(bad); err == nil {
			t.Errorf("CheckName(%q) = nil", bad)
		}
		if _, err := s.Update(bad, "test", func(st *State) error { return nil }); err == nil {
			t.Errorf("Update(%q) succeeded", bad)
		}
	}
	for _, arg := range []string{"../outside", filepath.Join(s.Root, "..", "outside"), "/etc/passwd", filepath.Join(s.Root, "a", "b")} {
		if _, err := s.NameFromArg(arg); err == nil {
			t.Errorf("NameFromArg(%q) accepted", arg)
		}
	}
	for arg, want := range map[string]string{
		"2026_02_07_TOPIC":                        "2026_02_07_TOPIC",
		filepath.Join(s.Root, "2026_02_07_TOPIC"): "2026_02_07_TOPIC",
		filepath.Join(s.Root, "x", "..", "TOPIC"): "TOPIC",
	} {
		if got, err := s.NameFromArg(arg); err != nil || got != want {
			t.Errorf("NameFromArg(%q) = %q, %v", arg, got, err)
		}
	}
}

func TestFnErrorWritesNothing(t *testing.T) {
	s := newStore(t)
	if _, err := s.Activate("sess", "a", Caller{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(s.Root, "sess", StateFile)
	before, _ := os.ReadFile(path)
	boom := errors.New("boom")
	if _, err := s.Update("sess", "x", func(st *State) error { st.Skill = "changed"; return boom }); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
	// Invalid results are refused too, naming the field.
	_, err := s.Update("sess", "x", func(st *State) error { st.Lifecycle = "bogus"; return nil })
	if err == nil || !strings.Contains(err.Error(), `"lifecycle"`) {
		t.Fatalf("invalid write: %v", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Fatal("file changed")
	}
}

func TestRoundTripKeepsSchemaOrderAndValues(t *testing.T) {
	in := `{
  "pid": 12345,
  "sessionId": "abc-123-def",
  "skill": "implement",
  "lifecycle": "active",
  "loading": true,
  "overflowed": false,
  "killRequested": false,
  "contextUsage": 0.72,
  "currentPhase": "Phase 3: Execution",
  "fleetPaneId": "yarik-fleet:company:SDK",
  "targetFile": "IMPLEMENTATION_LOG.md",
  "sessionDescription": "Implemented SESSION_REQUIRED gate hook.\nAdded lifecycle=completed.",
  "keywords": "auth,middleware",
  "startedAt": "2026-02-07T14:30:00Z",
  "lastHeartbeat": "2026-02-07T15:45:00Z",
  "restartPrompt": "/session continue --session ... --skill ... --phase ...",
  "toolCallsSinceLastLog": 0,
  "toolCallsByTranscript": {
    "abc123.jsonl": 5,
    "agent-def456.jsonl": 3
  },
  "toolUseWithoutLogsWarnAfter": 3,
  "toolUseWithoutLogsBlockAfter": 10
}
`
	st, err := Parse([]byte(in), t0.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	out, err := st.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != in {
		t.Fatalf("round trip changed the seed's example:\n%s", out)
	}
}

func TestErrNoChangeWritesNothing(t *testing.T) {
	s := newStore(t)
	if _, err := s.Activate("sess", "a", Caller{}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(s.Root, "sess", StateFile)
	fi0, _ := os.Stat(path)
	time.Sleep(10 * time.Millisecond)
	st, err := s.Update("sess", "x", func(st *State) error { st.Skill = "changed"; return ErrNoChange })
	if err != nil || st.Skill != "a" {
		t.Fatalf("Update = %+v, %v", st, err)
	}
	fi1, _ := os.Stat(path)
	if !fi1.ModTime().Equal(fi0.ModTime()) {
		t.Fatal("ErrNoChange rewrote the file")
	}
}
