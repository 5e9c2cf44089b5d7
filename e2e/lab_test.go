package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// The lab: plain claude (not under superclaude) in a tmux pane of a world,
// run with a --settings file whose status line and hooks save the JSON
// they get on stdin, and a watcher that reads claude's own
// $CLAUDE_CONFIG_DIR/sessions/<pid>.json every 20 ms. The lab tests
// (lab_*_test.go) measure what the real CLI does and assert it, so that a
// new CLI version that changes it fails here first; docs/claude-code-limits.md
// holds the findings.
//
// With SUPERCLAUDE_LAB_SAVE=<dir> (e.g. internal/claude/testdata) the lab
// tests write the payloads they assert on into that directory, paths
// rewritten to /home/user/…, as the samples the unit tests read.
const envLabSave = "SUPERCLAUDE_LAB_SAVE"

// labEvents are the hook events the lab records.
var labEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "PermissionRequest",
	"Notification", "Stop", "StopFailure", "SessionEnd"}

type lab struct {
	t        *testing.T
	w        *world
	tm       *tmuxServer
	pane     string
	out      string // captured payloads: <name>-<seconds>-<pid>.json
	settings string
	sessions *sessionWatch
}

// newLab prepares a lab in w: the dump script, the settings file, and the
// sessions watcher (started with claude). Change w's environment before.
func newLab(t *testing.T, w *world) *lab {
	l := &lab{t: t, w: w, out: filepath.Join(w.root, "lab"), settings: filepath.Join(w.root, "lab-settings.json")}
	os.MkdirAll(l.out, 0o700)
	// Each payload goes to a temporary name first, so that a reader never
	// sees half a file. The status line prints a marker to wait for.
	script := filepath.Join(w.root, "dump.sh")
	os.WriteFile(script, []byte(`#!/bin/sh
f="$1/$2-$(date +%s)-$$.json"
cat > "$f.part" && mv "$f.part" "$f"
[ "$2" = statusline ] && echo "LAB-STATUS-LINE"
exit 0
`), 0o700)
	dump := func(name string) string { return script + " " + l.out + " " + name }
	hooks := map[string]any{}
	for _, ev := range labEvents {
		hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": dump("hook-" + ev)}}}}
	}
	w.writeJSON(l.settings, map[string]any{
		"statusLine": map[string]any{"type": "command", "command": dump("statusline")},
		"hooks":      hooks,
	})
	return l
}

// useGateway makes claude take the fake API for a Claude gateway, so that
// it reads the anthropic-ratelimit-unified-* headers (usage limits, the
// status line's rate_limits), which it ignores for an API key.
func (l *lab) useGateway(token string) {
	l.w.unsetEnv("ANTHROPIC_API_KEY")
	l.w.setEnv("ANTHROPIC_AUTH_TOKEN=" + token)
}

// start runs `claude --settings <lab settings> args…` in a fresh pane and
// waits for its prompt.
func (l *lab) start(args ...string) {
	l.t.Helper()
	l.tm = l.w.tmux()
	l.pane = l.tm.pane("lab", "main", "")
	l.sessions = watchSessions(l.t, filepath.Join(l.w.config, "sessions"))
	l.tm.send(l.pane, strings.Join(append([]string{"claude", "--settings", l.settings}, args...), " ")+"; echo CLAUDE-EXIT=$?")
	l.tm.waitScreen(l.pane, "LAB-STATUS-LINE")
	first := l.sessions.wait("idle at startup", func(s sessionSample) bool { return s.Status == "idle" })
	var v struct {
		PID int `json:"pid"`
	}
	json.Unmarshal(first.Raw, &v)
	// Registered after the tmux server's own cleanup, so it runs first:
	// claude goes on writing into the world (its config, SessionEnd's
	// payload) for a moment after its pane is gone, and the world's
	// directory must outlive that.
	l.t.Cleanup(func() {
		l.tm.kill()
		deadline := time.Now().Add(wait)
		for v.PID > 0 && syscall.Kill(v.PID, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond) // its last hook's write
	})
}

// payload is one captured stdin JSON of a hook or the status line.
type payload struct {
	At   time.Time
	Raw  []byte
	JSON map[string]any
}

// Str returns the string field key ("" when absent).
func (p payload) Str(key string) string { s, _ := p.JSON[key].(string); return s }

// payloads returns the captured payloads of name (e.g. "hook-Stop",
// "statusline"), oldest first.
func (l *lab) payloads(name string) []payload {
	files, _ := filepath.Glob(filepath.Join(l.out, name+"-*.json"))
	var out []payload
	for _, f := range files {
		b, err := os.ReadFile(f)
		st, err2 := os.Stat(f)
		if err != nil || err2 != nil {
			continue
		}
		p := payload{At: st.ModTime(), Raw: b}
		if json.Unmarshal(b, &p.JSON) != nil {
			l.t.Fatalf("%s is not JSON: %s", f, b)
		}
		out = append(out, p)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].At.Before(out[j].At) })
	return out
}

