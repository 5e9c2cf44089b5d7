package proc

import (
	"regexp"
	"testing"
)

// Regression: the boot identity was kern.boottime in seconds, which moves
// when the clock is stepped (NTP after a sleep); live supervisors then
// looked dead. It is kern.bootsessionuuid now, which does not move.
func TestAttackClockStepDoesNotKillIdentities(t *testing.T) {
	id := bootID()
	if !regexp.MustCompile(`^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$`).MatchString(id) {
		t.Fatalf("boot identity %q is not kern.bootsessionuuid's UUID", id)
	}
	me, err := Self()
	if err != nil || me.Boot != id || !Alive(me) {
		t.Fatalf("Self = %+v, %v", me, err)
	}
	// An identity an older superclaude recorded (boot time in seconds)
	// still verifies by its start time.
	legacy := me
	legacy.Boot = "1763760000"
	if err := legacy.Verify(); err != nil {
		t.Fatalf("a legacy boot identity: %v", err)
	}
	other := me
	other.Boot = "00000000-0000-0000-0000-000000000000"
	if Alive(other) {
		t.Fatal("another boot's identity verified")
	}
}
