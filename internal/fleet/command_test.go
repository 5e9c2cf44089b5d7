package fleet

import (
	"context"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/tmux"
)

// The server a fleet command talks to is the flag's, else the file's,
// else the environment's: a general default in the environment never
// sends `+down FILE` to another server than the file names.
func TestServerIsTheFlagsThenTheFilesThenTheEnvironments(t *testing.T) {
	t.Setenv(envvar.TmuxSocket, "fromenv")
	file := &Spec{Socket: "fromfile"}
	for _, tc := range []struct {
		flag string
		spec *Spec
		want tmux.Server
	}{
		{"flag", file, tmux.ParseSocket("flag")},
		{"", file, tmux.ParseSocket("fromfile")},
		{"", &Spec{}, tmux.ParseSocket("fromenv")},
		{"", nil, tmux.ParseSocket("fromenv")},
		{"/run/s.sock", nil, tmux.Server{Path: "/run/s.sock"}},
	} {
		if got := Server(tc.flag, tc.spec); got != tc.want {
			t.Errorf("flag %q, spec %+v: %+v, want %+v", tc.flag, tc.spec, got, tc.want)
		}
	}
}

// An interrupted +down says how to finish it: the same command, with the
// same server.
func TestAgainRepeatsTheCommand(t *testing.T) {
	if got := Again("my fleet.toml", "work"); got != "superclaude +down 'my fleet.toml' --tmux-socket work" {
		t.Fatalf("again: %s", got)
	}
	if got := Again("work", ""); got != "superclaude +down work" {
		t.Fatalf("again: %s", got)
	}
}

// --clean-worktrees needs the file, which says where the worktrees are:
// a name alone is refused before anything is stopped.
func TestCleanWorktreesNeedsTheFile(t *testing.T) {
	_, err := Stop(context.Background(), "no-such-fleet", "", Options{}, true)
	if err == nil || !strings.Contains(err.Error(), "needs the fleet file") {
		t.Fatalf("+down NAME --clean-worktrees: %v", err)
	}
}
