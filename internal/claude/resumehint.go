package claude

import (
	"bytes"
	"regexp"
	"sync"
)

// Claude Code's last words on every catchable exit are a resume hint
// (measured with 2.1.x, dimmed with SGR 2/22):
//
//	\e[2mResume this session with:\e[22m\r\n
//	\e[2mclaude --resume 34e61cdb-8d43-46c0-aa6c-941761badb8f\e[22m\r\n
//
// Some versions spell out their flags in it too, which under superclaude
// are the settings file and plugin directory it injected and deleted on
// the way out: `claude --settings /tmp/… --plugin-dir /tmp/… --resume <id>`.
// Either command, run by hand, starts claude without the supervisor (and
// the second fails). [RewriteResumeHint] turns the command into
// `superclaude --resume <id>`, in place, on its way to the terminal.

// resumeAnchor is the hint's first line; nothing is rewritten that does not
// follow it.
const resumeAnchor = "Resume this session with:"

// minHeldAnchor is the shortest tail of a chunk, a beginning of
// resumeAnchor, that is held back for the next chunk: a hint split by a
// read is still found, while ordinary output that happens to end in "R" or
// "Res" is never delayed.
const minHeldAnchor = 8

// maxHintTail is how far past the anchor the command may end: an anchor
// with no command within that many bytes is the model's prose, not the
// hint, and passes as it is.
const maxHintTail = 1024

// resumeHintRE matches from the anchor to the end of the command's
// conversation id: SGR sequences and one line break between, then
// `claude`, any flags on the same line, `--resume <uuid>`.
var resumeHintRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^Resume this session with:(?:\x1b\[[0-9;]*m)*\r?\n(?:\x1b\[[0-9;]*m)*(claude(?: [^\r\n\x1b]*?)? --resume ([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}))`)
})

// RewriteResumeHint is a child.Spec Rewrite for Claude Code: of the
// agent's output p it returns what to write now, with every resume hint's
// command replaced by `superclaude --resume <id>`, and how many bytes at
// p's end to keep back until more output comes: an anchor whose command
// has not arrived yet, or the beginning of an anchor. The caller puts kept
// bytes before the next output, and writes them as they are when none
// comes. Output without a hint comes back as it is, not copied.
func RewriteResumeHint(p []byte) (write []byte, keep int) { return rewriteResumeHint(p, "superclaude") }

// RewriteResumeHintAs is RewriteResumeHint naming the command as command:
// the way the person started superclaude (`./bin/superclaude`, or `claude`
// when superclaude is installed under that name), so that the hint runs in
// the shell it was printed in.
func RewriteResumeHintAs(command string) func(p []byte) ([]byte, int) {
	return func(p []byte) ([]byte, int) { return rewriteResumeHint(p, command) }
}

func rewriteResumeHint(p []byte, command string) (write []byte, keep int) {
	var out []byte // nil until something is rewritten
	done := 0      // p[:done] is in out
	from := 0      // where the next search starts
	for {
		i := bytes.Index(p[from:], []byte(resumeAnchor))
		if i < 0 {
			break
		}
		at := from + i
		m := resumeHintRE().FindSubmatchIndex(p[at:])
		if m == nil {
			if tail := p[at:]; len(tail) < maxHintTail && bytes.Count(tail, []byte("\n")) <= 1 {
				// The command may be on its way.
				if out == nil {
					return p[:at], len(tail)
				}
				return append(out, p[done:at]...), len(tail)
			}
			from = at + len(resumeAnchor)
			continue
		}
		out = append(out, p[done:at+m[2]]...)
		out = append(out, command...)
		out = append(out, " --resume "...)
		out = append(out, p[at+m[4]:at+m[5]]...)
		done, from = at+m[3], at+m[3]
	}
	keep = heldAnchorPrefix(p[done:])
	if out == nil {
		return p[:len(p)-keep], keep
	}
	return append(out, p[done:len(p)-keep]...), keep
}

// hintLeadIn is what Claude Code writes just before the anchor: the dim
// attribute. A tail that is the lead-in and a shorter beginning of the
// anchor than minHeldAnchor is held too: an attribute alone draws
// nothing, so holding it delays nothing a person sees, and a read that
// splits the anchor's first bytes off no longer lets the hint through.
const hintLeadIn = "\x1b[2m"

// heldAnchorPrefix is the length of p's longest tail that begins
// resumeAnchor without completing it, when at least minHeldAnchor long,
// or that is hintLeadIn and a shorter beginning of it.
func heldAnchorPrefix(p []byte) int {
	n := len(resumeAnchor) - 1
	if n > len(p) {
		n = len(p)
	}
	for ; n >= minHeldAnchor; n-- {
		if bytes.HasSuffix(p, []byte(resumeAnchor[:n])) {
			return n
		}
	}
	tail := p[max(0, len(p)-len(hintLeadIn)-(minHeldAnchor-1)):]
	if i := bytes.LastIndex(tail, []byte(hintLeadIn)); i >= 0 && bytes.HasPrefix(anchorBytes, tail[i+len(hintLeadIn):]) {
		return len(tail) - i
	}
	return 0
}

var anchorBytes = []byte(resumeAnchor)
