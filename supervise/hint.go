package supervise

import (
	"bytes"
	"regexp"

	"github.com/superclaude/superclaude/child"
)

// uuidLen is the length of a conversation id in its usual form.
const uuidLen = 36

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}`)

// isUUID reports whether s is a conversation id in the usual form.
func isUUID(s string) bool { return len(s) == uuidLen && uuidRE.MatchString(s) }

// rewriteHint returns an Output rewrite that turns an exit hint's command
// — old followed by a space and a conversation id, such as `codex resume
// <id>`, which would run the agent without superclaude — into repl
// followed by the same id. Spaces right after the id are taken out to
// make room for a longer command, so that a hint drawn in a box (Gemini
// CLI's) keeps its right border where it was. Output that ends in what may
// be the beginning of such a command is held back until more comes
// (child.Spec.Rewrite bounds that wait).
func rewriteHint(old, repl string) child.RewriteFunc {
	from := []byte(old + " ")
	to := []byte(repl + " ")
	grow := len(to) - len(from)
	return func(p []byte) ([]byte, int) {
		var out []byte // nil until something is rewritten
		done := 0      // p[:done] is in out
		for at := 0; ; {
			i := bytes.Index(p[at:], from)
			if i < 0 {
				break
			}
			i += at
			id := p[i+len(from):]
			if len(id) < uuidLen {
				// The id may be on its way: keep from the command on.
				return flush(out, p, done, i), len(p) - i
			}
			if !uuidRE.Match(id[:uuidLen]) {
				at = i + len(from)
				continue
			}
			end := i + len(from) + uuidLen
			spaces := 0
			for spaces < grow && end+spaces < len(p) && p[end+spaces] == ' ' {
				spaces++
			}
			if spaces < grow && end+spaces == len(p) {
				// The padding may be on its way.
				return flush(out, p, done, i), len(p) - i
			}
			out = append(out, p[done:i]...)
			out = append(out, to...)
			out = append(out, id[:uuidLen]...)
			if spaces < grow {
				// Not padded enough to make room: leave the rest as it is.
				spaces = 0
			}
			done, at = end+spaces, end+spaces
		}
		keep := heldPrefix(p[done:], from)
		return flush(out, p, done, len(p)-keep), keep
	}
}

// flush returns out (nil: nothing rewritten yet) with p[done:upto] added.
func flush(out, p []byte, done, upto int) []byte {
	if out == nil {
		return p[:upto]
	}
	return append(out, p[done:upto]...)
}

// heldPrefix is the length of p's longest tail that begins pattern without
// completing it.
func heldPrefix(p, pattern []byte) int {
	for n := min(len(pattern)-1, len(p)); n > 0; n-- {
		if bytes.HasSuffix(p, pattern[:n]) {
			return n
		}
	}
	return 0
}
