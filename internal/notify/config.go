package notify

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/superclaude/superclaude/internal/safefs"
)

// Config is the notifications part of the person's config file
// (ConfigPath): which notifiers are on, which kinds of event they tell,
// and how events are coalesced, rate-limited and waited for.
type Config struct {
	// Command is the person's notifier: run with the notification as
	// JSON on stdin (`notify = ["ntfy", "publish", "topic"]`); none when
	// empty. Never run through a shell.
	Command []string
	// Desktop, Terminal and UseCommand turn each notifier on or off.
	Desktop, Terminal, UseCommand bool
	// Kinds turns each kind of event on or off.
	Kinds map[string]bool
	// Window is how long the first event waits for others to join it in
	// one notification.
	Window time.Duration
	// MinInterval is the least time between two notifications of one
	// kind for one session; events within it are dropped, with a log line.
	MinInterval time.Duration
	// Timeout is how long a notifier may take before it is stopped.
	Timeout time.Duration
}

// DefaultConfig is what holds without a config file: the desktop and the
// terminal tell every kind but turn-ended and fleet-idle.
func DefaultConfig() Config {
	return Config{
		Desktop: true, Terminal: true, UseCommand: true,
		Kinds:  map[string]bool{NeedsInput: true, Limit: true, Halted: true, CrashLimit: true, TurnEnded: false, FleetIdle: false},
		Window: 750 * time.Millisecond, MinInterval: time.Minute, Timeout: 10 * time.Second,
	}
}

// On reports whether events of kind are told.
func (c Config) On(kind string) bool { return c.Kinds[kind] }

// ConfigPath is the person's config file: $XDG_CONFIG_HOME/superclaude/
// config.toml, else ~/.config/superclaude/config.toml.
func ConfigPath() string {
	dir := os.Getenv("XDG_CONFIG_HOME")
	if dir == "" {
		home, _ := os.UserHomeDir()
		dir = filepath.Join(home, ".config")
	}
	return filepath.Join(dir, "superclaude", "config.toml")
}

// file is the config file's shape.
type file struct {
	Notify        []string `toml:"notify"`
	Notifications struct {
		Desktop     *bool   `toml:"desktop"`
		Terminal    *bool   `toml:"terminal"`
		Command     *bool   `toml:"command"`
		NeedsInput  *bool   `toml:"needs-input"`
		Limit       *bool   `toml:"limit"`
		Halted      *bool   `toml:"halted"`
		CrashLimit  *bool   `toml:"crash-limit"`
		TurnEnded   *bool   `toml:"turn-ended"`
		FleetIdle   *bool   `toml:"fleet-idle"`
		Window      *string `toml:"window"`
		MinInterval *string `toml:"min-interval"`
		Timeout     *string `toml:"timeout"`
	} `toml:"notifications"`
}

// maxConfig bounds the config file read.
const maxConfig = 1 << 20

// LoadConfig reads path over DefaultConfig. A missing file is the
// defaults; a file that does not parse, names a key superclaude does not
// know, or holds a bad value is an error naming the file and the key.
//
// The file can be planted — it names a command superclaude runs as the
// person — so it is read as every plantable file is (safefs.ReadIn): a
// regular file of the person's (or root's) of at most 1 MiB, that not
// every user may write, opened without blocking. A FIFO, which would
// hang the start, a device, or a file a neighbour could edit is refused
// with an error naming it, and the defaults hold.
func LoadConfig(path string) (Config, error) {
	c := DefaultConfig()
	b, err := safefs.ReadIn("/", path, maxConfig, "a config file")
	if errors.Is(err, fs.ErrNotExist) {
		return c, nil
	}
	if err != nil {
		return c, err
	}
	var v file
	md, err := toml.NewDecoder(bytes.NewReader(b)).Decode(&v)
	if err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return c, fmt.Errorf("%s: unknown key %s", path, strings.Join(keys, ", "))
	}
	c.Command = v.Notify
	n := v.Notifications
	for _, b := range []struct {
		src *bool
		dst *bool
	}{{n.Desktop, &c.Desktop}, {n.Terminal, &c.Terminal}, {n.Command, &c.UseCommand}} {
		if b.src != nil {
			*b.dst = *b.src
		}
	}
	for kind, b := range map[string]*bool{NeedsInput: n.NeedsInput, Limit: n.Limit, Halted: n.Halted, CrashLimit: n.CrashLimit, TurnEnded: n.TurnEnded, FleetIdle: n.FleetIdle} {
		if b != nil {
			c.Kinds[kind] = *b
		}
	}
	for _, d := range []struct {
		key string
		src *string
		dst *time.Duration
	}{{"window", n.Window, &c.Window}, {"min-interval", n.MinInterval, &c.MinInterval}, {"timeout", n.Timeout, &c.Timeout}} {
		if d.src == nil {
			continue
		}
		v, err := time.ParseDuration(*d.src)
		if err != nil || v < 0 {
			return c, fmt.Errorf("%s: notifications.%s = %q: want a duration such as 2s", path, d.key, *d.src)
		}
		*d.dst = v
	}
	if len(c.Command) > 0 && c.Command[0] == "" {
		return c, fmt.Errorf("%s: notify: the command's first word is empty", path)
	}
	return c, nil
}
