package termshot

import (
	"strings"
	"testing"
)

func TestParseFollowsSGR(t *testing.T) {
	lines := Parse("plain \x1b[1;32mbold green\x1b[0m \x1b[38;5;196mred\x1b[39m\n" +
		"\x1b[7mrev\x1b[27m \x1b[38;2;1;2;3mrgb\x1b[m ❯ x\n")
	if lines[0][1].Text != "bold green" || !lines[0][1].Style.Bold || lines[0][1].Style.FG != "#23d18b" {
		t.Errorf("span 1: %+v", lines[0][1])
	}
	if lines[0][3].Col != 17 || lines[0][3].Style.FG != "#ff0000" {
		t.Errorf("the 256-colour span: %+v", lines[0][3])
	}
	if !lines[1][0].Style.Reverse || lines[1][2].Style.FG != "#010203" || lines[1][2].Col != 4 {
		t.Errorf("line 2: %+v", lines[1])
	}
}

func TestSVGDrawsEveryScreenInItsWindow(t *testing.T) {
	var b strings.Builder
	err := SVG(&b, []Screen{
		{Title: "dashboard", Cols: 40, Lines: Parse("\x1b[1mtitle\x1b[0m\n\x1b[7m> row <&>\x1b[0m")},
		{Title: "claude", Cols: 30, Lines: Parse("ctx \x1b[32m45%\x1b[0m")},
	})
	if err != nil {
		t.Fatal(err)
	}
	svg := b.String()
	for _, want := range []string{`<svg xmlns="http://www.w3.org/2000/svg"`, `>dashboard</text>`, `>claude</text>`,
		`font-weight="bold">title</text>`, `&gt; row &lt;&amp;&gt;`, `fill="#23d18b"`, `</svg>`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG lacks %q:\n%s", want, svg)
		}
	}
}
