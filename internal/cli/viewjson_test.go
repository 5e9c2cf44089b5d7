package cli

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// viewFrom fills every field of a view from a few values, so that the
// fuzzer reaches each string, number and flag.
func viewFrom(s1, s2 string, f1, f2 float64, n int, flags uint8) SessionView {
	usage := &f1
	if flags&64 != 0 {
		usage = nil // an agent that does not report it
	}
	return SessionView{
		Name: s1, Dir: s2, Pane: s1 + s2, PID: n, OwnerAlive: flags&1 != 0, NoSupervisor: flags&2 != 0,
		State: s2, Skill: s1, Phase: s2, Lifecycle: "active", Overflowed: flags&4 != 0, FreshAfterOverflow: flags&8 != 0,
		LimitContinue: s1, KillRequested: flags&16 != 0, ContextUsage: usage, SessionID: s2, LastHeartbeat: s1, LastActivity: s2,
		Restarts: -n, Agent: s2, Profile: s1, ConversationUnknown: s2, NeedsInput: flags&32 != 0, CostUSD: f2,
		Limit: s1, LimitedUntil: s2, Halted: s1, LastExit: s2, Host: s1, HostError: s2, LastGood: s1,
	}
}

// +status --json writes each view without json.Marshal (issue 22): the
// same bytes, for every string — escapes, HTML, bytes that are not UTF-8,
// U+2028 — and every number json.Marshal writes, and declined for one it
// refuses.
func TestViewJSONIsJSONMarshals(t *testing.T) {
	for _, v := range []SessionView{
		{},
		viewFrom("a<b>&c", "\"quoted\" \\ \n\t\r\b\f\x01\x1f\x7f", 0.3, 12.75, 42, 0xff),
		viewFrom("\xff\xfeé\u2028\u2029😀", "/home/x/sessions/s", 1e-7, 1e21, -1, 0),
		viewFrom("", "", 5e-324, math.MaxFloat64, 0, 0x15),
		viewFrom("x", "y", -0.0, 123456789.125, 1<<40, 0x2a),
		viewFrom("codex", "y", 0, 0, 1, 0x40),
	} {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := v.AppendJSON(nil)
		if !ok || !bytes.Equal(got, want) {
			t.Errorf("got  %s (%v)\nwant %s", got, ok, want)
		}
	}
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		v := viewFrom("a", "b", bad, 0, 1, 0)
		if b, ok := v.AppendJSON([]byte("x")); ok || string(b) != "x" {
			t.Errorf("usage %v: appended %q, ok %v; want it declined", bad, b, ok)
		}
	}
	var out bytes.Buffer
	views := []SessionView{viewFrom("a", "b", 0.5, 1, 1, 3), {}}
	if err := WriteJSONArray(&out, views); err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(views[0])
	b, _ := json.Marshal(views[1])
	if want := "[\n" + string(a) + ",\n" + string(b) + "\n]\n"; out.String() != want {
		t.Errorf("array:\n%s\nwant\n%s", out.String(), want)
	}
}

// FuzzViewJSON: for any strings and numbers, AppendJSON writes what
// json.Marshal writes, or declines what it refuses.
func FuzzViewJSON(f *testing.F) {
	f.Add("a<b>&c", "\x00\xff\u2028", 0.25, 3.5, 7, uint8(5))
	f.Fuzz(func(t *testing.T, s1, s2 string, f1, f2 float64, n int, flags uint8) {
		v := viewFrom(s1, s2, f1, f2, n, flags)
		want, err := json.Marshal(v)
		got, ok := v.AppendJSON(nil)
		if ok != (err == nil) || ok && !bytes.Equal(got, want) {
			t.Fatalf("got  %s (%v)\nwant %s (%v)", got, ok, want, err)
		}
	})
}
