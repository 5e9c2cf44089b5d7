package fakeagent

import (
	"bufio"
	"fmt"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// keysMode puts the agent's terminal in the mode Claude Code reads keys
// in — the line discipline's own editing and echo off, so that the
// terminal is raw to superclaude, which waits for that (and a status)
// before it types held keys into a fresh agent — and reports whether it
// did. Signals stay on (ISIG): Ctrl-C, Ctrl-Z and Ctrl-\ reach the agent
// as signals, as the tests expect of it. Like Claude Code, the agent
// does this before it draws anything: what it prints next is what tells
// superclaude to look again. restoreModes puts the modes back.
func keysMode(in *os.File) bool {
	old, err := unix.IoctlGetTermios(int(in.Fd()), ioctlGetTermios)
	if err != nil {
		return false
	}
	keys := *old
	keys.Lflag &^= unix.ICANON | unix.ECHO
	keys.Cc[unix.VMIN], keys.Cc[unix.VTIME] = 1, 0
	if unix.IoctlSetTermios(int(in.Fd()), ioctlSetTermios, &keys) != nil {
		return false
	}
	modes.Lock()
	modes.restore = func() { unix.IoctlSetTermios(int(in.Fd()), ioctlSetTermios, old) }
	modes.Unlock()
	return true
}

// readLines reads what is typed on the agent's terminal, a line at a
// time, and hands each to take. In keys mode (raw) it does the echo and
// the editing itself; else the line discipline does.
func readLines(in *os.File, raw bool, take func(string)) {
	if !raw {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			take(sc.Text())
		}
		return
	}
	r := bufio.NewReader(in)
	var line []byte
	for {
		b, err := r.ReadByte()
		if err != nil {
			return // io.EOF: the terminal went away
		}
		switch b {
		case '\r', '\n':
			fmt.Print("\r\n")
			take(string(line))
			line = line[:0]
		case 0x7f, 0x08: // backspace
			if len(line) > 0 {
				line = line[:len(line)-1]
				fmt.Print("\b \b")
			}
		case 0x04: // Ctrl-D on an empty line: the end, as in cooked mode
			if len(line) == 0 {
				return
			}
		default:
			line = append(line, b)
			os.Stdout.Write([]byte{b})
		}
	}
}

// modes holds what puts the terminal's modes back as they were before
// readLines changed them: set by readLines, run by an exit on any
// goroutine (a signal's).
var modes struct {
	sync.Mutex
	restore func()
}

// restoreModes puts the terminal's modes back as they were before
// readLines changed them; nothing until then.
func restoreModes() {
	modes.Lock()
	defer modes.Unlock()
	if modes.restore != nil {
		modes.restore()
	}
}
