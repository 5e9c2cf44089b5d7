// Package termshot renders what a terminal shows — its text and the SGR
// escape sequences that colour it, as `tmux capture-pane -e -p` writes
// them — as an SVG picture. The README's picture of the dashboard and the
// status line is made by an e2e test from the screens of a real run
// (e2e/picture_test.go), not drawn by hand; this is the drawing.
//
// Only SGR (ESC [ … m) is understood: colours (the 16 standard ones, the
// 256 of xterm, 24-bit), bold, faint, italic, underline, reverse video
// and their resets. capture-pane writes nothing else; any other sequence
// is dropped. Each character is one cell wide, except those East Asian
// width says take two (ansi.StringWidth).
package termshot

import (
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Style is how a span of text is drawn.
type Style struct {
	// FG and BG are colours as #rrggbb, "" for the terminal's own.
	FG, BG                                  string
	Bold, Faint, Italic, Underline, Reverse bool
}

// Span is text of one style starting at a column.
type Span struct {
	Col   int
	Text  string
	Style Style
}

// Screen is a terminal's picture: a title for its window, and its lines.
type Screen struct {
	Title string
	Lines [][]Span
	// Cols is the screen's width in cells.
	Cols int
}

// Parse reads a capture (text with SGR sequences, lines ended by \n) into
// lines of spans, the style carried from line to line as a terminal does.
func Parse(capture string) [][]Span {
	var out [][]Span
	var st Style
	for _, line := range strings.Split(strings.TrimRight(capture, "\n"), "\n") {
		var spans []Span
		col := 0
		var text strings.Builder
		start := 0
		flush := func() {
			if text.Len() > 0 {
				spans = append(spans, Span{Col: start, Text: text.String(), Style: st})
				text.Reset()
			}
			start = col
		}
		for i := 0; i < len(line); {
			if line[i] == 0x1b && i+1 < len(line) && line[i+1] == '[' {
				j := i + 2
				for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
					j++
				}
				if j < len(line) && line[j] == 'm' {
					flush()
					st = apply(st, line[i+2:j])
				}
				i = j + 1
				continue
			}
			if line[i] == 0x1b { // another escape: ESC and the next byte
				i += 2
				continue
			}
			r := line[i:]
			n := len(firstRune(r))
			ch := r[:n]
			text.WriteString(ch)
			col += max(1, ansi.StringWidth(ch))
			i += n
		}
		flush()
		out = append(out, spans)
	}
	return out
}

func firstRune(s string) string {
	for i := range s {
		if i > 0 {
			return s[:i]
		}
	}
	return s
}

// apply applies one SGR's parameters to st.
func apply(st Style, params string) Style {
	if params == "" {
		return Style{}
	}
	ps := strings.FieldsFunc(params, func(r rune) bool { return r == ';' || r == ':' })
	for i := 0; i < len(ps); i++ {
		n, err := strconv.Atoi(ps[i])
		if err != nil {
			continue
		}
		switch {
		case n == 0:
			st = Style{}
		case n == 1:
			st.Bold = true
		case n == 2:
			st.Faint = true
		case n == 3:
			st.Italic = true
		case n == 4:
			st.Underline = true
		case n == 7:
			st.Reverse = true
		case n == 22:
			st.Bold, st.Faint = false, false
		case n == 23:
			st.Italic = false
		case n == 24:
			st.Underline = false
		case n == 27:
			st.Reverse = false
		case n >= 30 && n <= 37:
			st.FG = palette[n-30]
		case n == 39:
			st.FG = ""
		case n >= 40 && n <= 47:
			st.BG = palette[n-40]
		case n == 49:
			st.BG = ""
		case n >= 90 && n <= 97:
			st.FG = palette[n-90+8]
		case n >= 100 && n <= 107:
			st.BG = palette[n-100+8]
		case n == 38 || n == 48:
			c, used := extended(ps[i+1:])
			i += used
			if n == 38 {
				st.FG = c
			} else {
				st.BG = c
			}
		}
	}
	return st
}

// extended reads a 256-colour (5;n) or 24-bit (2;r;g;b) colour, and how
// many parameters it used.
func extended(ps []string) (string, int) {
	if len(ps) >= 2 && ps[0] == "5" {
		n, _ := strconv.Atoi(ps[1])
		return color256(n), 2
	}
	if len(ps) >= 4 && ps[0] == "2" {
		r, _ := strconv.Atoi(ps[1])
		g, _ := strconv.Atoi(ps[2])
		b, _ := strconv.Atoi(ps[3])
		return fmt.Sprintf("#%02x%02x%02x", r&255, g&255, b&255), 4
	}
	return "", len(ps)
}

