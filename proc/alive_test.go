//go:build linux || darwin

package proc

import (
	"os/exec"
	"testing"
)

// AliveAll answers as Alive does for each identity — the living, the
// gone, one whose PID another process holds now, one recorded without a
// start time — with few PIDs and with many (where Linux lists /proc once
// instead of looking up each).
func TestAliveAllAgreesWithAlive(t *testing.T) {
	me, err := Self()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	gone := Identity{PID: cmd.Process.Pid, Start: 1}
	reused := me
	reused.Start++
	anyHolder := Identity{PID: me.PID}
	base := []Identity{me, gone, reused, anyHolder, {}, me}
	want := []bool{true, false, false, true, false, true}
	for _, n := range []int{0, 2 * manyPIDs} {
		ids := append([]Identity(nil), base...)
		for i := 0; i < n; i++ {
			ids = append(ids, Identity{PID: 1<<22 + i, Start: 5}) // above any pid_max: never there
		}
		got := AliveAll(ids)
		for i, w := range want {
			if got[i] != w {
				t.Errorf("%d more PIDs: %+v alive %v, want %v", n, ids[i], got[i], w)
			}
			if ids[i].Start != 0 && got[i] != Alive(ids[i]) {
				t.Errorf("%d more PIDs: %+v: AliveAll %v, Alive %v", n, ids[i], got[i], Alive(ids[i]))
			}
		}
		for i := len(base); i < len(ids); i++ {
			if got[i] {
				t.Errorf("PID %d, which no process holds, is alive", ids[i].PID)
			}
		}
	}
}
