package logfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// Two writers (two processes, as a supervisor and a hook are) rotate the
// log between them: it never grows far past MaxSize, each follows the
// other's rotation, and no line is split.
func TestTwoWritersRotateTheLog(t *testing.T) {
	MaxSize, checkEvery = 4<<10, 256
	defer func() { MaxSize, checkEvery = 8<<20, 64<<10 }()
	dir := t.TempDir()
	a, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	line := bytes.Repeat([]byte("x"), 99)
	line = append(line, '\n')
	for i := range 2000 {
		w := a
		if i%2 == 1 {
			w = b
		}
		if _, err := w.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	a.Close()
	b.Close()
	for _, name := range []string{Name, Name + ".1"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(data)) > MaxSize+2*checkEvery+int64(len(line)) {
			t.Fatalf("%s is %d bytes, limit %d", name, len(data), MaxSize)
		}
		for _, l := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
			if len(l) != 99 {
				t.Fatalf("%s holds a split line of %d bytes", name, len(l))
			}
		}
	}
}
