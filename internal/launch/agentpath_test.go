package launch

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Regression: superclaude installed as `claude` ahead of the real one on
// PATH (the drop-in way) found itself as the agent: `claude --version`
// exec'd itself for ever at full CPU, and an interactive start would have
// stacked supervisors. It takes the next claude on PATH instead.
func TestAgentPathPassesOverSuperclaudeInstalledAsTheAgent(t *testing.T) {
	dir := t.TempDir()
	self, err := os.Executable() // the test binary stands for superclaude
	if err != nil {
		t.Fatal(err)
	}
	front, real, empty := filepath.Join(dir, "front"), filepath.Join(dir, "real"), filepath.Join(dir, "empty")
	for _, d := range []string{front, real, empty} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(self, filepath.Join(front, "claude")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "claude"), []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, command, path string
		want                string // "" means an error
		self                bool   // the error says it found only superclaude
	}{
		{"the real one", "claude", real, filepath.Join(real, "claude"), false},
		{"superclaude in front is passed over", "claude", front + ":" + empty + ":" + real, filepath.Join(real, "claude"), false},
		{"only superclaude", "claude", front + ":" + empty, "", true},
		{"superclaude by its path", filepath.Join(front, "claude"), real, "", true},
		{"superclaude by its own path", self, real, "", true},
		{"none at all", "claude", empty, "", false},
		{"a path that is not superclaude", filepath.Join(real, "claude"), "", filepath.Join(real, "claude"), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PATH", tc.path)
			got, err := agentPath(tc.command)
			if tc.want != "" {
				if err != nil || got != tc.want {
					t.Errorf("agentPath(%q) = %q, %v; want %q", tc.command, got, err, tc.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("agentPath(%q) = %q, want an error", tc.command, got)
			}
			if errors.Is(err, errAgentIsSelf) != tc.self {
				t.Errorf("agentPath(%q): %v; says it found superclaude: %v, want %v", tc.command, err, !tc.self, tc.self)
			}
		})
	}
}
