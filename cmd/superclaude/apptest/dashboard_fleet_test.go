package apptest

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/testkit/fakeagent"
	"github.com/superclaude/superclaude/testkit/fleetworld"
)

// The fleet test runs real tmux, the real superclaude binary in each pane
// and in the dashboard's, and this test binary, re-executed, as each
// pane's agent.

// dashWorld is a fleet test's world (fleetworld.World), with the helpers
// of the dashboard's test.
type dashWorld struct{ *fleetworld.World }

func newDashWorld(t *testing.T) *dashWorld {
	return &dashWorld{fleetworld.New(t, fleetworld.Options{Env: []string{"SUPERCLAUDE_SESSIONS_DIR="}})}
}

// tmux runs a command on the world's tmux server and fails the test when
// it fails.
func (w *dashWorld) tmux(args ...string) string {
	w.T.Helper()
	out, err := w.Tmux(args...)
	if err != nil {
		w.T.Fatalf("tmux %v: %v %s", args, err, out)
	}
	return out
}

// starts counts the fake agents started in each pane (by label).
func (w *dashWorld) starts() map[string]int {
	n := map[string]int{}
	for _, r := range fakeagent.ReadLog(w.Log, "start") {
		id := r.Env["SUPERCLAUDE_PANE_ID"]
		n[id[strings.LastIndex(id, ":")+1:]]++
	}
	return n
}

// bound counts the fleet's sessions bound to their panes' conversations
// (convID(LABEL)), as +status reads them.
func (w *dashWorld) bound() int {
	cmd := exec.Command(w.Bin, "+status", "--json", "--fleet", w.File)
	cmd.Dir, cmd.Env = w.Dir, w.Env
	out, err := cmd.Output()
	if err != nil {
		return 0 // no sessions yet
	}
	var rows []struct {
		Pane      string `json:"pane"`
		SessionID string `json:"sessionId"`
	}
	if err := json.Unmarshal(out, &rows); err != nil {
		w.T.Fatalf("+status --json: %v\n%s", err, out)
	}
	n := 0
	for _, r := range rows {
		if r.Pane != "" && r.SessionID == convID(r.Pane[strings.LastIndex(r.Pane, ":")+1:]) {
			n++
		}
	}
	return n
}

// screen is what the dashboard's pane shows.
func (w *dashWorld) screen() string { return w.tmux("capture-pane", "-p", "-t", "=dash:") }

