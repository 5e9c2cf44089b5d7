package safefs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The name messages give a directory is worked out only when a message
// needs it: the state store's (relative to the working directory, which
// os.Getwd finds) cost a status-line tick a twentieth of its time, for no
// message at all (issue 22). A message still names paths as before.
func TestTheShownNameIsWorkedOutOnlyForAMessage(t *testing.T) {
	base := t.TempDir()
	if err := os.Mkdir(filepath.Join(base, "s"), 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(base, "s", "f"), []byte("x"), 0o600)
	calls := 0
	show := func(p string) string {
		calls++
		return strings.Replace(p, base, "BASE", 1)
	}
	d, err := OpenShown(base, show)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, err := d.Child("s", false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if b, err := s.ReadFile("f", 10, "a test file"); err != nil || string(b) != "x" {
		t.Fatalf("read %q, %v", b, err)
	}
	if b, ok, err := d.ReadBeneath("s/f", 10, "a test file"); ok && (err != nil || string(b) != "x") {
		t.Fatalf("read beneath %q, %v", b, err)
	}
	if calls != 0 {
		t.Fatalf("the shown name was worked out %d times with no message to give", calls)
	}
	_, err = s.ReadFile("missing", 10, "a test file")
	if want := filepath.Join("BASE", "s", "missing"); err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v; want it to name %s", err, want)
	}

	// Open with a fixed name for the base gives its children that name too.
	o, err := Open(base, "/shown")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	oc, err := o.Child("s", false)
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close()
	if got := oc.Join("f"); got != filepath.Join("/shown", "s", "f") {
		t.Fatalf("Join = %q", got)
	}
	// And an unsafe directory is still refused, by its shown name.
	if err := os.Chmod(filepath.Join(base, "s"), 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Child("s", false); err == nil || !strings.Contains(err.Error(), filepath.Join("BASE", "s")) {
		t.Fatalf("a directory every user may write to: %v", err)
	}
}
