package hosts

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/fleet"
	"github.com/superclaude/superclaude/internal/sessions"
)

// user sets the environment of a command run by a person with no fleet
// on other hosts: the user's state in a temporary directory, nothing of a
// supervisor or pane. It returns that directory.
func user(t *testing.T) string {
	root := t.TempDir()
	for k, v := range map[string]string{
		envvar.StateDir: filepath.Join(root, "state"), envvar.SessionsDir: "", envvar.PaneID: "",
		envvar.Supervisor: "", envvar.SupervisorPID: strconv.Itoa(os.Getpid()), envvar.Socket: "", "TMUX": "",
	} {
		t.Setenv(k, v)
	}
	return root
}

// Another host runs only +why, +history and +session restart for this
// one, each with --local, so that a request never goes on to that
// host's own hosts.
func TestRunnableRunsOnlyTheLookupsAndKeepsThemLocal(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"+why", "S", "--json"}, "+why --local S --json"},
		{[]string{"+history"}, "+history --local"},
		{[]string{"+session", "restart", "--session", "S"}, "+session restart --local --session S"},
	} {
		got, err := runnable(tc.args)
		if err != nil || strings.Join(got, " ") != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.args, got, err, tc.want)
		}
	}
	for _, bad := range [][]string{{"+status"}, {"+session", "rm", "S"}, {"+up", "f.toml"}, {}} {
		if got, err := runnable(bad); err == nil {
			t.Errorf("%q runs as %q", bad, got)
		}
	}
}

// A command goes to the host it is given, never elsewhere when asked to
// stay local, and looks no further when this machine has the session.
func TestElsewhereGoesOnlyWhereItMay(t *testing.T) {
	user(t)
	for _, tc := range []struct {
		host           string
		local, notHere bool
		which, want    string
	}{
		{"h1", false, true, "S", "h1"},
		{"h1", true, false, "S", "h1"},
		{"", true, true, "S", ""},
		{"", false, false, "S", ""},
		{"", false, true, "", ""},
		// No fleet of the user's runs on another host: nowhere else.
		{"", false, true, "S", ""},
	} {
		got, err := elsewhere(tc.host, tc.local, tc.notHere, "", tc.which, false)
		if err != nil || got != tc.want {
			t.Errorf("%+v: %q, %v", tc, got, err)
		}
	}
}

// +status --sessions, --here and --local cover no other host; a user with
// no fleet elsewhere has none to cover, and the view does not wait.
func TestAViewCoversNoHostItNeedNot(t *testing.T) {
	user(t)
	for _, tc := range []struct {
		dir   string
		local bool
	}{{"/some/sessions", false}, {"", true}} {
		if c, err := Cover(tc.dir, "", tc.local); err != nil || c != nil {
			t.Errorf("%+v: %+v, %v", tc, c, err)
		}
	}
	c, err := Cover("", "", false)
	if err != nil || c == nil || len(c.hosts) != 0 {
		t.Fatalf("no fleet elsewhere: %+v, %v", c, err)
	}
	if views := c.Views(); views != nil {
		t.Fatalf("views of no host: %+v", views)
	}
}

// +status lists every session of the user from anywhere; --here only the
// current project's (its ./sessions, and those started in it).
func TestStatusFromAnywhereAndHere(t *testing.T) {
	root := user(t)
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for dir, name := range map[string]string{a: "SA", b: "SB"} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		t.Chdir(dir)
		if _, err := sessions.Activate("sessions/"+name, "x", true); err != nil {
			t.Fatal(err)
		}
	}
	names := func(here bool) string {
		s, err := NewStatus("", "", here, false)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, v := range s.Views() {
			out = append(out, v.Name)
		}
		return strings.Join(out, ",")
	}
	t.Chdir(root)
	if got := names(false); got != "SA,SB" {
		t.Fatalf("+status from elsewhere: %s", got)
	}
	t.Chdir(a)
	if got := names(true); got != "SA" {
		t.Fatalf("+status --here in a: %s", got)
	}
	// +why finds a session of this machine by its name, from anywhere.
	t.Chdir(root)
	sess, on, err := Why("", "", "", false, []string{"SB"})
	if err != nil || on != "" || sess.Dir != filepath.Join(b, "sessions", "SB") {
		t.Fatalf("+why SB: %+v on %q, %v", sess, on, err)
	}
}

// A fleet whose panes are all on other hosts has no sessions here: a view
// of it reads nothing here, and this machine answers another's +status
// for a fleet it has no part of with no rows.
func TestAFleetAllElsewhereHasNoSessionsHere(t *testing.T) {
	root := user(t)
	file := filepath.Join(root, "f.toml")
	spec := "name = \"far\"\n\n[[window]]\nname = \"w\"\nhost = \"h1\"\n\n[[window.pane]]\nlabel = \"A\"\ndir = \"/tmp\"\n"
	if err := os.WriteFile(file, []byte(spec), 0o600); err != nil {
		t.Fatal(err)
	}
	if spec, err := fleet.Load(file); err != nil || len(spec.Hosts()) != 1 {
		t.Fatalf("the fleet file: %+v, %v", spec, err)
	}
	stores, err := Stores("", file)
	if err != nil || stores != nil {
		t.Fatalf("stores %v, %v", stores, err)
	}
	side := fleet.HostSide{StateDir: filepath.Join(root, "state")}
	views, err := statusHere(side, statusArgs{Origin: "elsewhere:" + file, Name: "far"})
	if err != nil || views == nil || len(views) != 0 {
		t.Fatalf("rows %v, %v; want none", views, err)
	}
}
