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
// key, resuming after askTimeout. It returns nil when in or out is not a
// terminal: nobody to ask.
func terminalAsk(in, out *os.File) func(supervise.Offer) supervise.Choice {
	if !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return nil
	}
	return func(o supervise.Offer) supervise.Choice {
		writeOffer(out, o, time.Now())
		choice := readChoice(in, askTimeout)
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

// readChoice reads one key from the terminal in raw mode: r or Enter
// resume, n new, a, q or Ctrl-C abort; nothing within timeout resumes. It
// waits with poll(2) and reads only a key that is there, so that no read
// is left pending to swallow the first key meant for claude.
func readChoice(in *os.File, timeout time.Duration) supervise.Choice {
	fd := int(in.Fd())
	if old, err := term.MakeRaw(fd); err == nil {
		defer term.Restore(fd, old)
	}
	deadline := time.Now().Add(timeout)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return supervise.ChooseResume
		}
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, int(left.Milliseconds())+1)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n == 0 {
			return supervise.ChooseResume
		}
		var b [1]byte
		if k, err := in.Read(b[:]); err != nil || k == 0 {
			return supervise.ChooseResume
		}
		if c, ok := keyChoice(b[0]); ok {
			return c
		}
	}
}

// keyChoice maps a key to a choice.
func keyChoice(k byte) (supervise.Choice, bool) {
	switch k {
	case 'r', 'R', '\r', '\n':
		return supervise.ChooseResume, true
	case 'n', 'N':
		return supervise.ChooseNew, true
	case 'a', 'A', 'q', 'Q', 3:
		return supervise.ChooseAbort, true
	}
	return 0, false
}
