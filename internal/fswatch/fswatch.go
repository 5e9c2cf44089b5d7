// Package fswatch owns learning of changes to a few named files from the
// kernel — inotify on Linux, kqueue on macOS, through fsnotify — so that a
// supervisor whose agent is idle makes no wakeups at all: nothing is
// polled; a file that changes wakes it, and only then.
//
// A Watcher is told the files it is about (Watch) and says that one of
// them may have changed (Changed); a directory named with a trailing
// separator stands for every file directly in it (a CLI that writes each
// conversation to a new file, whose name is not known before it is
// written). It watches each file's directory rather
// than the file: a file replaced by a rename (as every state file is) is a
// new inode, which a watch on the old one would miss. A directory that
// does not exist yet is waited for through its nearest existing ancestor,
// and the watch moves down as the directories appear (Claude Code creates
// its sessions directory when it first starts). Events about other files
// in a watched directory are dropped here, so a fleet of agents that share
// a directory wake their supervisors only for their own files — and not
// at all while every agent is idle.
//
// What changed is not said, only that something may have: the owner reads
// its files again, which it must be able to do at any time anyway.
package fswatch

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// Watcher reports changes to a set of files.
type Watcher struct {
	fs *fsnotify.Watcher
	c  chan struct{}

	mu    sync.Mutex
	files map[string]bool // the files asked about, cleaned absolute paths
	in    map[string]bool // the directories asked about: any file in them
	dirs  map[string]bool // the directories watched for them
	done  chan struct{}
}

// New returns a Watcher of no files. It fails when the system has no
// watch to give (Linux's inotify instances are limited per user): the
// caller then falls back to reading its files on a timer.
func New() (*Watcher, error) {
	fs, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &Watcher{fs: fs, c: make(chan struct{}, 1), files: map[string]bool{}, in: map[string]bool{}, dirs: map[string]bool{}, done: make(chan struct{})}
	go w.run()
	return w, nil
}

// Changed receives a value after one of the files may have changed (been
// created, written, replaced or removed). Changes that come while nobody
// receives are folded into one.
func (w *Watcher) Changed() <-chan struct{} { return w.c }

// Watch makes files (absolute paths) the set the watcher is about,
// replacing the previous set; a path that ends in a separator is a
// directory, about every file directly in it. A file that cannot be
// watched at all (no ancestor directory can be) is left out.
//
// A directory watched that was not before is reported as a change: what
// was written in it before its watch began sent no event, and the owner,
// which read its files before it named them, may not have seen it.
func (w *Watcher) Watch(files ...string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.files, w.in = map[string]bool{}, map[string]bool{}
	for _, f := range files {
		switch {
		case f == "" || !filepath.IsAbs(f):
		case strings.HasSuffix(f, string(filepath.Separator)):
			w.in[filepath.Clean(f)] = true
		default:
			w.files[filepath.Clean(f)] = true
		}
	}
	if w.rewatch() {
		w.notify()
	}
}

// rewatch watches, for every file, its directory or its nearest existing
// ancestor, and drops the watches no file needs any more. It reports
// whether it watches a directory it did not watch before. The caller
// holds mu.
func (w *Watcher) rewatch() (added bool) {
	want := map[string]bool{}
	var starts []string
	for f := range w.files {
		starts = append(starts, filepath.Dir(f))
	}
	for d := range w.in {
		starts = append(starts, d)
	}
	for _, start := range starts {
		for {
			dir, ok := w.watchNearest(start)
			if !ok {
				break
			}
			added = added || !w.dirs[dir]
			w.dirs[dir] = true
			want[dir] = true
			// A directory made below dir after its Add failed and before
			// dir's watch began sent dir no event (`mkdir -p` of a CLI
			// that makes its day's directory, as Codex does, is that
			// quick): nothing would ever move the watch down. Look again.
			if dir == start || !exists(towards(dir, start)) {
				break
			}
		}
	}
	for dir := range w.dirs {
		if !want[dir] {
			w.fs.Remove(dir)
			delete(w.dirs, dir)
		}
	}
	return added
}

// watchNearest watches start or its nearest ancestor that can be, and
// says which.
func (w *Watcher) watchNearest(start string) (string, bool) {
	for dir := start; ; dir = filepath.Dir(dir) {
		// Added again even when watched: a directory removed and made
		// anew lost its watch with its inode.
		if err := w.fs.Add(dir); err == nil {
			return dir, true
		}
		if parent := filepath.Dir(dir); parent == dir {
			return "", false
		}
	}
}

// towards is the directory right below dir on the way to start, a
// directory under it.
func towards(dir, start string) string {
	for p := start; ; p = filepath.Dir(p) {
		if parent := filepath.Dir(p); parent == dir || parent == p {
			return p
		}
	}
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// Close stops watching.
func (w *Watcher) Close() error {
	err := w.fs.Close()
	<-w.done
	return err
}

func (w *Watcher) run() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if w.relevant(ev) {
				w.notify()
			}
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			// Lost events (the kernel's queue overflowed): anything may
			// have changed.
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.notify()
			}
		}
	}
}

// relevant reports whether ev is about one of the files or a file in one
// of the directories, or about a directory on the way to one (created,
// removed or renamed: the watch moves, and the file may be there now).
func (w *Watcher) relevant(ev fsnotify.Event) bool {
	name := filepath.Clean(ev.Name)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.files[name] || w.in[filepath.Dir(name)] {
		if ev.Has(fsnotify.Chmod) && !ev.Has(fsnotify.Write|fsnotify.Create|fsnotify.Remove|fsnotify.Rename) {
			return false
		}
		return true
	}
	sep := string(filepath.Separator)
	for _, set := range []map[string]bool{w.files, w.in} {
		for f := range set {
			if strings.HasPrefix(f, name+sep) || f == name {
				w.rewatch()
				return true
			}
		}
	}
	return false
}

func (w *Watcher) notify() {
	select {
	case w.c <- struct{}{}:
	default:
	}
}
