package claude

import (
	"encoding/json"
	"path/filepath"
)

// AutoContinueSetting is the Claude Code setting that makes claude itself
// go on after a usage limit resets (docs/claude-code-limits.md, §10): with
// it on, claude arms its own continuation at the limit and sends it some
// time after the reset — for a claude.ai login whose account has the
// feature. A supervisor that also typed "continue" would double it.
const AutoContinueSetting = "autoContinueAtUsageLimit"

// AutoContinueOn reports whether a settings layer claude reads for a
// project at cwd with configuration directory configDir — its own and
// the machine's managed settings (settingsLayers, managedSettings) — or
// one of extra (--settings files) turns AutoContinueSetting on, and which
// file. Files are read as every settings file is (readSettingsFile): a
// FIFO or a device planted in a cloned project is passed over, never
// waited on. Files that are missing or unreadable count as silent;
// claude's own precedence (a later layer turning it off again) is not
// modelled: any layer that says true is taken as claude possibly
// continuing, which only makes superclaude wait longer before it types,
// never type twice.
func AutoContinueOn(cwd, configDir string, extra ...string) (bool, string) {
	layers := append(settingsLayers(cwd, configDir), managedSettings...)
	for _, f := range extra {
		layers = append(layers, settingsLayer{"/", f})
	}
	for _, l := range layers {
		b, err := readSettingsFile(l.root, l.path)
		if err != nil {
			continue
		}
		var v map[string]any
		if json.Unmarshal(b, &v) == nil && v[AutoContinueSetting] == true {
			return true, l.path
		}
	}
	return false, ""
}

// managedSettings are the machine's managed settings files, Linux's and
// macOS's, which claude reads above every other layer.
var managedSettings = []settingsLayer{
	{"/", "/etc/claude-code/managed-settings.json"},
	{"/", filepath.Join("/Library", "Application Support", "ClaudeCode", "managed-settings.json")},
}
