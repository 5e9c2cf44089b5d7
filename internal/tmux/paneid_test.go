package tmux

import "testing"

func TestFormatPaneID(t *testing.T) {
	for line, want := range map[string]string{
		"yarik-fleet\tcompany\tSDK\t%3": "yarik-fleet:company:SDK",
		"main\tzsh\t\t%12":              "%12",
		"s\tw w\tlabel with space\t%1":  "s:w w:label with space",
	} {
		got, err := FormatPaneID(line)
		if err != nil || got != want {
			t.Errorf("FormatPaneID(%q) = %q, %v; want %q", line, got, err, want)
		}
	}
	if _, err := FormatPaneID("only\ttwo"); err == nil {
		t.Error("malformed line accepted")
	}
}
