package launch

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"golang.org/x/sys/unix"
	"golang.org/x/term"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/cli"
	"github.com/superclaude/superclaude/internal/termtext"
	"github.com/superclaude/superclaude/supervise"
)

// askTimeout is how long the resume question waits before it resumes.
const askTimeout = 15 * time.Second

// terminalAsk returns the resume question (Resume / New / Abort),
// put on the terminal before claude owns it: the conversation's session,
// skill, phase, age, cost and last prompt, and Resume / New / Abort, one
// key, resuming after askTimeout. What is typed that is no answer is
// given to hold (the terminal's held typeahead: child.Terminal.Hold), for
// the agent that then starts. It returns nil when in or out is not a
// terminal: nobody to ask.
func terminalAsk(in, out *os.File, hold func([]byte)) func(supervise.Offer) supervise.Choice {
	if !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return nil
	}
	return func(o supervise.Offer) supervise.Choice {
		writeOffer(out, o, time.Now())
		told := false
		choice := readChoice(in, askTimeout, func(p []byte) {
			hold(p)
			if !told {
				told = true
				fmt.Fprint(out, "\r\n(what you type is kept for the agent; answer with r, n or a) ")
			}
		})
		fmt.Fprintf(out, "%s\r\n", [...]string{"resume", "new conversation", "abort"}[choice])
		return choice
	}
}

// writeOffer prints the question.
func writeOffer(w io.Writer, o supervise.Offer, now time.Time) {
	lastPrompt := "–"
	if o.Transcript != "" {
		if h, err := claude.ReadTranscript(o.Transcript); err == nil && len(h.Prompts) > 0 {
			lastPrompt = h.Prompts[len(h.Prompts)-1]
			if len(lastPrompt) > 100 {
				lastPrompt = lastPrompt[:100] + "…"
			}
		}
	}
	work := o.Skill
	if o.Phase != "" {
		work = strings.TrimPrefix(work+", "+o.Phase, ", ")
	}
	clean := termtext.Clean
	fmt.Fprintf(w, "superclaude: this pane's last conversation can be resumed\n"+
		"  session      %s\n  work         %s\n  ended        %s\n  cost         $%.2f\n  last prompt  %q\n"+
		"[R]esume  [N]ew conversation  [A]bort   (resumes in %d s) ",
		clean(o.Session), clean(orDash(work)), ago(o.Ended, now), o.CostUSD, clean(lastPrompt), int(askTimeout.Seconds()))
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}

func ago(t, now time.Time) string {
	if t.IsZero() {
		return "–"
	}
	return cli.Age(t.UTC().Format(time.RFC3339), now)
}

// keyQuiet is how long nothing more may be typed after a key for it to
// be an answer to the question: a person answering presses one key and
// waits; one typing a prompt has typed the next letter by then.
const keyQuiet = 400 * time.Millisecond

// readChoice reads the answer from the terminal in raw mode. Only the
// question's keys answer it, each typed on its own — with nothing typed
// before it on the line and nothing right after it (keyQuiet): r or Enter
// resume, n new, a, q, Esc or Ctrl-C abort (Ctrl-C at once). Anything else
// typed is a prompt the person began for the agent, not an answer (issue
// 19: "run: …" typed at the question chose Resume, and "un: …" went to
// claude as the prompt): it goes to hold, key and all, and the question
// still waits. Nothing within timeout resumes. It waits with poll(2) and
// reads only what is there, so that no read is left pending to swallow
// the first key meant for claude.
func readChoice(in *os.File, timeout time.Duration, hold func([]byte)) supervise.Choice {
	fd := int(in.Fd())
	defer rawMode(in)()
	deadline := time.Now().Add(timeout)
	midLine := false // text typed since the last Enter was held
	var buf [256]byte
	for {
		if !waitInput(fd, time.Until(deadline)) {
			return supervise.ChooseResume
		}
		n, err := in.Read(buf[:])
		if err != nil || n == 0 {
			return supervise.ChooseResume
		}
		p := buf[:n]
		if n == 1 && p[0] == 3 {
			return supervise.ChooseAbort // Ctrl-C: at once
		}
		if c, ok := keyChoice(p[0]); ok && n == 1 && !midLine && !waitInput(fd, keyQuiet) {
			return c
		}
		// A letter key on a line of its own that came in one read with
		// the Enter before it (a loaded machine reads late): still the
		// answer, the line before it held. Not a line end: CR LF is one
		// Enter.
		if last := p[n-1]; n > 1 && (p[n-2] == '\r' || p[n-2] == '\n') && last != '\r' && last != '\n' {
			if c, ok := keyChoice(last); ok && !waitInput(fd, keyQuiet) {
				hold(append([]byte(nil), p[:n-1]...))
				return c
			}
		}
		hold(append([]byte(nil), p...))
		for _, b := range p {
			midLine = b != '\r' && b != '\n'
		}
	}
}

// waitInput waits up to d for input on fd, and reports whether there is
// some.
func waitInput(fd int, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(left.Milliseconds())+1)
		if err == unix.EINTR {
			continue
		}
		return err == nil && n > 0
	}
}

// keyChoice maps a key to a choice.
func keyChoice(k byte) (supervise.Choice, bool) {
	switch k {
	case 'r', 'R', '\r', '\n':
		return supervise.ChooseResume, true
	case 'n', 'N':
		return supervise.ChooseNew, true
	case 'a', 'A', 'q', 'Q', 3, 0x1b:
		return supervise.ChooseAbort, true
	}
	return 0, false
}
