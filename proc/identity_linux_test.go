package proc

import "testing"

func TestParseStatSplitsAfterLastParen(t *testing.T) {
	// Fields after the command: state ppid pgrp session tty tpgid flags
	// minflt cminflt majflt cmajflt utime stime cutime cstime priority nice
	// num_threads itrealvalue starttime(22) …
	tail := " S 10 11 12 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 178490 1000 10"
	for _, tc := range []struct {
		line   string
		pid    int
		zombie bool
	}{
		{"42 (claude)" + tail, 42, false},
		{"43 (a b) c)" + tail, 43, false},   // spaces and a ')' in the name
		{"44 ((sd-pam))" + tail, 44, false}, // nested parentheses
		{"45 (x) Z 10 11 12 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 178490", 45, true},
	} {
		info, err := parseStat([]byte(tc.line))
		if err != nil {
			t.Errorf("parseStat(%q): %v", tc.line, err)
			continue
		}
		if info.PID != tc.pid || info.PPID != 10 || info.PGID != 11 || info.SID != 12 ||
			info.Start != 178490 || info.Zombie != tc.zombie {
			t.Errorf("parseStat(%q) = %+v", tc.line, info)
		}
	}
	for _, bad := range []string{"", "42 claude S 1", "42 (x) S 1 2 3"} {
		if _, err := parseStat([]byte(bad)); err == nil {
			t.Errorf("parseStat(%q) succeeded", bad)
		}
	}
}

func TestParseProcargs2(t *testing.T) {
	buf := []byte{2, 0, 0, 0}
	buf = append(buf, "/usr/bin/claude\x00\x00\x00\x00claude\x00--resume\x00HOME=/Users/u\x00SUPERCLAUDE_SUPERVISOR=1:2:3\x00\x00junk"...)
	env, err := parseProcargs2(buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(env) != 2 || env[0] != "HOME=/Users/u" || env[1] != "SUPERCLAUDE_SUPERVISOR=1:2:3" {
		t.Fatalf("env = %q", env)
	}
	if _, err := parseProcargs2([]byte{9, 0, 0, 0, 'x', 0, 'a', 0}); err == nil {
		t.Fatal("argc beyond the arguments was accepted")
	}
}
