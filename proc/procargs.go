//go:build linux || darwin

package proc

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// parseProcargs2 reads the buffer of macOS's sysctl kern.procargs2: argc
// (int32, little-endian), the executable path, NUL padding, argc
// NUL-terminated arguments, then the NUL-terminated environment. It lives
// outside the darwin file so that Linux CI tests it too.
func parseProcargs2(buf []byte) ([]string, error) {
	if len(buf) < 4 {
		return nil, errors.New("procargs2: short buffer")
	}
	argc := int(binary.LittleEndian.Uint32(buf[:4]))
	rest := buf[4:]
	// Executable path, then padding NULs.
	i := bytes.IndexByte(rest, 0)
	if i < 0 {
		return nil, errors.New("procargs2: no executable path")
	}
	rest = rest[i:]
	for len(rest) > 0 && rest[0] == 0 {
		rest = rest[1:]
	}
	fields := bytes.Split(rest, []byte{0})
	if len(fields) < argc {
		return nil, errors.New("procargs2: fewer arguments than argc")
	}
	var env []string
	for _, f := range fields[argc:] {
		if len(f) == 0 {
			break
		}
		env = append(env, string(f))
	}
	return env, nil
}