// waitPayload waits for the first payload of name past the first skip
// ones for which ok says yes.
func (l *lab) waitPayload(name string, skip int, ok func(payload) bool) payload {
	l.t.Helper()
	var got payload
	l.w.until(name+" payload", func() bool {
		ps := l.payloads(name)
		for i := skip; i < len(ps); i++ {
			if ok == nil || ok(ps[i]) {
				got = ps[i]
				return true
			}
		}
		return false
	})
	return got
}

// count returns how many payloads of name were captured.
func (l *lab) count(name string) int { return len(l.payloads(name)) }

// alive reports whether claude still runs in the pane (the shell has not
// printed its exit code).
func (l *lab) alive() bool { return !strings.Contains(l.tm.capture(l.pane), "CLAUDE-EXIT=") }

// save writes raw, indented and with the world's paths rewritten to
// /home/user/…, as <dir>/<name> when SUPERCLAUDE_LAB_SAVE=<dir> is set.
func (l *lab) save(name string, raw []byte) {
	dir := os.Getenv(envLabSave)
	if dir == "" {
		return
	}
	var b bytes.Buffer
	if err := json.Indent(&b, l.anonymize(raw), "", "  "); err != nil {
		l.t.Fatalf("saving %s: %v", name, err)
	}
	b.WriteByte('\n')
	if err := os.WriteFile(filepath.Join(dir, name), b.Bytes(), 0o644); err != nil {
		l.t.Fatal(err)
	}
}

// anonymize rewrites the world's paths as a user's: the project is
// /home/user/proj, claude's config dir /home/user/.claude.
func (l *lab) anonymize(raw []byte) []byte {
	s := string(raw)
	s = strings.ReplaceAll(s, projectSlug(l.w.project), "-home-user-proj")
	s = strings.ReplaceAll(s, l.w.config, "/home/user/.claude")
	s = strings.ReplaceAll(s, l.w.project, "/home/user/proj")
	s = strings.ReplaceAll(s, l.w.root, "/home/user")
	s = strings.ReplaceAll(s, l.w.tmp, "/tmp")
	return []byte(s)
}

// projectSlug is the name of a project's directory under
// $CLAUDE_CONFIG_DIR/projects/: every non-alphanumeric character → '-'.
func projectSlug(dir string) string {
	return regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(dir, "-")
}

// sessionSample is one state of claude's sessions/<pid>.json.
type sessionSample struct {
	At         time.Time // when the watcher saw it
	Status     string    // idle | busy | waiting
	WaitingFor string    // e.g. "permission prompt"
	UpdatedAt  int64     // statusUpdatedAt, ms since the epoch (claude's clock)
	Raw        []byte
}

// sessionWatch reads the sessions directory every 20 ms and keeps every
// change of status (and of statusUpdatedAt, which claude rewrites when a
// queued prompt starts a turn while busy).
type sessionWatch struct {
	t       *testing.T
	mu      sync.Mutex
	samples []sessionSample
}

func watchSessions(t *testing.T, dir string) *sessionWatch {
	s := &sessionWatch{t: t}
	stop := make(chan struct{})
	done := make(chan struct{})
	t.Cleanup(func() { close(stop); <-done })
	go func() {
		defer close(done)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
			for _, f := range files {
				b, err := os.ReadFile(f)
				var v struct {
					Status          string `json:"status"`
					WaitingFor      string `json:"waitingFor"`
					StatusUpdatedAt int64  `json:"statusUpdatedAt"`
				}
				if err != nil || json.Unmarshal(b, &v) != nil || v.Status == "" {
					continue
				}
				s.mu.Lock()
				n := len(s.samples)
				if n == 0 || s.samples[n-1].Status != v.Status || s.samples[n-1].UpdatedAt != v.StatusUpdatedAt ||
					s.samples[n-1].WaitingFor != v.WaitingFor {
					s.samples = append(s.samples, sessionSample{At: time.Now(), Status: v.Status,
						WaitingFor: v.WaitingFor, UpdatedAt: v.StatusUpdatedAt, Raw: b})
				}
				s.mu.Unlock()
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	return s
}

// all returns the samples so far.
func (s *sessionWatch) all() []sessionSample {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]sessionSample(nil), s.samples...)
}

// last returns the latest sample.
func (s *sessionWatch) last() sessionSample {
	all := s.all()
	if len(all) == 0 {
		return sessionSample{}
	}
	return all[len(all)-1]
}

// wait waits for a sample for which ok says yes, and returns it.
func (s *sessionWatch) wait(what string, ok func(sessionSample) bool) sessionSample {
	s.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		for _, x := range s.all() {
			if ok(x) {
				return x
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("sessions/<pid>.json never showed %s; saw %s", what, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// since returns the samples seen at or after t.
func (s *sessionWatch) since(t time.Time) []sessionSample {
	var out []sessionSample
	for _, x := range s.all() {
		if !x.At.Before(t) {
			out = append(out, x)
		}
	}
	return out
}

func (s *sessionWatch) String() string {
	var b strings.Builder
	for _, x := range s.all() {
		b.WriteString(x.At.Format("15:04:05.000") + " " + x.Status)
		if x.WaitingFor != "" {
			b.WriteString(" (" + x.WaitingFor + ")")
		}
		b.WriteString("; ")
	}
	return b.String()
}
