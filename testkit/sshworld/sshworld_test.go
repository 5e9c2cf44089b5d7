package sshworld

import (
	"strings"
	"testing"
)

// The world's users are reached through the real sshd, with the host's
// key checked, and are unreachable while the server is stopped.
func TestUsersAreReachedOnlyThroughSSH(t *testing.T) {
	s := Start(t)
	a := s.AddUser("alpha")
	b := s.AddUser("beta")
	for _, u := range []*User{a, b} {
		out, err := u.SSH("", "sh", "-c", `id -un; echo "$HOME"`)
		if err != nil {
			t.Fatalf("ssh %s: %v\n%s", u.Alias, err, s.Log())
		}
		if want := u.Name + "\n" + u.Home + "\n"; out != want {
			t.Fatalf("ssh %s ran as %q, want %q", u.Alias, out, want)
		}
	}
	s.Stop()
	if _, err := a.SSH("", "true"); err == nil || !strings.Contains(err.Error(), "refused") {
		t.Fatalf("ssh to a stopped server: %v", err)
	}
	s.Start()
	if _, err := a.SSH("", "true"); err != nil {
		t.Fatalf("ssh after the server came back: %v", err)
	}
}
