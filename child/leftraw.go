package child

import "golang.org/x/sys/unix"

// A supervisor killed with SIGKILL cannot restore the terminal it made raw,
// and not every shell puts it back (bash does for a job killed by a signal;
// zsh, fish and a tmux pane's plain `exec` do not). The next superclaude
// then starts from a raw terminal, and restoring "the mode it found" at the
// end would leave it raw again. So a terminal found raw — no canonical
// input and no echo, a mode no shell prompt runs in — is restored to a
// sane cooked mode instead, and the run says so (Terminal.FoundRaw).

// isRaw reports whether tio is a raw mode: line editing and echo both off.
func isRaw(tio *unix.Termios) bool {
	return tio.Lflag&(unix.ICANON|unix.ECHO) == 0
}

// saneTermios returns tio with the flags a raw mode clears set back as
// `stty sane` sets them; its control characters are kept.
func saneTermios(tio unix.Termios) unix.Termios {
	tio.Iflag |= unix.BRKINT | unix.ICRNL | unix.IXON
	tio.Iflag &^= unix.IGNBRK | unix.INLCR | unix.IGNCR | unix.PARMRK | unix.ISTRIP
	tio.Oflag |= unix.OPOST | unix.ONLCR
	tio.Lflag |= unix.ICANON | unix.ECHO | unix.ECHOE | unix.ECHOK | unix.ECHOCTL | unix.ECHOKE | unix.ISIG | unix.IEXTEN
	tio.Lflag &^= unix.ECHONL | unix.NOFLSH | unix.TOSTOP
	tio.Cflag |= unix.CREAD
	tio.Cc[unix.VMIN] = 1
	tio.Cc[unix.VTIME] = 0
	return tio
}

// rawAtStart reads fd's mode and, when it is raw, returns the sane mode to
// restore at the end in its place.
func rawAtStart(fd int) *unix.Termios {
	tio, err := unix.IoctlGetTermios(fd, ioctlReadTermios)
	if err != nil || !isRaw(tio) {
		return nil
	}
	sane := saneTermios(*tio)
	return &sane
}
