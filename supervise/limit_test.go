package supervise

import (
	"strings"
	"testing"
	"time"

	"github.com/superclaude/superclaude/state"
)

func TestLimitNext(t *testing.T) {
	reset := time.Date(2026, 11, 22, 20, 52, 0, 0, time.UTC)
	limited := &state.State{Limit: "5-hour usage limit", LimitedUntil: reset, LimitContinue: state.LimitBySuperclaude}
	byClaude := &state.State{Limit: "5-hour usage limit", LimitedUntil: reset, LimitContinue: state.LimitByClaude}
	for _, tc := range []struct {
		name           string
		st             *state.State
		now            time.Time
		stagger        time.Duration
		status, before string
		want           limitStep
	}{
		{"after the reset, idle twice", limited, reset.Add(time.Second), 0, StatusIdle, StatusIdle, limitType},
		{"before the reset", limited, reset.Add(-time.Second), 0, StatusIdle, StatusIdle, limitWait},
		{"idle only once: maybe between turns", limited, reset.Add(time.Second), 0, StatusIdle, StatusBusy, limitWait},
		{"waiting for the user (a dialog): never typed into", limited, reset.Add(time.Second), 0, StatusWaiting, StatusWaiting, limitWait},
		{"busy after the reset: it went on without superclaude", limited, reset.Add(time.Second), 0, StatusBusy, StatusIdle, limitWentOn},
		{"busy before the reset: nothing yet", limited, reset.Add(-time.Second), 0, StatusBusy, StatusBusy, limitWait},
		{"the fleet pane's stagger not yet passed", limited, reset.Add(5 * time.Second), 10 * time.Second, StatusIdle, StatusIdle, limitWait},
		{"…passed", limited, reset.Add(11 * time.Second), 10 * time.Second, StatusIdle, StatusIdle, limitType},
		{"claude's own auto-continue: superclaude waits for it", byClaude, reset.Add(time.Minute), 0, StatusIdle, StatusIdle, limitWait},
		{"claude's own auto-continue fired: no second continue", byClaude, reset.Add(time.Minute), 0, StatusBusy, StatusIdle, limitWentOn},
		{"claude's own auto-continue never came: superclaude types", byClaude, reset.Add(claudeContinueGrace + time.Second), 0, StatusIdle, StatusIdle, limitType},
		{"no limit", &state.State{}, reset, 0, StatusIdle, StatusIdle, limitWait},
		{"no session", nil, reset, 0, StatusIdle, StatusIdle, limitWait},
	} {
		if got := limitNext(tc.st, tc.now, tc.stagger, tc.status, tc.before); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// +why says who went on after a limit when superclaude did not type.
func TestWentOnWithout(t *testing.T) {
	reset := time.Date(2026, 11, 22, 20, 52, 0, 0, time.UTC)
	st := &state.State{Limit: "5-hour usage limit", LimitedUntil: reset, LimitContinue: state.LimitByClaude}
	if got := wentOnWithout(st); !strings.Contains(got, "claude continued by itself") {
		t.Fatalf("%q", got)
	}
	st.PendingPrompts = []state.Prompt{{Text: "go on", At: reset.Add(time.Second)}}
	if got := wentOnWithout(st); !strings.HasPrefix(got, "the person went on") {
		t.Fatalf("%q", got)
	}
}

func TestLimitStaggerIsFixedPerFleetPane(t *testing.T) {
	a := &Supervisor{cfg: Config{Pane: "fleet:w:A"}}
	b := &Supervisor{cfg: Config{Pane: "fleet:w:B"}}
	if a.limitStagger() != a.limitStagger() || a.limitStagger() >= limitStaggerMax {
		t.Fatalf("stagger %v", a.limitStagger())
	}
	if a.limitStagger() == b.limitStagger() {
		t.Logf("two panes share a stagger (%v); possible, but these two should not", a.limitStagger())
		t.Fail()
	}
	if (&Supervisor{cfg: Config{Pane: "%3@/tmp/s@1"}}).limitStagger() != 0 || (&Supervisor{}).limitStagger() != 0 {
		t.Fatal("a lone pane waits no stagger")
	}
}

// A limit is never a crash: an agent that ends while a limit holds is
// resumed after the reset, not backed off and counted.
func TestDecideAtALimit(t *testing.T) {
	reset := t0.Add(2 * time.Hour)
	limited := session(func(st *state.State) { st.Limit, st.LimitedUntil = "5-hour usage limit", reset })
	p := Decide(exited(1, time.Minute), limited, DefaultPolicy)
	if p.Action != Resume || p.Cause != CauseLimit || !p.NotBefore.Equal(reset) || p.SessionID != "conv-1" {
		t.Fatalf("Decide at a limit = %+v", p)
	}
	off := DefaultPolicy
	off.LimitContinue = false
	if p := Decide(exited(1, time.Minute), limited, off); p.Action != Stop || p.Cause != CauseLimit {
		t.Fatalf("with LimitContinue off: %+v", p)
	}
	// A limit that has reset by the time the agent ended is no reason.
	past := session(func(st *state.State) { st.Limit, st.LimitedUntil = "5-hour usage limit", t0 })
	if p := Decide(exited(1, time.Minute), past, DefaultPolicy); p.Action != Backoff || p.Cause != CauseCrash {
		t.Fatalf("a reset limit: %+v", p)
	}
	// The user's own exit is still theirs.
	if p := Decide(exited(0, time.Minute), limited, DefaultPolicy); p.Action != Stop || p.Cause != CauseUserExit {
		t.Fatalf("/exit at a limit: %+v", p)
	}
}
