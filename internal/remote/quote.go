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
