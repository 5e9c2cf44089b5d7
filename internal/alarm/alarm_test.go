package alarm

import (
	"testing"
	"time"
)

func fired(a *Alarm, within time.Duration) bool {
	select {
	case <-a.C():
		return true
	case <-time.After(within):
		return false
	}
}

// An alarm fires once, at its time, and a later Set replaces an earlier
// one; Stop unsets it.
func TestAlarmFiresOnceAtItsTime(t *testing.T) {
	a := New()
	defer a.Close()
	start := time.Now()
	a.Set(50 * time.Millisecond)
	if !fired(a, 5*time.Second) {
		t.Fatal("the alarm did not fire")
	}
	if took := time.Since(start); took < 50*time.Millisecond {
		t.Fatalf("fired after %v, before its time", took)
	}
	if fired(a, 200*time.Millisecond) {
		t.Fatal("the alarm fired twice")
	}
	a.Set(time.Hour)
	a.Set(20 * time.Millisecond) // replaces the hour
	if !fired(a, 5*time.Second) {
		t.Fatal("a later Set did not replace the earlier one")
	}
	a.Set(50 * time.Millisecond)
	a.Stop()
	if fired(a, 300*time.Millisecond) {
		t.Fatal("a stopped alarm fired")
	}
	a.Set(0)
	if !fired(a, 5*time.Second) {
		t.Fatal("Set(0) did not fire at once")
	}
}
