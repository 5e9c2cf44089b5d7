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
//     package manager or a person installed it through) — but never a
//     path through /proc or /dev: /proc/self/exe is the hook's own
//     binary when the hook looks, and bash's when bash runs it (`bash
//     +session …` then runs a repository's file called +session), and a
//     link to it anywhere is the same trick;
//   - a bare name found on p.Path — the PATH of the agent's environment,
//     which the person set, not the line (a line that assigns anything is
//     never bookkeeping) — as that file, by the same rule. A PATH with a
//     relative entry ("." or an empty one) before the file is read from
//     whatever directory the command runs in, which a repository fills:
//     the bare name is then not trusted.
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
		return p.isSelfByPath(word)
	}
	for _, dir := range filepath.SplitList(p.Path) {
		if !filepath.IsAbs(dir) {
			return false
		}
		file := filepath.Join(dir, word)
		if fi, err := os.Stat(file); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p.isSelfByPath(file)
		}
	}
	return false
}

// isSelfByPath is isSelf for the absolute spelling alone. Past the
// overflow threshold only it makes a line bookkeeping: the bare name is
// found on the PATH of the hook's environment, and the Bash tool's shell
// may read another — its rc files, direnv — on which a repository's own
// superclaude comes first; the plugin's session command gives the
// absolute path.
func (p Policy) isSelfByPath(word string) bool {
	if p.Self == "" || !filepath.IsAbs(word) {
		return false
	}
	real, ok := resolve(word)
	return ok && sameFile(real, p.Self)
}

// maxHops bounds the symbolic links resolve follows, as the kernel's 40.
const maxHops = 40

// resolve follows the symbolic links of the absolute path, one element at
// a time, and returns the file it names, refusing any step through /proc
// or /dev: their magic links (/proc/self/exe, /dev/fd/N) name a different
// file for every process that follows them.
func resolve(path string) (string, bool) {
	done, rest := "/", strings.Split(filepath.Clean(path), "/")
	hops := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		if c == "" || c == "." {
			continue
		}
		next := filepath.Join(done, c)
		if c == ".." {
			next = filepath.Dir(done)
		}
		if magic(next) {
			return "", false
		}
		fi, err := os.Lstat(next)
		if err != nil {
			return "", false
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			done = next
			continue
		}
		if hops++; hops > maxHops {
			return "", false
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", false
		}
		if filepath.IsAbs(target) {
			done = "/"
		}
		rest = append(strings.Split(filepath.Clean(target), "/"), rest...)
	}
	return done, !magic(done)
}

// magic reports whether path is in /proc or /dev.
func magic(path string) bool {
	for _, m := range []string{"/proc", "/dev"} {
		if path == m || strings.HasPrefix(path, m+"/") {
			return true
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
