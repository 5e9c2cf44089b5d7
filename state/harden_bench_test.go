package state

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkLoadBySize reads one session's state: a real one (a few
// hundred bytes), and one of 50 MB (the attack: such a file used to be
// read whole on every update and by +status). The 50 MB row is refused at
// fstat; compare it with the small one.
func BenchmarkLoadBySize(b *testing.B) {
	for _, tc := range []struct {
		name string
		size int
	}{{"state=small", 0}, {"state=50MB", 50 << 20}} {
		b.Run(tc.name, func(b *testing.B) {
			s, err := Open(filepath.Join(b.TempDir(), "sessions"))
			if err != nil {
				b.Fatal(err)
			}
			os.MkdirAll(filepath.Join(s.Root, "s"), 0o700)
			os.WriteFile(filepath.Join(s.Root, "s", StateFile), []byte(bigState(tc.size)), 0o600)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_, err := s.Load("s")
				if tc.size > MaxStateSize && !errors.Is(err, ErrTooLarge) && !errors.Is(err, ErrCorrupt) {
					b.Fatalf("Load of %d bytes: %v", tc.size, err)
				}
				if tc.size <= MaxStateSize && err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
