package claude

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/state"
)

// LineInfo is what the status line shows.
type LineInfo struct {
	Session   string
	Skill     string
	Phase     string
	Lifecycle string
	// Overflowed and KillRequested are shown as a warning.
	Overflowed    bool
	KillRequested bool
	Model         string
	CostUSD       float64
	// Usage is the context used, 0.0–1.0; HasUsage is false before the
	// first reply.
	Usage    float64
	HasUsage bool
	// Threshold is the overflow threshold, for the colour.
	Threshold float64
	// Problem, when set, replaces the session part ("no session",
	// "bad status-line input").
	Problem string
	// Target is the file the session points at.
	Target string
	// Limit names a usage or rate limit that stopped the agent, and
	// LimitedUntil when it resets.
	Limit        string
	LimitedUntil time.Time
	// LimitContinue says who goes on after the reset (Policy's values;
	// empty: superclaude).
	LimitContinue string
	// Restarted says the agent is the fresh one of an overflow restart,
	// not yet past its own threshold: overflow advice would be stale.
	Restarted bool
	// Notice is what superclaude has to tell the person since the agent
	// started, which a line it printed before would not show: claude
	// clears the screen as it starts. It goes on a line of its own.
	Notice string
}

// ANSI colours.
const (
	green  = "\x1b[32m"
	yellow = "\x1b[33m"
	red    = "\x1b[31m"
	dim    = "\x1b[2m"
	reset  = "\x1b[0m"
)

// Render returns the one status line: session · skill/phase · model · $cost
// · context %, the context coloured green, yellow from 80 % of the
// threshold, red at it. color=false (NO_COLOR) leaves the escapes out.
//
// Every value is passed through termtext.Clean first: they come from
// claude's JSON and the state file, and none may carry an escape sequence
// to the terminal.
func Render(in LineInfo, color bool) string {
	for _, f := range []*string{&in.Session, &in.Skill, &in.Phase, &in.Lifecycle, &in.Model, &in.Problem, &in.Target} {
		*f = termtext.Clean(*f)
	}
	paint := func(c, s string) string {
		if !color || s == "" {
			return s
		}
		return c + s + reset
	}
	var parts []string
	switch {
	case in.Problem != "":
		parts = append(parts, paint(dim, in.Problem))
	case in.Session != "":
		parts = append(parts, in.Session)
	}
	if in.Session != "" {
		work := in.Skill
		if in.Phase != "" {
			if work != "" {
				work += "/"
			}
			work += in.Phase
		}
		if work != "" {
			parts = append(parts, work)
		}
	}
	if in.Model != "" {
		parts = append(parts, in.Model)
	}
	parts = append(parts, fmt.Sprintf("$%.2f", in.CostUSD))
	ctx := "ctx –"
	if in.HasUsage {
		pct := int(math.Round(in.Usage * 100))
		ctx = fmt.Sprintf("ctx %d%%", pct)
		th := in.Threshold
		if th <= 0 {
			th = DefaultThreshold
		}
		switch {
		case in.Usage >= th:
			ctx = paint(red, ctx)
		case in.Usage >= th*0.8:
			ctx = paint(yellow, ctx)
		default:
			ctx = paint(green, ctx)
		}
	}
	parts = append(parts, ctx)
	switch {
	case in.Limit != "":
		at := in.LimitedUntil.Local().Format("15:04")
		switch in.LimitContinue {
		case state.LimitByNobody:
			parts = append(parts, paint(yellow, fmt.Sprintf("%s · resets at %s · type to go on", in.Limit, at)))
		case state.LimitByClaude:
			parts = append(parts, paint(yellow, fmt.Sprintf("%s · claude continues after %s", in.Limit, at)))
		default:
			parts = append(parts, paint(yellow, fmt.Sprintf("%s · continues at %s", in.Limit, at)))
		}
	case in.KillRequested:
		parts = append(parts, paint(red, "restarting"))
	case in.Lifecycle == "dehydrating":
		parts = append(parts, paint(yellow, "saving context"))
	case in.Restarted:
		parts = append(parts, paint(dim, "fresh context after a restart"))
	case in.Overflowed:
		parts = append(parts, paint(red, "OVERFLOW: "+SessionCommand+" dehydrate restart"))
	}
	if in.Target != "" {
		parts = append(parts, filepath.Base(in.Target))
	}
	line := strings.Join(parts, " · ")
	if in.Notice != "" {
		line += "\n" + paint(yellow, termtext.Clean(in.Notice))
	}
	return line
}
