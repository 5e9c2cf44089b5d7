package leader

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
		path, dir, args, env, err := DecodeSpec(EncodeSpec(tc.path, tc.dir, tc.args, tc.env))
		if err != nil || path != tc.path || dir != tc.dir || !slices.Equal(args, tc.args) && len(args)+len(tc.args) > 0 ||
			!slices.Equal(env, tc.env) && len(env)+len(tc.env) > 0 {
			t.Fatalf("round trip of %q %q %q %q: %q %q %q %q %v", tc.path, tc.dir, tc.args, tc.env, path, dir, args, env, err)
		}
	}
	for _, bad := range []string{"", "x\x00", "p\x00d\x00nine\x00", "p\x00d\x005\x00a\x00", "p\x00d\x00-1\x00", "p\x00d\x000\x00trailing"} {
		if _, _, _, _, err := DecodeSpec([]byte(bad)); err == nil {
			t.Errorf("DecodeSpec(%q) took it", bad)
		}
	}
}

func TestLeaderReportsParse(t *testing.T) {
	for line, want := range map[string]Event{
		"start 42:1234:boot\n": {Kind: "start"},
		"stop 20\n":            {Kind: "stop", Signal: syscall.SIGTSTP},
		"cont\n":               {Kind: "cont"},
		"exit 256\n":           {Kind: "exit", Status: 256},
		"error 127 no such\n":  {Kind: "error", Code: 127},
	} {
		ev, err := ParseEvent(line)
		if err != nil || ev.Kind != want.Kind || ev.Signal != want.Signal || ev.Status != want.Status || ev.Code != want.Code {
			t.Errorf("ParseEvent(%q) = %+v, %v", line, ev, err)
		}
	}
	for _, bad := range []string{"start nonsense", "stop x", "exit -1", "error x y", "hello"} {
		if _, err := ParseEvent(bad); err == nil {
			t.Errorf("ParseEvent(%q) took it", bad)
		}
	}
}
