package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/lookpath"
	"github.com/superclaude/superclaude/internal/notify"
	"github.com/superclaude/superclaude/internal/safefs"
)

// checkNotify: the person's config file reads (it parses, names only keys
// superclaude knows, and is a file of theirs that no one else may
// change), the notifier command it names is found and can run, and a
// desktop notification can be shown from here. A mistake in the file is
// otherwise said only as an agent starts, when the person's mind is on
// the agent.
func checkNotify(ctx context.Context, e Env) []Finding {
	if e.NotifyConfig == "" {
		return nil
	}
	file := e.home(e.NotifyConfig)
	cfg, err := notify.LoadConfig(e.NotifyConfig)
	var out []Finding
	switch {
	case errors.Is(err, safefs.ErrUnsafe):
		out = append(out, Finding{Fix, fmt.Sprintf("the config file is refused, so notifications use the defaults: %v", err),
			fmt.Sprintf("make it a file of yours that only you may change:\n  chmod 600 %s", file)})
	case err != nil:
		out = append(out, Finding{Fix, fmt.Sprintf("the config file has a mistake, so notifications use the defaults: %v", err),
			fmt.Sprintf("correct it in %s (the README's \"Being told when an agent needs you\" lists every key), or remove it", file)})
	default:
		if _, serr := os.Stat(e.NotifyConfig); errors.Is(serr, fs.ErrNotExist) {
			out = append(out, Finding{OK, fmt.Sprintf("no config file (%s): notifications as by default, on the desktop and the terminal when an agent needs you", file), ""})
		} else {
			out = append(out, Finding{OK, "config file " + file, ""})
		}
	}
	if cfg.UseCommand && len(cfg.Command) > 0 {
		out = append(out, checkNotifyCommand(cfg.Command[0], file, e))
	}
	if cfg.Desktop && e.Desktop != nil {
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		what, err := e.Desktop(ctx)
		switch {
		case errors.Is(err, notify.ErrNoDesktop):
			out = append(out, Finding{Note, "no desktop session bus here (DBUS_SESSION_BUS_ADDRESS is not set, and there is no bus in $XDG_RUNTIME_DIR): no desktop notifications, the terminal's only",
				fmt.Sprintf("on a desktop, start superclaude from its terminal; or say so in %s:\n  [notifications]\n  desktop = false", file)})
		case err != nil:
			out = append(out, Finding{Warn, "desktop notifications cannot be shown: " + err.Error(),
				fmt.Sprintf("start a notification server (your desktop's, or dunst, mako); or say so in %s:\n  [notifications]\n  desktop = false", file)})
		default:
			out = append(out, Finding{OK, "desktop notifications: " + what, ""})
		}
	}
	return out
}

// checkNotifyCommand: the notifier command the config file names can be
// run as superclaude runs it: found on PATH, or at its path, and
// executable.
func checkNotifyCommand(cmd, file string, e Env) Finding {
	if strings.Contains(cmd, "/") && !filepath.IsAbs(cmd) {
		return Finding{Warn, fmt.Sprintf("the notify command %s is a relative path: it is looked for from wherever superclaude starts", cmd),
			fmt.Sprintf("give its full path in notify = [...] in %s", file)}
	}
	found, err := lookpath.Find(cmd, e.PATH, "")
	switch {
	case errors.Is(err, lookpath.ErrNotFound):
		return Finding{Fix, fmt.Sprintf("the notify command %s is not found on your PATH: every notification to it fails", cmd),
			fmt.Sprintf("install it, or give its full path in notify = [...] in %s", file)}
	case errors.Is(err, os.ErrPermission):
		return Finding{Fix, fmt.Sprintf("the notify command %s is not executable: every notification to it fails", e.home(cmd)),
			"chmod +x " + e.home(cmd)}
	case err != nil && !errors.Is(err, lookpath.ErrDot):
		return Finding{Fix, fmt.Sprintf("the notify command %s cannot be run: %v", cmd, err),
			fmt.Sprintf("correct notify = [...] in %s", file)}
	}
	return Finding{OK, fmt.Sprintf("the notify command %s, at %s", cmd, e.home(found)), ""}
}
