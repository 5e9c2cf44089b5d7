package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// AutoContinueSetting is the Claude Code setting that makes claude itself
// go on after a usage limit resets (docs/claude-code-limits.md, §10): with
// it on, claude arms its own continuation at the limit and sends it some
// time after the reset — for a claude.ai login whose account has the
// feature. A supervisor that also typed "continue" would double it.
const AutoContinueSetting = "autoContinueAtUsageLimit"

// AutoContinueOn reports whether any of the settings files turns
// AutoContinueSetting on, and which one. Files that are missing or
// unreadable count as silent; claude's own precedence (a later layer
// turning it off again) is not modelled: any layer that says true is
// taken as claude possibly continuing, which only makes superclaude wait
// longer before it types, never type twice.
func AutoContinueOn(files ...string) (bool, string) {
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || len(b) > 1<<20 {
			continue
		}
		var v map[string]any
		if json.Unmarshal(b, &v) == nil && v[AutoContinueSetting] == true {
			return true, f
		}
	}
	return false, ""
}

// SettingsFiles lists the settings files claude reads for a project at
// cwd with configuration directory configDir, and the managed settings of
// the machine, besides any --settings: local project settings, project
// settings, user settings, managed settings.
func SettingsFiles(cwd, configDir string) []string {
	return []string{
		filepath.Join(cwd, ".claude", "settings.local.json"),
		filepath.Join(cwd, ".claude", "settings.json"),
		filepath.Join(configDir, "settings.json"),
		"/etc/claude-code/managed-settings.json",
		"/Library/Application Support/ClaudeCode/managed-settings.json",
	}
}
