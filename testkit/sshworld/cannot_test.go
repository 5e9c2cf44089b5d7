package sshworld

import (
	"fmt"
	"strings"
	"testing"
)

// ended records how a test was ended, in place of ending it.
type ended struct {
	testing.TB
	how, why string
}

func (e *ended) Fatal(args ...any) { e.end("fatal", args...) }
func (e *ended) Skip(args ...any)  { e.end("skip", args...) }

func (e *ended) end(how string, args ...any) {
	if e.how == "" {
		e.how, e.why = how, fmt.Sprint(args...)
	}
}

// Where the ssh tests cannot run they were skipped, in CI too: CI could go
// green without ever running them. In CI they fail, saying what is
// missing; elsewhere they skip.
func TestCISkippingTheSSHTestsFails(t *testing.T) {
	for ci, want := range map[string]string{"1": "fatal", "true": "fatal", "": "skip"} {
		t.Setenv("CI", ci)
		e := &ended{TB: t}
		cannot(e, "/usr/sbin/sshd is missing")
		if e.how != want || e.why == "" || !strings.Contains(e.why, "sshd is missing") {
			t.Errorf("CI=%q: ended by %s (%q), want %s naming what is missing", ci, e.how, e.why, want)
		}
	}
}
