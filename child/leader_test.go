package child

import (
	"slices"
	"strings"
	"syscall"
	"testing"
)

func TestAgentCommandCrossesToTheLeaderWhole(t *testing.T) {
	for _, tc := range []struct {
		path, dir string
		args, env []string
	}{
		{"/usr/bin/claude", "", nil, nil},
		{"claude", "/tmp/x y", []string{"", "-p", "a\nprompt with\ttabs", "=", "ünï"}, []string{"A=1", "EMPTY=", "B=x=y"}},
		{"./rel", ".", []string{strings.Repeat("long ", 20000)}, []string{"K=" + strings.Repeat("v", 100000)}},
	} {
		path, dir, args, env, err := decodeSpec(encodeSpec(tc.path, tc.dir, tc.args, tc.env))
		if err != nil || path != tc.path || dir != tc.dir || !slices.Equal(args, tc.args) && len(args)+len(tc.args) > 0 ||
			!slices.Equal(env, tc.env) && len(env)+len(tc.env) > 0 {
			t.Fatalf("round trip of %q %q %q %q: %q %q %q %q %v", tc.path, tc.dir, tc.args, tc.env, path, dir, args, env, err)
		}
	}
	for _, bad := range []string{"", "x\x00", "p\x00d\x00nine\x00", "p\x00d\x005\x00a\x00", "p\x00d\x00-1\x00", "p\x00d\x000\x00trailing"} {
		if _, _, _, _, err := decodeSpec([]byte(bad)); err == nil {
			t.Errorf("decodeSpec(%q) took it", bad)
		}
	}
}

func TestLeaderReportsParse(t *testing.T) {
	for line, want := range map[string]leaderEvent{
		"start 42:1234:boot\n": {kind: "start"},
		"stop 20\n":            {kind: "stop", signal: syscall.SIGTSTP},
		"cont\n":               {kind: "cont"},
		"exit 256\n":           {kind: "exit", status: 256},
		"error 127 no such\n":  {kind: "error", code: 127},
	} {
		ev, err := parseLeaderEvent(line)
		if err != nil || ev.kind != want.kind || ev.signal != want.signal || ev.status != want.status || ev.code != want.code {
			t.Errorf("parseLeaderEvent(%q) = %+v, %v", line, ev, err)
		}
	}
	for _, bad := range []string{"start nonsense", "stop x", "exit -1", "error x y", "hello"} {
		if _, err := parseLeaderEvent(bad); err == nil {
			t.Errorf("parseLeaderEvent(%q) took it", bad)
		}
	}
}

// TestAStartTheLeaderCannotDoIsReported: the leader's own start of the
// agent fails (its directory is missing); Start says so, with the code a
// start without a leader gives (Go reports a failed chdir as ENOENT: 127),
// and nothing is left running or owned.
func TestAStartTheLeaderCannotDoIsReported(t *testing.T) {
	tt, _ := userTerminal(t)
	sp := spec("exit=0")
	sp.Dir = "/nonexistent/dir"
	_, err := Start(sp, tt)
	if err == nil {
		t.Fatal("started in a missing directory")
	}
	if e := StartFailure(err); e.Code != 127 || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("StartFailure = %+v (%v)", e, err)
	}
	owned.RLock()
	n := len(owned.pids)
	owned.RUnlock()
	if n != 0 {
		t.Fatalf("%d children still registered as owned", n)
	}
}
