package fakeserver

import (
	"testing"
	"time"
)

func TestWaitAfterSeesOnlyLaterRequests(t *testing.T) {
	var r Record[string]
	r.Add("old", nil)
	mark := r.Mark()
	go func() { time.Sleep(20 * time.Millisecond); r.Add("new", nil) }()
	got, ok := r.WaitAfter(mark, 5*time.Second, nil)
	if !ok || got != "new" {
		t.Fatalf("WaitAfter = %q, %v; want new", got, ok)
	}
	if _, ok := r.WaitAfter(0, 50*time.Millisecond, func(s string) bool { return s == "never" }); ok {
		t.Fatal("WaitAfter found a request nobody made")
	}
	var n int
	r.Add("third", func(i int) { n = i })
	if n != 3 || len(r.All()) != 3 {
		t.Fatalf("numbered %d of %d", n, len(r.All()))
	}
}

func TestLineReadsTheLastRunLine(t *testing.T) {
	for text, want := range map[string]string{
		"run: ls":                  "ls",
		"hello\nrun: a\n  run: b ": "b",
		"run: ":                    "",
		"say run: x":               "",
	} {
		if got, _ := Line(text, "run: "); got != want {
			t.Errorf("Line(%q) = %q, want %q", text, got, want)
		}
	}
}
