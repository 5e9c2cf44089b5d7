package supervise

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/superclaude/superclaude/internal/safefs"
)

// chatKeeper is Gemini CLI's Keeper. It holds a second name for the chat
// file — a hard link beside it, which Gemini CLI's cleanup does not look
// at (it takes only names that start with "session-") — so that the file
// outlives a deletion of its name, and puts the name back at the next
// look:
//
//   - deleted, and nothing there since: the name is linked again to the
//     kept file, which the CLI then goes on appending to;
//   - deleted, and the CLI has meanwhile written on into a new file of
//     that name (without the line that names the conversation): what it
//     wrote there is appended to the kept file, which takes the name
//     back, and what the CLI appended in that moment follows;
//   - replaced by a file that names the same conversation: that is the
//     CLI's own rewrite, and the new file is kept instead.
//
// Its own deletion of a file that never got a prompt, as the CLI quits,
// is put back too: a chat file with no messages, which the next Gemini
// CLI's cleanup deletes, and which resumes as an empty conversation.
type chatKeeper struct {
	path string      // the chat file kept
	keep string      // the second name
	held os.FileInfo // the kept file, as linked
}

func newChatKeeper() Keeper { return &chatKeeper{} }

// keepName is the second name of the chat file path for the agent pid.
func keepName(path string, pid int) string {
	return filepath.Join(filepath.Dir(path), ".superclaude-keep-"+strconv.Itoa(pid)+"-"+filepath.Base(path))
}

func (k *chatKeeper) Look(a Running) (string, error) {
	if a.Transcript != k.path {
		if a.Transcript == "" {
			k.Release()
			return "", nil
		}
		return "", k.take(a)
	}
	if k.keep == "" {
		return "", nil // could not be kept, and said so
	}
	kept, err := os.Lstat(k.keep)
	if err != nil || !os.SameFile(kept, k.held) {
		// The second name is gone or another file's: hold what is there now.
		return "", k.take(a)
	}
	now, err := os.Lstat(k.path)
	switch {
	case err == nil && os.SameFile(now, k.held):
		return "", nil
	case errors.Is(err, fs.ErrNotExist):
		err := os.Link(k.keep, k.path)
		if err == nil {
			return "the chat file was deleted by another process; restored", nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
		// Written anew as we looked.
	case err != nil:
		return "", err
	}
	if chatSessionID(k.path) == chatSessionID(k.keep) {
		return "", k.take(a) // the CLI's own rewrite
	}
	return "the chat file was deleted by another process and written on anew without its conversation's id; joined again", k.join()
}

// take lets go of what it keeps and keeps a's chat file instead. A file
// it cannot keep is said once, not at every look (a file system without
// hard links would say it at each).
func (k *chatKeeper) take(a Running) error {
	k.Release()
	if err := k.hold(a.Transcript, a.Process.PID); err != nil {
		k.path = a.Transcript
		return err
	}
	return nil
}

// hold makes the second name of path, the file of the agent pid.
func (k *chatKeeper) hold(path string, pid int) error {
	keep := keepName(path, pid)
	os.Remove(keep) // a supervisor's that was killed, or a name planted there
	if err := os.Link(path, keep); err != nil {
		return err
	}
	fi, err := os.Lstat(keep)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		os.Remove(keep)
		return fmt.Errorf("%s is not a regular file", path)
	}
	k.path, k.keep, k.held = path, keep, fi
	return nil
}

// join appends what the CLI wrote into the file now at path to the kept
// file, which then takes the name back.
func (k *chatKeeper) join() error {
	f, err := safefs.OpenRegular(k.path)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := os.OpenFile(k.keep, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	defer w.Close()
	if _, err := io.Copy(w, f); err != nil {
		return err
	}
	if err := os.Rename(k.keep, k.path); err != nil {
		return err
	}
	// What the CLI appended to the new file between the copy and the
	// rename: the name is the kept file's now, so nothing comes after.
	if _, err := io.Copy(w, f); err != nil {
		return err
	}
	return os.Link(k.path, k.keep)
}

func (k *chatKeeper) Release() {
	if k.keep != "" {
		if fi, err := os.Lstat(k.keep); err == nil && os.SameFile(fi, k.held) {
			os.Remove(k.keep)
		}
	}
	*k = chatKeeper{}
}
