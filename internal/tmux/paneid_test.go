package tmux

import "testing"

func TestFormatPaneID(t *testing.T) {
	for line, want := range map[string]string{
		"yarik-fleet\tcompany\tSDK\t%3\t/tmp/tmux-0/default\t1763800000": "yarik-fleet:company:SDK",
		"main\tzsh\t\t%12\t/tmp/tmux-0/default\t1763800000":              "%12@/tmp/tmux-0/default@1763800000",
		"s\tw w\tlabel with space\t%1\t/s\t1":                            "s:w w:label with space",
	} {
		got, err := FormatPaneID(line)
		if err != nil || got != want {
			t.Errorf("FormatPaneID(%q) = %q, %v; want %q", line, got, err, want)
		}
	}
	for _, bad := range []string{"only\ttwo", "a\tb\t\tnot-a-pane\t/s\t1"} {
		if _, err := FormatPaneID(bad); err == nil {
			t.Errorf("malformed line %q accepted", bad)
		}
	}
}

// Regression: tmux numbers panes from %0 in every server, so the first pane
// of a new server (or of a second server) got the identity of an old
// one's, resumed what that pane had run, and two servers' %0 panes fought
// over one session.
func TestUnlabelledPanesOfTwoServersDiffer(t *testing.T) {
	a, _ := FormatPaneID("s\tw\t\t%0\t/tmp/tmux-0/default\t1763800000")
	restarted, _ := FormatPaneID("s\tw\t\t%0\t/tmp/tmux-0/default\t1763809999")
	other, _ := FormatPaneID("s\tw\t\t%0\t/tmp/tmux-0/work\t1763800000")
	if a == restarted || a == other || restarted == other {
		t.Fatalf("identities collide: %q %q %q", a, restarted, other)
	}
	if Labelled(a) || !Labelled("f:w:SDK") || Labelled("") {
		t.Fatal("Labelled is wrong")
	}
	if PaneNumber(a) != "%0" || PaneNumber("f:w:SDK") != "" {
		t.Fatalf("PaneNumber(%q) = %q", a, PaneNumber(a))
	}
}

func TestUnlabelled(t *testing.T) {
	pane, sock, start, ok := Unlabelled("%12@/tmp/tmux-0/default@1763800000")
	if !ok || pane != "%12" || sock != "/tmp/tmux-0/default" || start != "1763800000" {
		t.Fatalf("%q %q %q %v", pane, sock, start, ok)
	}
	for _, bad := range []string{"f:w:SDK", "%x@/s@1", "%1@relative@1", "%1@/s", ""} {
		if _, _, _, ok := Unlabelled(bad); ok {
			t.Errorf("%q read as an unlabelled pane", bad)
		}
	}
}
