package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/testkit/fakeapi"
	"github.com/superclaude/superclaude/testkit/termshot"
)

// EnvPicture names the file TestReadmePicture writes its picture to (the
// README's docs/screen.svg): `SUPERCLAUDE_PICTURE=$PWD/docs/screen.svg
// make e2e` makes it anew from a real run.
const EnvPicture = "SUPERCLAUDE_PICTURE"

// The README opens with a picture of the dashboard and of claude's status
// line under superclaude (issue 19). It is this test's: a fleet of two
// real claudes, each asked something, the dashboard beside them, and the
// screens as tmux shows them, escapes and all, drawn by testkit/termshot.
// In every run it checks that the screens show what the README says they
// do; with $SUPERCLAUDE_PICTURE set it writes the picture there.
func TestReadmePicture(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	tm := w.tmux()
	file := filepath.Join(w.project, "fleet.toml")
	os.WriteFile(file, []byte(`name = "work"
dir = "."
sessions = "sessions"

[[window]]
name = "main"

  [[window.pane]]
  label = "api"

  [[window.pane]]
  label = "web"
`), 0o600)
	if out, err := w.sc("+up", "--tmux-socket", tm.sock, file); err != nil {
		t.Fatalf("+up: %v\n%s", err, out)
	}
	tm.must("resize-window", "-t", "=work:main", "-x", "140", "-y", "34")
	w.until("both panes' claude to bind a conversation", func() bool {
		n := 0
		sessions, _ := w.store().List()
		for _, s := range sessions {
			if s.State.SessionID != "" && proc.Alive(state.Owner(s.State)) {
				n++
			}
		}
		return n == 2
	})
	// A turn in each pane, with the context each reply reports used: the
	// status line's ctx and cost, the dashboard's CTX and COST.
	asks := []struct {
		label, prompt, answer string
		used                  int
	}{
		{"api", "add a rate limit to the login handler", "Done: login now allows 5 tries a minute per address, with a test.", 76000},
		{"web", "why is the settings page slow?", "It renders every row twice: the list re-sorts on each keystroke.", 128000},
	}
	for _, a := range asks {
		pane := tm.must("list-panes", "-s", "-t", "=work", "-F", "#{pane_id}", "-f", "#{==:#{@pane_label},"+a.label+"}")
		w.api.Push(fakeapi.Text(a.answer).WithUsage(fakeapi.Usage{InputTokens: a.used, OutputTokens: 900}))
		mark := w.api.Mark()
		tm.typeLine(pane, a.prompt)
		if _, ok := w.api.WaitAfter(mark, wait, func(r *fakeapi.Request) bool { return strings.Contains(r.LastUserText(), a.prompt) }); !ok {
			t.Fatalf("pane %s: the prompt never reached the API", a.label)
		}
		tm.waitScreen(pane, a.answer[:20])
	}
	api := tm.must("list-panes", "-s", "-t", "=work", "-F", "#{pane_id}", "-f", "#{==:#{@pane_label},api}")
	statusLine := tm.waitScreen(api, "ctx 38%")

	tm.must("new-session", "-d", "-s", "dash", "-x", "140", "-y", "7", "-c", w.project, "--",
		"env", "TERM=xterm-256color", w.superclaude, "+dashboard")
	dash := tm.must("list-panes", "-t", "=dash", "-F", "#{pane_id}")
	board := tm.waitScreen(dash, "work:main:web")
	w.until("the dashboard to show both panes' context", func() bool {
		board = tm.capture(dash)
		return strings.Contains(board, "38%") && strings.Contains(board, "64%")
	})
	for _, want := range []string{"superclaude dashboard — 2 sessions: 2 running", "SESSION", "work:main:api", "running"} {
		if !strings.Contains(board, want) {
			t.Errorf("the dashboard does not show %q:\n%s", want, board)
		}
	}
	if !strings.Contains(statusLine, "$") || !strings.Contains(statusLine, " · ") {
		t.Errorf("pane api's status line:\n%s", statusLine)
	}

	shot := func(pane string, last int) [][]termshot.Span {
		out, err := tm.run("capture-pane", "-e", "-p", "-t", pane)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		for len(lines) > 0 && strings.TrimSpace(stripSGR(lines[len(lines)-1])) == "" {
			lines = lines[:len(lines)-1]
		}
		if last > 0 && len(lines) > last {
			lines = lines[len(lines)-last:]
		}
		return termshot.Parse(strings.Join(lines, "\n"))
	}
	screens := []termshot.Screen{
		{Title: "superclaude +dashboard", Cols: 140, Lines: shot(dash, 0)},
		{Title: "work:main:api — claude under superclaude", Cols: 140, Lines: shot(api, 12)},
	}
	var svg strings.Builder
	if err := termshot.SVG(&svg, screens); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(svg.String(), "superclaude dashboard") || !strings.Contains(svg.String(), "ctx 38%") {
		t.Fatalf("the picture lacks the dashboard or the status line")
	}
	if path := os.Getenv(EnvPicture); path != "" {
		if err := os.WriteFile(path, []byte(svg.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", path)
	}
	if out, err := w.sc("+down", "--tmux-socket", tm.sock, file); err != nil {
		t.Fatalf("+down: %v\n%s", err, out)
	}
}

// stripSGR drops the SGR sequences of a captured line.
func stripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			for i < len(s) && s[i] != 'm' {
				i++
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
