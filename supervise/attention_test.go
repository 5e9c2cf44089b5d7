package supervise

import (
	"testing"
)

// The needs-input notification hangs on the change of what the agent
// says it is doing, not on a poll of its own: one change to waiting, one
// attention, however many readings say waiting; a turn's end is told too
// (notifications leave it off unless the person turns it on).
func TestAttentionOnTheStatusChange(t *testing.T) {
	var got []Attention
	s := &Supervisor{cfg: Config{Pane: "work:main:A", OnAttention: func(a Attention) { got = append(got, a) }}}
	for _, st := range []string{StatusIdle, StatusBusy, StatusWaiting, StatusWaiting, StatusWaiting, StatusBusy, StatusIdle, StatusIdle} {
		s.noteStatus(st)
	}
	kinds := map[string]int{}
	for _, a := range got {
		kinds[a.Kind]++
		if a.Pane != "work:main:A" || a.Want == "" {
			t.Errorf("%+v", a)
		}
	}
	if kinds[AttentionNeedsInput] != 1 || kinds[AttentionTurnEnded] != 1 || len(got) != 2 {
		t.Fatalf("attentions %+v", got)
	}
}
