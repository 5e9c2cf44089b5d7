package fleet

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/tmux"
)

// upOnPrivateTmux writes a fleet of one window of n panes, each running a
// stand-in for superclaude that only sleeps, and brings it up on a tmux
// server of its own.
func upOnPrivateTmux(t *testing.T, n int) (UpReport, error, tmux.Server) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed (.ci/run installs it)")
	}
	dir := t.TempDir()
	rt, err := os.MkdirTemp("", "sc-layout-")
	if err != nil {
		t.Fatal(err)
	}
	srv := tmux.Server{Path: filepath.Join(rt, "tmux")}
	t.Cleanup(func() { srv.Run("kill-server"); os.RemoveAll(rt) })
	exe := filepath.Join(dir, "superclaude")
	os.WriteFile(exe, []byte("#!/bin/sh\nexec sleep 300\n"), 0o700)
	var b strings.Builder
	fmt.Fprintf(&b, "name = \"big\"\ncommand = \"/bin/sleep\"\n\n[[window]]\nname = \"main\"\n")
	for i := range n {
		fmt.Fprintf(&b, "\n  [[window.pane]]\n  label = \"P%d\"\n", i)
	}
	file := filepath.Join(dir, "fleet.toml")
	os.WriteFile(file, []byte(b.String()), 0o600)
	spec, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Up(spec, Options{Tmux: srv, Exe: exe, Grace: 2e9})
	return rep, err, srv
}

// Attack 5 of issue 21: panes split off one after the other without
// tiling ran out of room at the seventh; with a tiled layout after every
// split a window holds as many as tmux can fit.
func TestAWindowHoldsWhatTmuxCanFit(t *testing.T) {
	rep, err, srv := upOnPrivateTmux(t, 40)
	if err != nil || rep.Started != 40 {
		t.Fatalf("Up of 40 panes: %+v, %v", rep, err)
	}
	if out, _ := srv.Run("list-panes", "-t", "=big:main"); strings.Count(out, "\n")+1 != 40 {
		t.Fatalf("the window holds:\n%s", out)
	}
}

// Past what tmux can fit, Up says what tmux refused — which pane, how
// many the window holds and its size, in tmux's words — and leaves
// nothing: no session, no panes.
func TestUpSaysWhatTmuxRefused(t *testing.T) {
	_, err, srv := upOnPrivateTmux(t, 160)
	if err == nil {
		t.Fatal("Up of 160 panes in one window succeeded")
	}
	for _, want := range []string{`window "main" pane "P`, "tmux refused to split the window", "no space for new pane", "panes in 200×50 cells", "nothing of this +up is left"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Up's error does not say %q: %v", want, err)
		}
	}
	if srv.HasSession("big") {
		t.Error("the failed Up left its session")
	}
}
