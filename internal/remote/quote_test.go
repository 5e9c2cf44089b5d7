package remote

import (
	"context"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// hostile are words that a shell would expand, split or run if they
// reached it unquoted.
var hostile = []string{
	"", "plain", "two words", "$(touch pwned)", "`touch pwned`", "a;touch pwned", "a&&b||c",
	"'", "''", `"`, `it's "quoted"`, `back\slash\`, "new\nline", "tab\there", "$HOME", "${HOME}",
	"*", "~", "~root", "#comment", "a|b", "<in", ">out", "!!", "%1", "{a,b}", "-n", "--",
	"ünïcødé ✓", "\x01ctl",
}

// Every word reaches a real POSIX shell unchanged: sh -c with the line
// RemoteCommand makes prints each argument back, and nothing runs.
func TestRemoteCommandReachesTheShellUnchanged(t *testing.T) {
	for _, shell := range []string{"sh", "bash", "dash"} {
		path, err := exec.LookPath(shell)
		if err != nil {
			continue
		}
		dir := t.TempDir()
		line := RemoteCommand(append([]string{"printf", `%s\0`}, hostile...))
		cmd := exec.Command(path, "-c", line)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s -c %q: %v", shell, line, err)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if len(got) != len(hostile) {
			t.Fatalf("%s: %d words came back, want %d: %q", shell, len(got), len(hostile), got)
		}
		for i := range hostile {
			if got[i] != hostile[i] {
				t.Errorf("%s: word %d came back %q, want %q", shell, i, got[i], hostile[i])
			}
		}
		if out, _ := exec.Command("ls", "-A", dir).Output(); len(out) != 0 {
			t.Errorf("%s: something ran: %s", shell, out)
		}
	}
}

// The command that starts superclaude on the other side is a constant
// with nothing a shell would treat specially inside single quotes, so any
// shell that has single quotes reads it the same.
func TestFindScriptNeedsNoEscapes(t *testing.T) {
	for _, w := range serveArgv {
		if strings.ContainsAny(w, `'\`) {
			t.Errorf("word %q of the remote command holds a quote or a backslash", w)
		}
	}
}

func TestCheckDestination(t *testing.T) {
	good := []string{"box", "me@box", "me@box.example.org", "ssh://me@box:2222", "me@[::1]", "build_box-2", "me@10.0.0.7", "user+tag@host"}
	bad := []string{"", "-oProxyCommand=touch /tmp/x", "-p", "box;id", "box $(id)", "me@box\nid", "box`id`", "b'ox", `b"ox`, "box\x00", "box ", strings.Repeat("a", 300)}
	for _, h := range good {
		if err := CheckDestination(h); err != nil {
			t.Errorf("CheckDestination(%q) = %v, want nil", h, err)
		}
	}
	for _, h := range bad {
		if err := CheckDestination(h); err == nil {
			t.Errorf("CheckDestination(%q) = nil, want an error", h)
		}
	}
}

// A host that ssh would read as an option never reaches ssh, and the host
// always follows "--".
func TestAttackHostAsSSHOption(t *testing.T) {
	s := &SSH{ControlDir: t.TempDir()}
	if _, err := s.Command(context.Background(), "-oProxyCommand=touch /tmp/pwned", false, "true"); err == nil {
		t.Fatal("a host starting with '-' made an ssh command")
	}
	cmd, err := s.Command(context.Background(), "box", false, "true")
	if err != nil {
		t.Fatal(err)
	}
	args := cmd.Args
	i := slicesIndex(args, "--")
	if i < 0 || args[i+1] != "box" || args[len(args)-1] != "'true'" {
		t.Fatalf("ssh command line %q: want options, --, the host, the quoted command", args)
	}
	for _, a := range args[:i] {
		if strings.Contains(a, "StrictHostKeyChecking") || strings.Contains(a, "UserKnownHostsFile") {
			t.Errorf("the ssh command line changes host-key checking: %q", a)
		}
	}
}

func slicesIndex(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// A line shown to paste runs as shown in sh, bash and zsh: each word
// comes back unchanged — "=name" included, which zsh would replace with a
// command's path (the attach line of `+up` said `-t =work:`).
func TestShellLineIsPastedAsShown(t *testing.T) {
	words := append([]string{"tmux", "-L", "work", "attach", "-t", "=work:", "a=b", "~", "it's", `say "hi"`}, hostile...)
	words = slices.DeleteFunc(words, func(w string) bool { return strings.ContainsRune(w, 0) || strings.Contains(w, "\x01") })
	ran := 0
	for _, shell := range []string{"sh", "bash", "zsh"} {
		path, err := exec.LookPath(shell)
		if err != nil {
			continue
		}
		ran++
		line := ShellLine(append([]string{"printf", `%s\0`}, words...))
		out, err := exec.Command(path, "-c", line).Output()
		if err != nil {
			t.Fatalf("%s -c %q: %v", shell, line, err)
		}
		got := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if !slices.Equal(got, words) {
			t.Errorf("%s: %q came back as %q", shell, line, got)
		}
	}
	if ran == 0 {
		t.Fatal("no shell to try the line in")
	}
	if got := ShellLine([]string{"tmux", "-L", "work", "attach", "-t", "=work:"}); got != "tmux -L work attach -t '=work:'" {
		t.Errorf("the attach line reads %s", got)
	}
	if got := AttachLine("me@box", []string{"tmux", "-L", "work", "attach", "-t", "=work:"}); got != `ssh -t me@box "tmux -L work attach -t '=work:'"` {
		t.Errorf("the remote attach line reads %s", got)
	}
}
