package claude

import (
	"os"
	"path/filepath"
	"strings"
)

// isSelf reports whether word, the program word of a Bash command, runs
// the superclaude binary this hook runs as (p.Self). Only two spellings
// do, and nothing else is taken for superclaude — a repository's
// ./superclaude, a script of that name, a look-alike on a PATH the line
// itself changed (issue 21, row 9):
//
//   - an absolute path that is that file, or a link to it (the link a
//     package manager or a person installed it through);
//   - a bare name found on p.Path — the PATH of the agent's environment,
//     which the person set, not the line (a line that assigns anything is
//     never bookkeeping: commandLine.rebinds) — as that file. A PATH
//     with a relative entry ("." or an empty one) before the file is
//     read from whatever directory the command runs in, which a
//     repository fills: the bare name is then not trusted.
//
// Everything is compared as files (os.SameFile), so that a hard link or
// a symbolic one is the binary and a copy is not. The plugin's session
// command names the binary by its absolute path, so an agent told to
// dehydrate always has a spelling that passes.
func (p Policy) isSelf(word string) bool {
	if p.Self == "" || word == "" {
		return false
	}
	if strings.Contains(word, "/") {
		return filepath.IsAbs(word) && sameFile(word, p.Self)
	}
	for _, dir := range filepath.SplitList(p.Path) {
		if !filepath.IsAbs(dir) {
			return false
		}
		file := filepath.Join(dir, word)
		if fi, err := os.Stat(file); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return sameFile(file, p.Self)
		}
	}
	return false
}

func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
