package claude

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/safefs"
)

//go:embed all:plugin
var pluginFS embed.FS

// HookEvents are the hook events superclaude answers, with the name of its
// `superclaude +hook` subcommand.
var HookEvents = map[string]string{
	"PreToolUse":       "pre-tool-use",
	"UserPromptSubmit": "user-prompt-submit",
	"PreCompact":       "pre-compact",
	"SessionStart":     "session-start",
	"StopFailure":      "stop-failure",
	"Stop":             "stop",
}

// Launch is what superclaude added to claude's command line.
type Launch struct {
	// Args is claude's command line with superclaude's --settings and
	// --plugin-dir in front and the user's own --settings merged in.
	Args []string
	// SettingsFile and PluginDir are the files superclaude wrote.
	SettingsFile, PluginDir string
	// UserStatusLine is the user's own status-line command, which
	// `superclaude +statusline` runs beside its own.
	UserStatusLine string
	// Skipped says, one line each, which settings files were passed over
	// and why: a FIFO, a device, a link out of the project, another
	// user's file, one over MaxSettings (see readSettingsFile).
	Skipped []string
}

// MaxSettings bounds a settings file superclaude reads. Claude Code's are
// a few KiB; a file past this is refused, as a FIFO or a device is.
const MaxSettings = 1 << 20

// LaunchDir is where the supervisor with PID pid writes claude's settings
// and plugin for its run (Prepare's dir), under the runtime directory rt;
// a status line or hook finds its supervisor's settings there, and a later
// supervisor removes a dead one's (watchdog).
func LaunchDir(rt string, pid int) string {
	return filepath.Join(rt, strconv.Itoa(pid)+".launch")
}

// Prepare writes, under dir (created 0700), the settings file that points
// claude's status line and hooks at exe, and the plugin that ships the
// /superclaude:session command; it returns claude's new command line.
//
// The user's own settings are never edited. A --settings of the user's is
// merged into superclaude's (claude honours only the last --settings; two
// are not merged), keeping its hooks beside superclaude's and every other
// key. The user's own status line — from that --settings, else from the
// local, project or user settings files — is returned for
// `superclaude +statusline` to run, because claude shows only one.
//
// env, when not nil, is written into the settings' own `env`, with the
// user's status line (envvar.UserStatusLine) beside it: claude gives the
// settings' env to every hook, status line and tool it runs, and a
// --settings file's wins over the local, project and user settings'
// (docs/design.md, what we rely on), so a repository's
// .claude/settings.json cannot change, for superclaude's own callbacks,
// what the supervisor told them (SUPERCLAUDE_OVERFLOW_THRESHOLD=1 opened
// the guard, SESSION_REQUIRED=0 the gate).
func Prepare(dir, exe string, args []string, cwd, configDir string, env map[string]string) (Launch, error) {
	rest, userValue, hasUser := cutSettings(args)
	base := map[string]any{}
	if hasUser {
		v, err := loadSettings(userValue, cwd)
		if err != nil {
			return Launch{}, fmt.Errorf("your --settings %s: %w", userValue, err)
		}
		base = v
	}
	l := Launch{UserStatusLine: statusLineCommand(base)}
	if l.UserStatusLine == "" {
		l.UserStatusLine, l.Skipped = userStatusLine(cwd, configDir)
	}

	self := shellQuote(exe)
	base["statusLine"] = map[string]any{"type": "command", "command": self + " +statusline", "padding": 0}
	hooks, _ := base["hooks"].(map[string]any)
	if hooks == nil {
		hooks = map[string]any{}
	}
	for event, sub := range HookEvents {
		entry := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": self + " +hook " + sub}}}
		if event == "PreToolUse" {
			entry["matcher"] = "*"
		}
		list, _ := hooks[event].([]any)
		hooks[event] = append(list, entry)
	}
	base["hooks"] = hooks
	if env != nil {
		pinned, _ := base["env"].(map[string]any)
		if pinned == nil {
			pinned = map[string]any{}
		}
		for k, v := range env {
			pinned[k] = v
		}
		pinned[envvar.UserStatusLine] = l.UserStatusLine
		base["env"] = pinned
	}

	b, err := json.MarshalIndent(base, "", "  ")
	if err != nil {
		return Launch{}, err
	}
	// The launch directory is made anew and its files created, never
	// opened: whatever was there — a dead supervisor's directory, or a
	// link a neighbour planted while the runtime directory was open to
	// others — is moved aside unfollowed, so nothing is written through
	// it (internal/safefs).
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return Launch{}, err
	}
	parent, err := safefs.Open(filepath.Dir(dir), "")
	if err != nil {
		return Launch{}, err
	}
	defer parent.Close()
	launch, err := parent.Fresh(filepath.Base(dir))
	if err != nil {
		return Launch{}, err
	}
	defer launch.Close()
	l.SettingsFile = filepath.Join(dir, "settings.json")
	if err := launch.Create("settings.json", b); err != nil {
		return Launch{}, err
	}
	l.PluginDir = filepath.Join(dir, "plugin")
	if err := writePlugin(launch, exe); err != nil {
		return Launch{}, err
	}
	l.Args = append([]string{"--settings", l.SettingsFile, "--plugin-dir", l.PluginDir}, rest...)
	return l, nil
}

