package tmux

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// privateServer starts a tmux server of the test's own, with no
// configuration file, and returns it.
func privateServer(t *testing.T) Server {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it): this test needs a real tmux")
	}
	dir, err := os.MkdirTemp("", "sc-tmux-")
	if err != nil {
		t.Fatal(err)
	}
	s := Server{Path: filepath.Join(dir, "sock")}
	// The first command starts the server: -f /dev/null keeps the user's
	// ~/.tmux.conf out of it.
	if out, err := exec.Command("tmux", "-S", s.Path, "-f", "/dev/null", "new-session", "-d", "-s", "keep", "cat").CombinedOutput(); err != nil {
		t.Fatalf("starting tmux: %v %s", err, out)
	}
	t.Cleanup(func() {
		s.Run("kill-server")
		os.RemoveAll(dir)
	})
	return s
}

func waitFile(t *testing.T, path string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			return strings.TrimSuffix(string(b), "\n")
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never written", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWhatTmuxExpands hands every string a fleet gives tmux — session and
// window names, the start directory, environment values, the command's
// arguments — a tmux format that would run a command ("#(touch …)") and
// one that would be replaced ("#{session_id}"), and checks that each
// reaches the pane unchanged and that no command ran (issue 9: a fleet
// pane with dir = "#(touch /tmp/x)" ran the command).
func TestWhatTmuxExpands(t *testing.T) {
	s := privateServer(t)
	tmp := t.TempDir()
	marker := filepath.Join(tmp, "pwned")
	attack := "#(touch " + marker + ")#{session_id}"
	// The start directory must exist: "<tmp>/d/#(touch <tmp>/pwned)#{session_id}"
	// is a directory chain, "#(touch " / … / "pwned)#{session_id}".
	dir := filepath.Join(tmp, "d", attack)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")
	script := `pwd -P > "$1.dir"; printf '%s\n' "$V" > "$1.env"; printf '%s\n' "$2" > "$1.arg"; exec cat`
	st := func(name string) Start {
		return Start{Dir: dir, Env: []string{"V=" + attack}, Argv: []string{"sh", "-c", script, "sh", filepath.Join(out, name), attack}}
	}
	os.Mkdir(out, 0o700)
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	check := func(name string) {
		t.Helper()
		base := filepath.Join(out, name)
		if got := waitFile(t, base+".dir"); got != realDir {
			t.Errorf("%s: the pane started in %q, want %q", name, got, realDir)
		}
		if got := waitFile(t, base+".env"); got != attack {
			t.Errorf("%s: environment value %q, want %q", name, got, attack)
		}
		if got := waitFile(t, base+".arg"); got != attack {
			t.Errorf("%s: argument %q, want %q", name, got, attack)
		}
	}

	session, window := "s#{session_id}", "w#{window_id}"
	p, err := s.NewSession(session, window, st("first"))
	if err != nil {
		t.Fatal(err)
	}
	check("first")
	if p.Window != window {
		t.Errorf("window name %q, want %q", p.Window, window)
	}
	if !s.HasSession(session) {
		names, _ := s.Run("list-sessions", "-F", "#{session_name}")
		t.Errorf("no session named %q; sessions: %s", session, names)
	}
	// Option values (the fleet's mark is a file path) are stored as given.
	if err := s.SetSessionOption(session, "@mark", attack); err != nil {
		t.Fatal(err)
	}
	if got, err := s.SessionOption(session, "@mark"); err != nil || got != attack {
		t.Errorf("session option %q (%v), want %q", got, err, attack)
	}
	if _, err := s.NewWindow(session, "second", st("window")); err != nil {
		t.Fatal(err)
	}
	check("window")
	split, err := s.SplitWindow(p.WindowID, st("split"))
	if err != nil {
		t.Fatal(err)
	}
	check("split")
	s.Run("kill-pane", "-t", split.ID) // gone; respawn needs a dead pane:
	s.Run("set-option", "-w", "-t", p.WindowID, "remain-on-exit", "on")
	dead, err := s.SplitWindow(p.WindowID, Start{Dir: tmp, Argv: []string{"true"}})
	if err != nil {
		t.Fatal(err)
	}
	waitDead(t, s, session, dead.ID)
	if err := s.Respawn(dead.ID, st("respawn")); err != nil {
		t.Fatal(err)
	}
	check("respawn")

	// A "#(…)" job runs in the background: give one the time to have run
	// before looking for its mark. (Before the fix the start directory
	// check above already failed.)
	s.Run("display-message", "-p", "-t", SessionTarget("keep"), "#(true)")
	time.Sleep(200 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("tmux ran the command hidden in a string: %s exists", marker)
	}
}

func waitDead(t *testing.T, s Server, session, pane string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		panes, _ := s.Panes(session)
		for _, p := range panes {
			if p.ID == pane && p.Dead {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("pane %s never died: %+v", pane, panes)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestPaneEnvironmentStaysInThePane: new-session -e makes its variables the
// session's environment, so a pane a user later opens in a fleet session
// would inherit the first pane's identity (SUPERCLAUDE_PANE_ID) and claim
// its session. A pane's environment reaches that pane only.
func TestPaneEnvironmentStaysInThePane(t *testing.T) {
	s := privateServer(t)
	tmp := t.TempDir()
	p, err := s.NewSession("fleet", "main", Start{Dir: tmp, Env: []string{"SUPERCLAUDE_PANE_ID=fleet:main:A"}, Argv: []string{"cat"}})
	if err != nil {
		t.Fatal(err)
	}
	if env, _ := s.Run("show-environment", "-t", SessionTarget("fleet")); strings.Contains(env, "SUPERCLAUDE_PANE_ID") {
		t.Errorf("the pane's variable became the session's environment:\n%s", env)
	}
	out := filepath.Join(tmp, "user-pane")
	// A pane the user opens, as tmux's own key binding does.
	if _, err := s.Run("split-window", "-t", p.WindowID, "sh", "-c", `printf '%s\n' "id=$SUPERCLAUDE_PANE_ID" > `+out+`; exec cat`); err != nil {
		t.Fatal(err)
	}
	if got := waitFile(t, out); got != "id=" {
		t.Errorf("a pane the user opened inherited %q", got)
	}
}

func TestParseSocket(t *testing.T) {
	for in, want := range map[string][]string{
		"":             nil,
		"work":         {"-L", "work"},
		"./sock":       {"-S", "./sock"},
		"/tmp/x/sock":  {"-S", "/tmp/x/sock"},
		"dir/sock":     {"-S", "dir/sock"},
		"name-with.dt": {"-L", "name-with.dt"},
	} {
		if got := ParseSocket(in).Flags(); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("ParseSocket(%q).Flags() = %q, want %q", in, got, want)
		}
	}
}

// TestLiteralSurvivesFormatExpansion checks Literal against tmux itself:
// display-message -p expands its argument as a format.
func TestLiteralSurvivesFormatExpansion(t *testing.T) {
	s := privateServer(t)
	for _, in := range []string{"plain", "#", "##", "#{session_name}", "#(echo hi)", "a#Sb", "#[fg=red]x", "##[x", "x##y#[z", "#,#}", `\#{x}`, "end#", "#(unclosed", "#{unclosed"} {
		got, err := s.Run("display-message", "-p", "-t", SessionTarget("keep"), Literal(in))
		if err != nil {
			t.Fatal(err)
		}
		if got != in {
			t.Errorf("tmux expanded Literal(%q) to %q", in, got)
		}
	}
}

// Regression: over ssh (no LANG sent), in cron or under LANG=C, tmux
// wrote the tab-separated pane descriptions with '_' for each tab, and
// +up on such a host failed with "unexpected pane description".
func TestPanesAreReadWithoutAUTF8Locale(t *testing.T) {
	s := privateServer(t)
	for _, k := range []string{"LANG", "LC_ALL", "LC_CTYPE"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	p, err := s.NewWindow("keep", "w", Start{Dir: t.TempDir(), Argv: []string{"sleep", "30"}})
	if err != nil {
		t.Fatalf("a new window without a UTF-8 locale: %v", err)
	}
	panes, err := s.Panes("keep")
	if err != nil || len(panes) != 2 || panes[1].ID != p.ID || panes[1].Window != "w" {
		t.Fatalf("panes without a UTF-8 locale: %+v %v", panes, err)
	}
}
