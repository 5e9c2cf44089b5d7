package state

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
)

// MaxNameLen bounds a session name; file systems allow 255 bytes for one
// path element and the corrupt-file suffix needs room.
const MaxNameLen = 200

// CheckName returns an error unless name can name a session directory: one
// path element, so that no name can reach outside the sessions root. Names
// starting with a dot are reserved for the store's own files.
func CheckName(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("session name is empty")
	case len(name) > MaxNameLen:
		return fmt.Errorf("session name %.20q… is longer than %d bytes", name, MaxNameLen)
	case name == "." || name == "..":
		return fmt.Errorf("session name %q is not allowed", name)
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("session name %q starts with a dot, which is reserved", name)
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("session name %q contains a path separator", name)
	}
	for _, r := range name {
		if r == 0 || unicode.IsControl(r) {
			return fmt.Errorf("session name %q contains a control character", name)
		}
	}
	return nil
}

// NameFromArg accepts a session as the seeds passed it — a bare name or a
// path such as sessions/2026_02_07_TOPIC — and returns the name, refusing a
// path whose directory is not the store's root.
func (s *Store) NameFromArg(arg string) (string, error) {
	if !strings.ContainsAny(arg, `/\`) {
		return arg, CheckName(arg)
	}
	abs, err := filepath.Abs(arg)
	if err != nil {
		return "", err
	}
	abs = filepath.Clean(abs)
	if filepath.Dir(abs) != s.Root {
		return "", fmt.Errorf("session directory %s is not inside the sessions directory %s", arg, s.Root)
	}
	name := filepath.Base(abs)
	return name, CheckName(name)
}

// Sanitize turns free text (a pane label, a directory name) into something
// CheckName accepts: runs of anything but letters, digits, '-', '_' and '.'
// become '_'.
func Sanitize(text string) string {
	var b strings.Builder
	under := false
	for _, r := range text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' || r == '.' {
			b.WriteRune(r)
			under = false
		} else if !under {
			b.WriteByte('_')
			under = true
		}
	}
	out := strings.Trim(b.String(), "_.")
	if len(out) > 60 {
		out = out[:60]
	}
	return out
}