// cutSettings removes every --settings from args and returns the last
// value, the one claude would have used.
func cutSettings(args []string) (rest []string, value string, found bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		if v, ok := strings.CutPrefix(a, "--settings="); ok {
			value, found = v, true
			continue
		}
		if a == "--settings" && i+1 < len(args) {
			value, found = args[i+1], true
			i++
			continue
		}
		rest = append(rest, a)
	}
	return rest, value, found
}

// loadSettings reads a --settings value as claude does: inline JSON when it
// parses, else a file path relative to cwd.
func loadSettings(value, cwd string) (map[string]any, error) {
	var v map[string]any
	if json.Unmarshal([]byte(value), &v) == nil && v != nil {
		return v, nil
	}
	path := value
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	b, err := readSettingsFile("/", path)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &v); err != nil || v == nil {
		return nil, fmt.Errorf("not a JSON object: %v", err)
	}
	return v, nil
}

func statusLineCommand(settings map[string]any) string {
	sl, _ := settings["statusLine"].(map[string]any)
	cmd, _ := sl["command"].(string)
	return cmd
}

// settingsLayer is one settings file claude reads, and the tree a link
// in its path may lead within (readSettingsFile).
type settingsLayer struct{ root, path string }

// settingsLayers are the settings files of the person's and the
// project's that claude reads for a project at cwd with configuration
// directory configDir, besides --settings, the nearest first: local
// project settings, project settings, user settings. A project's may be
// links within the project only.
func settingsLayers(cwd, configDir string) []settingsLayer {
	return []settingsLayer{
		{cwd, filepath.Join(cwd, ".claude", "settings.local.json")},
		{cwd, filepath.Join(cwd, ".claude", "settings.json")},
		{"/", filepath.Join(configDir, "settings.json")},
	}
}

// userStatusLine finds the status line claude would have used without
// superclaude, in the nearest settings layer that has one
// (settingsLayers). A file that is there but cannot be used is skipped,
// and said.
func userStatusLine(cwd, configDir string) (command string, skipped []string) {
	for _, f := range settingsLayers(cwd, configDir) {
		b, err := readSettingsFile(f.root, f.path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			skipped = append(skipped, err.Error())
			continue
		}
		var v map[string]any
		if json.Unmarshal(b, &v) == nil {
			if c := statusLineCommand(v); c != "" {
				return c, skipped
			}
		}
	}
	return "", skipped
}

// readSettingsFile reads a settings file as claude would, but safely: a
// project's (root: the project) may be a link within the project, never
// out of it; the user's own and a --settings file (root "/") may be links
// anywhere. Either must be a regular file of at most MaxSettings, the
// user's or root's, not writable by everyone — never a FIFO, which would
// hang the start, nor a device such as /dev/zero, which never ends.
func readSettingsFile(root, path string) ([]byte, error) {
	return safefs.ReadIn(root, path, MaxSettings, "a settings file")
}

// ConfigDir is claude's configuration directory: $CLAUDE_CONFIG_DIR, else
// ~/.claude.
func ConfigDir() string {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".claude")
}

// writePlugin extracts the embedded plugin into dir, the fresh launch
// directory's plugin/, with the path of the superclaude binary written
// into the command text. Every directory and file is created anew inside
// the launch directory, none followed.
func writePlugin(launch *safefs.Dir, exe string) error {
	dirs := map[string]*safefs.Dir{".": launch}
	defer func() {
		for name, d := range dirs {
			if name != "." {
				d.Close()
			}
		}
	}()
	return fs.WalkDir(pluginFS, "plugin", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		parent := dirs[filepath.Dir(path)]
		if parent == nil {
			return fmt.Errorf("plugin: no directory for %s", path)
		}
		if d.IsDir() {
			if err := parent.Mkdir(d.Name()); err != nil {
				return err
			}
			sub, err := parent.Child(d.Name(), false)
			if err != nil {
				return err
			}
			dirs[path] = sub
			return nil
		}
		b, err := pluginFS.ReadFile(path)
		if err != nil {
			return err
		}
		text := strings.NewReplacer("{{SUPERCLAUDE}}", shellQuote(exe), "{{SESSION_COMMAND}}", SessionCommand).Replace(string(b))
		return parent.Create(d.Name(), []byte(text))
	})
}

// shellQuote quotes s for /bin/sh, which claude runs hook commands with.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+:@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
