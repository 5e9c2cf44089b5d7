// Package lookpath is superclaude's one PATH lookup: how the hand-over
// before main, the supervised and one-shot starts, a copy of superclaude
// stepping aside, and +up's check of a fleet pane find an agent's
// executable.
//
// It finds what os/exec's LookPath finds — the first file of the name on
// PATH that is not a directory and that this process may execute, an
// empty entry read as "." — with two differences that superclaude needs:
//
//   - Files named in skip are passed over, compared as files (a link to
//     one is that one). A drop-in wrapper is installed in the agent's
//     place, a `claude` link to superclaude ahead of the real claude on
//     PATH, so that every `claude` a person or a script types is
//     supervised; looking up "claude", superclaude finds itself first.
//     Like ccache installed as cc, it takes the next one instead. Exec'd,
//     itself would look again and exec itself again, for ever; run as the
//     agent, it would stack supervisors.
//   - The lookup can be made from a directory other than the working one
//     (Find's dir), as a fleet pane will run: relative PATH entries and a
//     relative command are taken from there.
//
// It imports only what internal/handover may import before the program
// has initialised (see that package's doc): errors, os, path and syscall.
package lookpath

import (
	"errors"
	"os"
	"path"
	"syscall"
)

// The errors of Find, with os/exec's words for the first two.
var (
	// ErrNotFound: no file of the name on PATH.
	ErrNotFound = errors.New("executable file not found in $PATH")
	// ErrDot: the file found came from a relative PATH entry and no
	// directory was given to take it from; Find returns it with the file,
	// as os/exec's LookPath does, and the caller decides.
	ErrDot = errors.New("cannot run executable found relative to current directory")
	// ErrSkipped: what was found is one of the files to pass over, and
	// nothing else of the name is on PATH.
	ErrSkipped = errors.New("only files passed over were found")
)

// Find returns the file command names: command itself when it holds a
// '/', else the first file of that name in pathList's directories, passing
// over the files in skip. A relative PATH entry or command is taken from
// dir, when dir is not empty. The error is ErrNotFound, ErrDot (with the
// file), ErrSkipped, or for a command that holds a '/' why that file
// cannot be run (os/exec's: *os.PathError from stat, syscall.EISDIR, a
// permission error).
func Find(command, pathList, dir string, skip ...string) (string, error) {
	if command == "" {
		return "", ErrNotFound
	}
	s := skipper{files: skip}
	for i := 0; i < len(command); i++ {
		if command[i] == '/' {
			file := command
			if dir != "" && file[0] != '/' {
				file = path.Join(dir, file)
			}
			fi, err := executable(file)
			switch {
			case err != nil:
				return "", err
			case s.skipped(fi):
				return "", ErrSkipped
			}
			return file, nil
		}
	}
	passed := false
	for start := 0; start <= len(pathList); {
		end := start
		for end < len(pathList) && pathList[end] != ':' {
			end++
		}
		entry := pathList[start:end]
		start = end + 1
		if entry == "" {
			entry = "." // as os/exec and the shells read an empty entry
		}
		if entry[0] != '/' && dir != "" {
			entry = path.Join(dir, entry)
		}
		file := path.Join(entry, command)
		fi, err := executable(file)
		if err != nil {
			continue
		}
		if s.skipped(fi) {
			passed = true
			continue
		}
		if file[0] != '/' {
			return file, ErrDot
		}
		return file, nil
	}
	if passed {
		return "", ErrSkipped
	}
	return "", ErrNotFound
}

// executable stats file and reports why os/exec would not run it, if it
// would not: it does not exist, it is a directory, or this process may
// not execute it (access(2) with X_OK, falling back to the mode's execute
// bits where the call is refused, as os/exec does).
func executable(file string) (os.FileInfo, error) {
	fi, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return nil, syscall.EISDIR
	}
	err = syscall.Access(file, 1) // X_OK
	if err == nil || err != syscall.ENOSYS && err != syscall.EPERM {
		return fi, err
	}
	if fi.Mode()&0o111 != 0 {
		return fi, nil
	}
	return nil, os.ErrPermission
}

// skipper tells the files to pass over, stat'd once, when first asked.
type skipper struct {
	files []string
	infos []os.FileInfo
	done  bool
}

func (s *skipper) skipped(fi os.FileInfo) bool {
	if !s.done {
		s.done = true
		for _, f := range s.files {
			if f == "" {
				continue
			}
			if info, err := os.Stat(f); err == nil {
				s.infos = append(s.infos, info)
			}
		}
	}
	for _, info := range s.infos {
		if os.SameFile(fi, info) {
			return true
		}
	}
	return false
}

// SameFile reports whether paths a and b are one file.
func SameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}
