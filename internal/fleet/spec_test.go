package fleet

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func writeFleet(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "fleet.toml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadResolvesPanes(t *testing.T) {
	path := writeFleet(t, `
name = "work"
agent = "claude"
env = { A = "fleet", B = "fleet" }

[[window]]
name = "company"
dir = "co"

  [[window.pane]]
  label = "SDK"
  dir = "sdk"
  args = ["--model", "opus"]
  env = { B = "pane" }

  [[window.pane]]
  label = "API"
  agent = "codex"
  command = "/opt/codex"
`)
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	base := filepath.Dir(path)
	w := s.Windows[0]
	if got := s.PaneDir(w, w.Panes[0]); got != filepath.Join(base, "co", "sdk") {
		t.Errorf("pane dir %s", got)
	}
	if got := s.PaneID(w, w.Panes[1]); got != "work:company:API" {
		t.Errorf("pane id %s", got)
	}
	if got := s.SessionsDir(); got != filepath.Join(base, "sessions") {
		t.Errorf("sessions dir %s", got)
	}
	if got := fmt.Sprint(s.PaneCommand("/bin/superclaude", w.Panes[0])); got != "[/bin/superclaude +run --profile claude -- --model opus]" {
		t.Errorf("command %s", got)
	}
	if got := fmt.Sprint(s.PaneCommand("/bin/superclaude", w.Panes[1])); got != "[/bin/superclaude +run --profile codex --agent /opt/codex --]" {
		t.Errorf("command %s", got)
	}
	env := strings.Join(s.PaneEnv(w, w.Panes[0], []string{"X=extra"}), " ")
	for _, want := range []string{"A=fleet", "B=pane", "X=extra", "SUPERCLAUDE_PANE_ID=work:company:SDK", "SUPERCLAUDE_SESSIONS_DIR=" + filepath.Join(base, "sessions")} {
		if !strings.Contains(env, want) {
			t.Errorf("env %s lacks %s", env, want)
		}
	}
}

func TestLoadNamesWhatIsWrong(t *testing.T) {
	for body, want := range map[string]string{
		`name = "work"`: "no [[window]]",
		`name = "a:b"
[[window]]
name = "w"
[[window.pane]]
label = "x"`: `name "a:b"`,
		`name = "work"
[[window]]
name = "w"
[[window.pane]]
label = "x"
[[window.pane]]
label = "x"`: `label "x" appears twice`,
		`name = "work"
[[window]]
name = "w"
[[window.pane]]
label = "x"
agnet = "claude"`: `unknown key "window.pane.agnet"`,
		`name = "work"
[[window]]
name = "w"
[[window.pane]]
label = "x"
agent = "vim"`: `unknown agent "vim"`,
		`name = "work"
[[window]
`: "line ",
	} {
		_, err := Load(writeFleet(t, body))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "fleet.toml") {
			t.Errorf("%q: error %v, want %q", body, err, want)
		}
	}
}

// Attack (issue 17): a label, a window name or a fleet name holding shell
// text — $(…), ';', quotes, a newline — or what tmux reads in a target
// (':', '.') is refused when the file is read, before anything is made
// here or on a host, and the error says why such names are plain.
func TestAttackHostileLabelIsRefusedBeforeAnythingRuns(t *testing.T) {
	for _, evil := range []string{"R$(touch PWNED)", "a;b", "it's", `say "hi"`, "a\nb", "a:b", "a.b", "a b", "../x", "`id`", "ü"} {
		for _, body := range []string{
			fmt.Sprintf("name = \"work\"\n[[window]]\nname = \"w\"\nhost = \"box\"\n[[window.pane]]\nlabel = %q\n", evil),
			fmt.Sprintf("name = \"work\"\n[[window]]\nname = %q\n[[window.pane]]\nlabel = \"x\"\n", evil),
			fmt.Sprintf("name = %q\n[[window]]\nname = \"w\"\n[[window.pane]]\nlabel = \"x\"\n", evil),
		} {
			_, err := Load(writeFleet(t, body))
			if err == nil || !strings.Contains(err.Error(), "only letters, digits, '-' and '_'") || !strings.Contains(err.Error(), "tmux's target names") {
				t.Errorf("%q: error %v, want it refused, saying why", body, err)
			}
		}
	}
}

// Attack: a cloned repository's fleet file that is a link to /dev/zero
// took `superclaude +up fleet.toml` past 3 GB of memory until it died,
// and one that is a FIFO (made by anyone who can write the directory)
// hung it for ever: the file was read whole, however long, following the
// link. A fleet file that is no regular file, or one over 1 MiB, is
// refused at once, with an error naming it.
func TestAttackFleetFileLinkedToDevZeroIsRefused(t *testing.T) {
	dir := t.TempDir()
	zero := filepath.Join(dir, "zero.toml")
	os.Symlink("/dev/zero", zero)
	fifo := filepath.Join(dir, "fifo.toml")
	syscall.Mkfifo(fifo, 0o600)
	big := filepath.Join(dir, "big.toml")
	os.WriteFile(big, []byte("name = \"x\"\n"+strings.Repeat("#\n", 1<<20)), 0o600)
	for _, path := range []string{zero, fifo, big} {
		done := make(chan error, 1)
		go func() { _, err := Load(path); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), path) {
				t.Errorf("Load(%s) = %v; want an error naming it", filepath.Base(path), err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("Load(%s) still reads after 5 s", filepath.Base(path))
		}
	}
}

// Attack: the part of a fleet that a host is sent was written to
// <part>.next with O_TRUNC and O_NOFOLLOW, which does not see a hard link:
// one planted there (by a neighbour of the same user, who can link to
// the user's files) had the part written into the file it shares,
// ~/.bashrc say. The part is written to a new file, never through what
// was there.
func TestAttackHardLinkAtAPartFileIsNotWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "bashrc")
	os.WriteFile(victim, []byte("keep\n"), 0o600)
	next := filepath.Join(dir, "fleet.toml.next")
	if err := os.Link(victim, next); err != nil {
		t.Fatal(err)
	}
	if err := writePrivate(next, "name = \"x\"\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep\n" {
		t.Errorf("the file hard-linked at the part's name was written: %q", b)
	}
	if b, _ := os.ReadFile(next); string(b) != "name = \"x\"\n" {
		t.Errorf("the part: %q", b)
	}
}
