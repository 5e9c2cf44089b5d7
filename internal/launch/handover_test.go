package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/handover"
	"github.com/superclaude/superclaude/internal/lookpath"
)

// TestHandoverAgreesWithMain: whatever internal/handover execs before the
// program has initialised, main's own one-shot path would have exec'd too,
// the same file with the same arguments. Where they differ, handover must
// be the one that declines (main then decides and reports).
func TestHandoverAgreesWithMain(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(bin, "claude")
	if err := os.WriteFile(claude, []byte("#!/bin/sh\nexit 0\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	// This test binary stands for superclaude: installed as claude in
	// front of the real one, it is passed over by both.
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	front := filepath.Join(dir, "front")
	if err := os.Mkdir(front, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(front, "claude")); err != nil {
		t.Fatal(err)
	}
	taken := 0
	for i, tc := range []struct {
		args []string
		env  map[string]string
	}{
		{[]string{"--version"}, map[string]string{"PATH": bin}},
		{[]string{"-v"}, map[string]string{"PATH": bin + ":/usr/bin"}},
		{[]string{"--version"}, map[string]string{"PATH": "/usr/bin", envvar.Agent: claude}},
		{[]string{"--version"}, map[string]string{"PATH": "/usr/bin", envvar.Agent: "true"}},
		{[]string{"--version"}, map[string]string{"PATH": bin, envvar.Profile: "claude"}},
		{[]string{"--version"}, map[string]string{"PATH": bin, envvar.Profile: "generic", envvar.Agent: claude}},
		{[]string{"--version"}, map[string]string{"PATH": front + ":" + bin}},
		{[]string{"--version"}, map[string]string{"PATH": front}},
		{[]string{"--version"}, map[string]string{"PATH": bin, envvar.Agent: filepath.Join(front, "claude")}},
		{[]string{"--version"}, map[string]string{"PATH": bin, envvar.Grace: "soon"}},
		{[]string{"--version"}, harmlessJunk(map[string]string{"PATH": bin})},
		{[]string{"--version"}, map[string]string{"PATH": bin, envvar.Grace: "5s"}},
		{[]string{"--version"}, map[string]string{"PATH": "." + ":" + bin}},
		{[]string{"--version"}, map[string]string{"PATH": "/nonexistent"}},
		{[]string{"--version"}, map[string]string{"PATH": bin, envvar.Agent: filepath.Join(dir, "missing")}},
		{[]string{"--help"}, map[string]string{"PATH": bin}},
		{[]string{"-p", "hi"}, map[string]string{"PATH": bin}},
		{[]string{"--print", "hi", "--model", "x"}, map[string]string{"PATH": front + ":" + bin}},
		{[]string{"-p", "--version"}, map[string]string{"PATH": bin}},
		{[]string{"-p", "--help"}, map[string]string{"PATH": bin}},
		{[]string{"-p", "hi", "--resume-policy", "never"}, map[string]string{"PATH": bin}},
		{[]string{"-p", "hi"}, map[string]string{"PATH": bin, envvar.Grace: "1s"}},
		{[]string{"hi", "-p"}, map[string]string{"PATH": bin}},
		{[]string{"mcp", "list"}, map[string]string{"PATH": front + ":" + bin}},
		{[]string{"--model", "x", "--output-format", "json", "-p", "hi"}, map[string]string{"PATH": bin}},
		{[]string{"--append-system-prompt", "-p", "hi"}, map[string]string{"PATH": bin}},
		{[]string{"--help", "--verbose"}, map[string]string{"PATH": bin}},
		{[]string{"-h"}, map[string]string{"PATH": bin}},
		{[]string{"frobnicate"}, map[string]string{"PATH": bin}},
		{[]string{"--", "-p"}, map[string]string{"PATH": bin}},
		{[]string{"-cp", "hi"}, map[string]string{"PATH": bin}},
		{[]string{"-dp", "hi"}, map[string]string{"PATH": bin}},
		{[]string{"mcp", "list"}, map[string]string{"PATH": bin}},
		{[]string{}, map[string]string{"PATH": bin}},
	} {
		t.Run(fmt.Sprintf("%d_%s", i, strings.Join(tc.args, "_")), func(t *testing.T) {
			for _, kv := range os.Environ() {
				if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "SUPERCLAUDE_") {
					t.Setenv(k, "")
				}
			}
			t.Setenv("SUPERCLAUDE_STATE_DIR", filepath.Join(dir, "state"))
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			command, kind := handover.Decide(tc.args, os.Environ())
			var path string
			ok := kind != handover.None
			if ok {
				var err error
				path, err = lookpath.Find(command, os.Getenv("PATH"), "", self)
				ok = err == nil
			}
			if !ok {
				return // main decides alone
			}
			taken++
			o, err := FromEnv()
			if err != nil {
				t.Fatalf("handover execs %s where main fails first: %v", path, err)
			}
			plan, oneShot := planOneShot(o, tc.args)
			// A print-mode run handover starts as a child is one main
			// runs once too, as a child or handed over, never supervised.
			if !oneShot || (kind == handover.Exec) != plan.handOver || plan.footer || plan.err != nil || plan.path != path {
				t.Fatalf("handover runs %s (%v); main plans %+v (one-shot %v)", path, kind, plan, oneShot)
			}
		})
	}
	if taken < 12 {
		t.Errorf("handover took %d of the cases; the plain ones should be taken", taken)
	}
}

// harmlessJunk adds junk values of the variables internal/handover lets
// pass to env.
func harmlessJunk(env map[string]string) map[string]string {
	for _, k := range handover.Harmless() {
		if k != envvar.Agent && k != envvar.Profile {
			env[k] = "junk\x01 -1s ../"
		}
	}
	return env
}