func (w *dashWorld) waitFor(what string, ok func() bool) {
	w.T.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			logs, _ := os.ReadFile(filepath.Join(w.Dir, "state", "superclaude.log"))
			w.T.Fatalf("timed out waiting for %s\ndashboard:\n%s\nagent starts: %v\nsuperclaude.log:\n%s", what, w.screen(), w.starts(), logs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// line returns the screen's line holding s, "" when none does.
func line(screen, s string) string {
	for _, l := range strings.Split(screen, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}

// cell returns the value of a column in a row of the dashboard's table,
// found below the column's title in the header line (the columns are
// padded to one width, so each cell lines up under its title). Right-
// aligned columns end where their title ends.
func cell(screen, row, title string, right bool) string {
	header := []rune(line(screen, "LAST EVENT"))
	r := []rune(line(screen, row))
	at := strings.Index(string(header), title)
	if at < 0 || len(r) == 0 {
		return ""
	}
	start := len([]rune(string(header)[:at]))
	end := start + len([]rune(title))
	if right {
		// Walk left from the title's end to the cell's start.
		start = end
		for start > 0 && start-1 < len(r) && r[start-1] != ' ' {
			start--
		}
	} else {
		for end < len(r) && r[end] != ' ' {
			end++
		}
		if title == "LAST EVENT" {
			end = len(r)
		}
	}
	if start >= len(r) {
		return ""
	}
	return strings.TrimSpace(string(r[start:min(end, len(r))]))
}

// TestDashboardRestartsAFleetPaneFromTheKeyboard drives `superclaude
// +dashboard` in real tmux: it lists a 3-pane fleet, restarts one pane
// (select it, r, y), and shows the restart; the pane's agent starts a
// second time and the other two keep theirs.
func TestDashboardRestartsAFleetPaneFromTheKeyboard(t *testing.T) {
	w := newDashWorld(t)
	pane := func(label string) string {
		return fmt.Sprintf("\n  [[window.pane]]\n  label = %q\n  env = { FAKE_AGENT_BIND = %q }\n", label, convID(label))
	}
	fleetFile := fmt.Sprintf(`name = "work"
command = %q
env = { REEXEC_ROLE = "fakeagent", FAKE_AGENT_LOG = %q, FAKE_AGENT_SUPERCLAUDE = %q, SUPERCLAUDE_GRACE = "2s" }
`, os.Args[0], w.Log, w.Bin) + "\n[[window]]\nname = \"main\"\n" + pane("A") + pane("B") + "\n[[window]]\nname = \"side\"\n" + pane("C")
	if err := os.WriteFile(w.File, []byte(fleetFile), 0o600); err != nil {
		t.Fatal(err)
	}
	w.SC("+up", w.File)
	w.waitFor("three agents, bound to their conversations", func() bool {
		s := w.starts()
		return s["A"] == 1 && s["B"] == 1 && s["C"] == 1 && w.bound() == 3
	})

	w.tmux("new-session", "-d", "-s", "dash", "-x", "200", "-y", "30", "-c", w.Dir, "--",
		w.Bin, "+dashboard", "--refresh", "300ms")
	w.waitFor("the dashboard to list the fleet's three panes, running", func() bool {
		s := w.screen()
		for _, p := range []string{"work:main:A", "work:main:B", "work:side:C"} {
			if cell(s, p, "STATE", false) != "running" {
				return false
			}
		}
		return true
	})
	screen := w.screen()
	if !strings.Contains(screen, "3 sessions: 3 running, 0 stale, 0 stopped") {
		t.Fatalf("title:\n%s", screen)
	}
	if got := cell(screen, "work:main:B", "RST", true); got != "0" {
		t.Fatalf("pane B's restarts before: %q\n%s", got, screen)
	}

	// Select pane B (the rows are in pane order) and restart it.
	w.tmux("send-keys", "-t", "=dash:", "j")
	w.waitFor("pane B selected", func() bool { return strings.HasPrefix(line(w.screen(), "work:main:B"), "> ") })
	w.tmux("send-keys", "-t", "=dash:", "r")
	w.waitFor("the question", func() bool {
		return strings.Contains(w.screen(), "Restart the agent of session") && strings.Contains(line(w.screen(), "Restart the agent"), "pane work:main:B")
	})
	if s := w.starts(); s["B"] != 1 {
		t.Fatalf("pane B restarted before the answer: %v", s)
	}
	w.tmux("send-keys", "-t", "=dash:", "y")

	// r resumes the conversation (issue 19: it used to throw it away).
	w.waitFor("a second agent in pane B", func() bool { return w.starts()["B"] == 2 })
	w.waitFor("the dashboard to show pane B resumed", func() bool {
		s := w.screen()
		// Resuming until the resumed agent's status line binds its
		// conversation again, which the fake agent does at once.
		state := cell(s, "work:main:B", "STATE", false)
		return cell(s, "work:main:B", "RST", true) == "1" && (state == "resuming" || state == "running")
	})

	// f starts it fresh, after its own question.
	w.tmux("send-keys", "-t", "=dash:", "f")
	w.waitFor("the fresh start's question", func() bool {
		return strings.Contains(w.screen(), "again with a fresh context") && strings.Contains(line(w.screen(), "again with a fresh context"), "pane work:main:B")
	})
	w.tmux("send-keys", "-t", "=dash:", "y")
	w.waitFor("a third agent in pane B", func() bool { return w.starts()["B"] == 3 })
	w.waitFor("the dashboard to show pane B's fresh start", func() bool {
		s := w.screen()
		// The fresh agent was started with the restart prompt; until it
		// continues the session (the fake agent never does), the session
		// is restarting.
		return cell(s, "work:main:B", "RST", true) == "2" && cell(s, "work:main:B", "STATE", false) == "restarting"
	})
	screen = w.screen()
	for _, p := range []string{"work:main:A", "work:side:C"} {
		if got := cell(screen, p, "RST", true); got != "0" {
			t.Errorf("%s shows %q restarts, want 0", p, got)
		}
	}
	if !strings.Contains(screen, "fresh start of") || !strings.Contains(screen, "requested") {
		t.Errorf("no word of the restart:\n%s", screen)
	}
	if s := w.starts(); s["A"] != 1 || s["C"] != 1 {
		t.Errorf("other panes restarted too: %v", s)
	}
	t.Logf("dashboard after the restart:\n%s", screen)

	// w shows pane B's +why: the restart the dashboard asked for, and the
	// second agent.
	w.tmux("send-keys", "-t", "=dash:", "w")
	w.waitFor("pane B's +why", func() bool { return strings.HasPrefix(w.screen(), "+why ") })
	why := w.screen()
	t.Logf("+why:\n%s", why)
	if !strings.Contains(line(why, "+why"), "pane work:main:B") || strings.Count(why, "started the agent") != 3 ||
		!strings.Contains(why, "a restart was asked for: the next agent starts with a fresh context") {
		t.Errorf("+why of pane B does not show the restart:\n%s", why)
	}
	w.tmux("send-keys", "-t", "=dash:", "q")
	w.waitFor("the list again", func() bool { return strings.HasPrefix(w.screen(), "superclaude dashboard") })

	// q ends the dashboard, and the fleet goes on.
	w.tmux("send-keys", "-t", "=dash:", "q")
	w.waitFor("the dashboard to quit", func() bool {
		_, err := w.Tmux("has-session", "-t", "=dash")
		return err != nil
	})
	w.SC("+down", w.File)
}
