package state

import (
	"path/filepath"
	"strings"

	"github.com/superclaude/superclaude/internal/safefs"
)

// ownFiles are the files superclaude keeps in a sessions root and its
// session directories, each with the names derived from it: its lock
// (NAME.lock), a write's temporary file (.NAME.tmp-…) and a bad file moved
// aside (NAME.corrupt-…).
var ownFiles = []string{StateFile, EventsFile, DehydratedFile}

// OwnFile reports whether name, a file's name (or path: its last element
// is looked at), is one of superclaude's own files in a session directory
// — its state, its lock, a temporary or corrupt copy, the event log, the
// dehydrated context — which nothing but superclaude writes. A log target
// that named one (`+log --file .state.json`, or a repository's targetFile)
// appended to the session's own state: the file no longer parsed, was
// moved aside as corrupt, and the session was gone, the overflow guard
// open and the restart's state lost. The comparison ignores case: macOS's
// file system does.
func OwnFile(name string) bool {
	base := strings.ToLower(filepath.Base(filepath.Clean(name)))
	for _, own := range ownFiles {
		own = strings.ToLower(own)
		if base == own || strings.HasPrefix(base, own+".") || strings.HasPrefix(base, "."+own+".") {
			return true
		}
	}
	return false
}

// errOwnFile is the refusal of a log target that is one of superclaude's
// own files.
func errOwnFile(path string) error {
	return &safefs.Problem{Path: path, Kind: safefs.ErrUnsafe, Text: "is one of superclaude's own files in the session directory (its state, its event log or the dehydrated context), which a log appended to would destroy; log to another file"}
}
