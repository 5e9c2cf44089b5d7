package remote

import "strings"

// Quote returns s as one word for a POSIX shell: in single quotes, inside
// which nothing is special, each single quote of s ending the quoted
// text, standing escaped, and opening it again:
//
//	it's  →  'it'\''s'
//
// Every word is quoted, plain ones too: the rule is easy to check, and
// the cost is two bytes.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// RemoteCommand is the one string ssh gives the remote user's shell for
// argv: each word quoted. (ssh itself joins its remaining arguments with
// spaces, unquoted, so that a word holding a space or a $ would be split
// or expanded there.)
func RemoteCommand(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = Quote(a)
	}
	return strings.Join(q, " ")
}

// findScript is what the remote shell runs to start superclaude: the
// superclaude on that user's PATH for commands run over ssh, else one in
// the places `make install`, `go install` and Homebrew put it, which a
// non-interactive ssh session's PATH often lacks. It is a constant: no
// data is ever part of it (requests travel on standard input), and it
// holds no single quote or backslash, so Quote gives it unchanged to any
// shell that knows single quotes (sh, bash, zsh, fish, csh).
const findScript = `PATH="$PATH:$HOME/.local/bin:$HOME/go/bin:/usr/local/bin:/opt/homebrew/bin"; export PATH; exec superclaude "$@"`

// serveArgv is the remote command of every request: sh running
// findScript, which starts `superclaude +remote`.
var serveArgv = []string{"sh", "-c", findScript, "superclaude", ServeCommand}

// ServeCommand is superclaude's (hidden) command that answers a request
// on its standard input: see [Serve].
const ServeCommand = "+remote"

// ShellLine renders argv as a line for a person to paste into a shell:
// plain words as they are, a word holding single quotes (and nothing a
// double-quoted word expands) in double quotes, any other in single quotes
// (Quote). A word starting with '=' or holding '~' is not plain: zsh, the
// default shell of macOS, replaces "=name" with the path of the command
// name, and fails when there is none.
func ShellLine(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		switch {
		case plainWord(a):
			out[i] = a
		case strings.Contains(a, "'") && !strings.ContainsAny(a, "\"$`\\!"):
			out[i] = `"` + a + `"`
		default:
			out[i] = Quote(a)
		}
	}
	return strings.Join(out, " ")
}

func plainWord(a string) bool {
	if a == "" || a[0] == '=' {
		return false
	}
	for _, r := range a {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-=:,@%+", r)) {
			return false
		}
	}
	return true
}

// AttachLine is the line a person types to attach to a tmux session on
// host: ssh -t HOST, then the tmux command as that host's shell reads it.
func AttachLine(host string, tmuxArgv []string) string {
	return ShellLine([]string{"ssh", "-t", host, ShellLine(tmuxArgv)})
}
