package fakeagent

import (
	"bufio"
	"fmt"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// readLines reads what is typed on the agent's terminal, a line at a
// time, and hands each to take. On a terminal it reads keys as Claude
// Code does — the line discipline's own editing and echo off, so that the
// terminal is raw to superclaude, which waits for that before it types
// held keys into a fresh agent — and does the echo and the editing
// itself. Signals stay on (ISIG): Ctrl-C, Ctrl-Z and Ctrl-\ reach it as
// signals, as the tests expect of it. The terminal's modes are put back
// before restore returns.
func readLines(in *os.File, take func(string)) {
	old, err := unix.IoctlGetTermios(int(in.Fd()), ioctlGetTermios)
	if err != nil {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			take(sc.Text())
		}
		return
	}
	keys := *old
	keys.Lflag &^= unix.ICANON | unix.ECHO
	keys.Cc[unix.VMIN], keys.Cc[unix.VTIME] = 1, 0
	if unix.IoctlSetTermios(int(in.Fd()), ioctlSetTermios, &keys) != nil {
		sc := bufio.NewScanner(in)
		for sc.Scan() {
			take(sc.Text())
		}
		return
	}
	modes.Lock()
	modes.restore = func() { unix.IoctlSetTermios(int(in.Fd()), ioctlSetTermios, old) }
	modes.Unlock()
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
