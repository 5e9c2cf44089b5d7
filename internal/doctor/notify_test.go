package doctor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/superclaude/superclaude/internal/notify"
)

// +doctor checked neither the notifications' config file nor the command
// it names nor whether a desktop notification can be shown: a misspelt
// key was said only as an agent started, and a notifier that is not
// installed failed every notification in the log. Each now has a line,
// with what to fix.
func TestDoctorChecksNotifications(t *testing.T) {
	in := newInstall(t)
	config := filepath.Join(in.home, ".config", "superclaude", "config.toml")
	os.MkdirAll(filepath.Dir(config), 0o700)
	bin := filepath.Join(in.home, "bin")
	in.script(filepath.Join(bin, "ntfy"), "cat >/dev/null")
	os.WriteFile(filepath.Join(bin, "plain"), []byte("#!/bin/sh\n"), 0o600)
	noBus := func(context.Context) (string, error) { return "", notify.ErrNoDesktop }
	for _, c := range []struct {
		name, file string
		mode       os.FileMode
		desktop    func(context.Context) (string, error)
		level      Level
		what, todo string
	}{
		{name: "no file", level: OK, what: "no config file (~/.config/superclaude/config.toml)"},
		{name: "a misspelt key", file: "[notifications]\ndesktp = true\n", level: Fix,
			what: "unknown key notifications.desktp", todo: "correct it in ~/.config/superclaude/config.toml"},
		{name: "every user may write it", file: "notify = [\"ntfy\"]\n", mode: 0o666, level: Fix,
			what: "the config file is refused", todo: "chmod 600 ~/.config/superclaude/config.toml"},
		{name: "the command is found", file: "notify = [\"ntfy\", \"publish\"]\n", level: OK,
			what: "the notify command ntfy, at ~/bin/ntfy"},
		{name: "the command is not found", file: "notify = [\"nothere\"]\n", level: Fix,
			what: "the notify command nothere is not found on your PATH", todo: "install it, or give its full path"},
		{name: "the command is not executable", file: "notify = [\"" + filepath.Join(bin, "plain") + "\"]\n", level: Fix,
			what: "the notify command ~/bin/plain is not executable", todo: "chmod +x ~/bin/plain"},
		{name: "the command is turned off", file: "notify = [\"nothere\"]\n[notifications]\ncommand = false\n", level: OK, what: "config file"},
		{name: "no desktop", desktop: noBus, level: Note,
			what: "no desktop session bus here", todo: "desktop = false"},
		{name: "no notification server", desktop: func(context.Context) (string, error) { return "", errors.New("no notification server runs") },
			level: Warn, what: "desktop notifications cannot be shown: no notification server runs", todo: "start a notification server"},
		{name: "a desktop", desktop: func(context.Context) (string, error) { return "a notification server answers", nil },
			level: OK, what: "desktop notifications: a notification server answers"},
		{name: "desktop turned off", file: "[notifications]\ndesktop = false\n", desktop: noBus, level: OK, what: "config file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(config)
			if c.file != "" {
				mode := c.mode
				if mode == 0 {
					mode = 0o600
				}
				os.WriteFile(config, []byte(c.file), 0o600)
				os.Chmod(config, mode)
			}
			e := in.env(bin)
			e.NotifyConfig, e.Desktop = config, c.desktop
			fs := checkNotify(context.Background(), e)
			var worst Finding
			for _, f := range fs {
				if f.Level >= worst.Level {
					worst = f
				}
			}
			if worst.Level != c.level || !strings.Contains(worst.What, c.what) || !strings.Contains(worst.Todo, c.todo) {
				t.Errorf("said %+v\nwant %s %q, to do %q", fs, c.level, c.what, c.todo)
			}
		})
	}
}
