package child

import (
	"io"
	"os"
)

// relayFile returns the reader and writer the relay uses for f: on macOS,
// f itself (system calls go through libc; the raw-call shortcut of Linux,
// rawio_linux.go, does not apply).
func relayFile(f *os.File) io.ReadWriter { return f }
