package lookpath

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestFind(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	other := filepath.Join(dir, "other")
	for _, d := range []string{bin, other, filepath.Join(other, "claude"), filepath.Join(dir, "rel")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write := func(path string, mode os.FileMode) {
		if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(bin, "claude"), 0o700)
	write(filepath.Join(bin, "plain"), 0o600)
	write(filepath.Join(other, "plain"), 0o700)
	write(filepath.Join(dir, "rel", "claude"), 0o700)
	// This program as superclaude, installed as claude in front of the
	// real one.
	self := filepath.Join(dir, "self")
	write(self, 0o700)
	front := filepath.Join(dir, "front")
	if err := os.Mkdir(front, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(front, "claude")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tc := range []struct {
		name, command, pathList, from string
		want                          string
		err                           error // nil: found
	}{
		{"superclaude installed as claude is passed over", "claude", front + ":" + bin, "", bin + "/claude", nil},
		{"and only superclaude is ErrSkipped", "claude", front, "", "", ErrSkipped},
		{"superclaude named by its path is refused", front + "/claude", "", "", "", ErrSkipped},
		{"found", "claude", bin, "", bin + "/claude", nil},
		{"a directory of the name is passed over", "claude", other + ":" + bin, "", bin + "/claude", nil},
		{"a file without an execute bit is passed over", "plain", bin + ":" + other, "", other + "/plain", nil},
		{"the entry is cleaned as os/exec cleans it", "claude", bin + "/", "", bin + "/claude", nil},
		{"not found", "nothing", bin, "", "", ErrNotFound},
		{"a relative entry without it is passed over", "claude", "nowhere:" + bin, "", bin + "/claude", nil},
		{"what a relative entry holds is ErrDot", "claude", "rel:" + bin, "", "rel/claude", ErrDot},
		{"an empty entry is the working directory", "claude", ":" + bin, "", bin + "/claude", nil},
		{"from a directory, a relative entry is taken there", "claude", "rel:" + bin, dir, dir + "/rel/claude", nil},
		{"from a directory, an empty entry is that directory", "claude", ":" + bin, filepath.Join(dir, "rel"), dir + "/rel/claude", nil},
		{"an empty PATH", "claude", "", "", "", ErrNotFound},
		{"a path is taken as it is", bin + "/claude", "", "", bin + "/claude", nil},
		{"a relative path is taken from the directory", "bin/claude", "", dir, dir + "/bin/claude", nil},
		{"a path that is not executable", bin + "/plain", bin, "", "", os.ErrPermission},
		{"a path that is a directory", other + "/claude", "", "", "", syscall.EISDIR},
		{"a path that does not exist", bin + "/nothing", "", "", "", os.ErrNotExist},
		{"no command", "", bin, "", "", ErrNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Find(tc.command, tc.pathList, tc.from, self)
			if got != tc.want || !errors.Is(err, tc.err) || (tc.err == nil) != (err == nil) {
				t.Errorf("Find(%q, %q, %q) = %q, %v; want %q, %v", tc.command, tc.pathList, tc.from, got, err, tc.want, tc.err)
			}
		})
	}
}

func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, nil, 0o600)
	os.WriteFile(b, nil, 0o600)
	os.Symlink(a, filepath.Join(dir, "link"))
	if !SameFile(a, filepath.Join(dir, "link")) || SameFile(a, b) || SameFile(a, filepath.Join(dir, "none")) {
		t.Fatal("SameFile tells files apart wrongly")
	}
}
