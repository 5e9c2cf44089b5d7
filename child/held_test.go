package child

import (
	"bufio"
	"os"
	"strings"
	"testing"
	"time"
)

// eventually polls cond for up to 10 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// typedBetweenAgents runs an agent on a raw terminal of the person's to
// its end, then types a line ending in Enter while no agent runs, and
// waits until the terminal holds it. It returns the terminal, the
// person's side of it, and a reader of what it shows.
func typedBetweenAgents(t *testing.T, line string) (*Terminal, *os.File, *bufio.Reader) {
	t.Helper()
	tt, master, r := afterAnAgent(t)
	master.Write([]byte(line))
	eventually(t, "the keys to be held", func() bool { return len(tt.Held().Submitted) == 1 })
	return tt, master, r
}

// afterAnAgent runs an agent on a raw terminal of the person's to its
// end. It returns the terminal, the person's side of it, and a reader of
// what it shows.
func afterAnAgent(t *testing.T) (*Terminal, *os.File, *bufio.Reader) {
	t.Helper()
	tt, master := userTerminal(t)
	if err := tt.MakeRaw(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(master)
	first := startEcho(t, tt, r)
	master.Write([]byte("quit\r"))
	first.Wait()
	return tt, master, r
}

// Keys typed between one agent's end and the next one's start were
// dropped (the pump had no agent to give them to). They are held, and the
// next agent gets them once it reads keys, as the person typed them —
// with what was typed while it started held behind, in order — and
// nothing before: a program still cooked would have echoed them over its
// screen.
func TestKeysTypedBetweenAgentsReachTheNextOne(t *testing.T) {
	tt, master, r := typedBetweenAgents(t, "fix the tests\r")

	second, err := Start(spec("rawecho"), tt)
	if err != nil {
		t.Fatal(err)
	}
	if !second.HasTypeahead() {
		t.Fatal("the next agent has nothing waiting for it")
	}
	if second.ReadsKeys() {
		t.Fatal("an agent that has not gone raw yet reads keys")
	}
	// Typed while it starts: held behind the rest.
	master.Write([]byte("and more"))
	readUntil(t, r, "READY")
	eventually(t, "the agent to read keys", second.ReadsKeys)
	eventually(t, "the late keys to be held", func() bool { return tt.Held().Tail == "and more" })
	ta, err := second.GiveTypeahead()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(ta.Submitted, "|") != "fix the tests" || ta.Tail != "and more" || len(ta.Dropped) != 0 {
		t.Fatalf("gave %#v", ta)
	}
	out := readUntil(t, r, `and more"`)
	got := ""
	for _, line := range strings.Split(out, "\r\n") {
		if q, ok := strings.CutPrefix(line, "got:"); ok {
			got += q
		}
	}
	if got != `"fix the tests""\r""and more"` && got != `"fix the tests""\rand more"` {
		t.Fatalf("the agent got the held keys as %s, not in order (the text, then Enter, then the rest)", got)
	}
	if second.HasTypeahead() || len(tt.Held().Submitted) > 0 {
		t.Fatal("still held after it was given")
	}
	// From now on keys go straight through.
	master.Write([]byte("quit"))
	if e := second.Wait(); e.Code != 0 {
		t.Fatalf("exit %+v", e)
	}
}

// Keys typed as a restarted agent started, after it had the terminal but
// before it was ready for them, went straight to it, and claude dropped
// them: text typed during a restart was lost. An agent started with
// HoldKeys has them held, though nothing was held before it, until it is
// given them.
func TestKeysTypedAsARestartedAgentStartsWaitUntilItIsReady(t *testing.T) {
	tt, master, r := afterAnAgent(t)

	s := spec("lateready")
	s.HoldKeys = true
	second, err := Start(s, tt)
	if err != nil {
		t.Fatal(err)
	}
	readUntil(t, r, "RAW")
	master.Write([]byte("typed as it started\r"))
	eventually(t, "the keys to be held", func() bool { return len(tt.Held().Submitted) == 1 })
	if !second.HasTypeahead() {
		t.Fatal("the agent has nothing waiting for it")
	}
	readUntil(t, r, "READY")
	if _, err := second.GiveTypeahead(); err != nil {
		t.Fatal(err)
	}
	if out := readUntil(t, r, `got:"typed as it started`); strings.Contains(out, "dropped:") {
		t.Fatalf("the agent was given keys before it was ready:\n%s", out)
	}
	if second.HasTypeahead() {
		t.Fatal("still holding once it was given what was held")
	}
	master.Write([]byte("quit"))
	if e := second.Wait(); e.Code != 0 {
		t.Fatalf("exit %+v", e)
	}
}

// While the next agent shows something of its own to answer, the person
// answers it: keys pass, and what was held still waits.
func TestPassKeysLetsNewKeysThroughAndKeepsTheHeldOnes(t *testing.T) {
	tt, master, r := typedBetweenAgents(t, "the next step\r")

	second, err := Start(spec("rawecho"), tt)
	if err != nil {
		t.Fatal(err)
	}
	readUntil(t, r, "READY")
	second.PassKeys()
	master.Write([]byte("2"))
	readUntil(t, r, `got:"2"`)
	if !second.HasTypeahead() || strings.Join(tt.Held().Submitted, "") != "the next step" {
		t.Fatalf("the held keys did not wait: %#v", tt.Held())
	}
	if _, err := second.GiveTypeahead(); err != nil {
		t.Fatal(err)
	}
	readUntil(t, r, `got:"the next step"`)
	master.Write([]byte("quit"))
	second.Wait()
}

// A pty's change of mode wakes nothing; the output a program draws as it
// goes raw does, for whoever waits on NextOutput (the supervisor, with
// keys held for the agent).
func TestNextOutputClosesAtTheAgentsOutput(t *testing.T) {
	tt, master, r := typedBetweenAgents(t, "later\r")
	second, err := Start(spec("rawecho"), tt)
	if err != nil {
		t.Fatal(err)
	}
	next := second.NextOutput()
	readUntil(t, r, "READY")
	select {
	case <-next:
	case <-time.After(10 * time.Second):
		t.Fatal("NextOutput was not closed by the agent's output")
	}
	if again := second.NextOutput(); again == next {
		t.Fatal("a closed channel was handed out again")
	}
	second.PassKeys() // the held line stays held: quit goes through
	master.Write([]byte("quit"))
	second.Wait()
}