// palette is the 16 standard colours, as a dark terminal theme shows them.
var palette = [16]string{
	"#1e1e1e", "#f14c4c", "#23d18b", "#e5e510", "#3b8eea", "#bc3fbc", "#29b8db", "#cccccc",
	"#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#e5e5e5",
}

// color256 is xterm's colour n.
func color256(n int) string {
	switch {
	case n < 16:
		return palette[n&15]
	case n < 232:
		n -= 16
		level := func(v int) int {
			if v == 0 {
				return 0
			}
			return 55 + v*40
		}
		return fmt.Sprintf("#%02x%02x%02x", level(n/36), level(n/6%6), level(n%6))
	case n < 256:
		v := 8 + (n-232)*10
		return fmt.Sprintf("#%02x%02x%02x", v, v, v)
	}
	return ""
}

// The picture's geometry, in pixels.
const (
	cellW    = 7.8
	lineH    = 17.0
	fontSize = 13
	pad      = 12.0
	titleH   = 26.0
	gap      = 14.0
	fg       = "#d4d4d4"
	bg       = "#1e1e1e"
)

// SVG writes screens, one above the other, each in a window with its
// title, as an SVG picture.
func SVG(w io.Writer, screens []Screen) error {
	width := 0.0
	height := 0.0
	for i, s := range screens {
		width = max(width, float64(s.Cols)*cellW+2*pad)
		if i > 0 {
			height += gap
		}
		height += titleH + float64(len(s.Lines))*lineH + 2*pad
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f">`+"\n", width, height, width, height)
	b.WriteString("<!-- rendered by testkit/termshot from tmux capture-pane -e of a real run (e2e/picture_test.go) -->\n")
	fmt.Fprintf(&b, `<style>text{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono","Liberation Mono",monospace;font-size:%dpx;white-space:pre}</style>`+"\n", fontSize)
	y := 0.0
	for _, s := range screens {
		h := titleH + float64(len(s.Lines))*lineH + 2*pad
		fmt.Fprintf(&b, `<rect x="0" y="%.1f" width="%.0f" height="%.1f" rx="8" fill="%s"/>`+"\n", y, width, h, bg)
		fmt.Fprintf(&b, `<rect x="0" y="%.1f" width="%.0f" height="%.1f" rx="8" fill="#333333"/>`+"\n", y, width, titleH)
		fmt.Fprintf(&b, `<rect x="0" y="%.1f" width="%.0f" height="8" fill="#333333"/>`+"\n", y+titleH-8, width)
		for i, c := range []string{"#ff5f57", "#febc2e", "#28c840"} {
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="5.5" fill="%s"/>`+"\n", 16+float64(i)*18, y+titleH/2, c)
		}
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" fill="#aaaaaa" text-anchor="middle">%s</text>`+"\n", width/2, y+titleH/2+4, html.EscapeString(s.Title))
		top := y + titleH + pad
		for li, line := range s.Lines {
			base := top + float64(li)*lineH
			for _, sp := range line {
				writeSpan(&b, sp, base)
			}
		}
		y += h + gap
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeSpan draws one span whose line's top is at top.
func writeSpan(b *strings.Builder, sp Span, top float64) {
	f, k := sp.Style.FG, sp.Style.BG
	if f == "" {
		f = fg
	}
	if sp.Style.Reverse {
		f, k = k, f
		if f == "" {
			f = bg
		}
	}
	x := pad + float64(sp.Col)*cellW
	cells := ansi.StringWidth(sp.Text)
	if k != "" {
		fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`+"\n", x, top, float64(cells)*cellW, lineH, k)
	}
	if strings.TrimSpace(sp.Text) == "" {
		return
	}
	attrs := ""
	if sp.Style.Bold {
		attrs += ` font-weight="bold"`
	}
	if sp.Style.Faint {
		attrs += ` opacity="0.6"`
	}
	if sp.Style.Italic {
		attrs += ` font-style="italic"`
	}
	if sp.Style.Underline {
		attrs += ` text-decoration="underline"`
	}
	fmt.Fprintf(b, `<text xml:space="preserve" x="%.1f" y="%.1f" fill="%s" textLength="%.1f" lengthAdjust="spacingAndGlyphs"%s>%s</text>`+"\n",
		x, top+lineH-4.5, f, float64(cells)*cellW, attrs, html.EscapeString(sp.Text))
}
