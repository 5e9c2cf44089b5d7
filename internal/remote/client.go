package remote

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"

	"github.com/superclaude/superclaude/internal/termtext"
)

// Errors a [Client] call can end in, besides the op's own.
var (
	// ErrUnreachable: ssh could not reach the host, or log in (its own
	// message follows).
	ErrUnreachable = errors.New("unreachable")
	// ErrNotInstalled: the host has no superclaude where a command run
	// over ssh finds one.
	ErrNotInstalled = errors.New("superclaude is not installed there")
	// ErrVersion: the host runs another version of superclaude.
	ErrVersion = errors.New("superclaude there is another version")
)

// Client calls superclaude on one host: each call is one ssh command,
// over the host's shared connection, that runs `superclaude +remote` there
// and gives it the request on its standard input.
type Client struct {
	SSH *SSH
	// Host is the ssh destination.
	Host string
	// Version is this superclaude's version, which the other side must
	// have.
	Version string
}

// Call runs op with args on the host and decodes its one result into
// result (nil to drop it).
func (c *Client) Call(ctx context.Context, op string, args, result any) error {
	var got bool
	err := c.Stream(ctx, op, args, func(raw json.RawMessage) error {
		got = true
		if result == nil {
			return nil
		}
		return json.Unmarshal(raw, result)
	})
	if err == nil && !got {
		err = fmt.Errorf("%s: superclaude +remote there gave no answer", c.Host)
	}
	return err
}

// Stream runs op with args on the host and calls each with every result,
// in order, until the op ends, each returns an error, or ctx is done.
func (c *Client) Stream(ctx context.Context, op string, args any, each func(json.RawMessage) error) error {
	req := Request{Version: c.Version, Op: op}
	if args != nil {
		b, err := json.Marshal(args)
		if err != nil {
			return err
		}
		req.Args = b
	}
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd, err := c.SSH.Command(ctx, c.Host, false, serveArgv...)
	if err != nil {
		return err
	}
	cmd.Stdin = bytes.NewReader(append(body, '\n'))
	var stderr bytes.Buffer
	cmd.Stderr = &limitedWriter{w: &stderr, n: 16 << 10}
	// The shared connection's master, when this command starts it, goes
	// to the background: should it keep a pipe of ours, Wait must not wait
	// for it.
	cmd.WaitDelay = 2 * time.Second
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("%s: running ssh: %w", c.Host, err)
	}
	var failed error
	replies := 0
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		var r Reply
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			failed = fmt.Errorf("%s: superclaude +remote there answered %.80q", c.Host, sc.Text())
			break
		}
		if len(r.Result) == 0 && r.Error == "" && !r.WrongVersion {
			continue // the other side is still at it (Serve's keep-alive)
		}
		replies++
		switch {
		case r.WrongVersion:
			failed = c.versionError(r.Version)
		case r.Error != "":
			failed = fmt.Errorf("%s: %s", c.Host, r.Error)
		default:
			failed = each(r.Result)
		}
		if failed != nil {
			break
		}
	}
	if failed != nil {
		cancel()
	}
	werr := cmd.Wait()
	if failed != nil {
		return failed
	}
	if err := ctx.Err(); err != nil && replies == 0 {
		return fmt.Errorf("%s: %w: no answer in time", c.Host, ErrUnreachable)
	}
	if werr != nil && replies == 0 {
		return c.exitError(werr, stderr.String())
	}
	return nil
}

// exitError says why an ssh command that answered nothing failed: ssh's
// own failure (exit 255: the connection, the login, the host key), no
// superclaude there (127), or a superclaude too old for +remote.
func (c *Client) exitError(err error, stderr string) error {
	msg := strings.TrimSpace(termtext.Clean(stderr))
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return fmt.Errorf("%s: %w: %v", c.Host, ErrUnreachable, err)
	}
	switch code := ee.ExitCode(); {
	case code == 255:
		if msg == "" {
			msg = "the connection failed (ssh said no more)"
		}
		line := lastLine(msg)
		if strings.Contains(line, "Host key verification failed") {
			// ssh asks about an unknown key only on a terminal, and a
			// changed one it refuses: the person checks it, not us.
			line += fmt.Sprintf(" (connect once with `ssh %s` to check the host's key; superclaude never accepts one for you)", c.Host)
		}
		if strings.Contains(line, "Permission denied") {
			line += " (superclaude's ssh asks for no password or passphrase: add your key to ssh-agent with ssh-add)"
		}
		return fmt.Errorf("%s: %w: %s", c.Host, ErrUnreachable, line)
	case code == 127:
		return fmt.Errorf("%s: %w (none on the PATH of commands run over ssh, nor in ~/.local/bin, ~/go/bin, /usr/local/bin or /opt/homebrew/bin): %s; superclaude copies no binaries itself",
			c.Host, ErrNotInstalled, installHint(c.Host, c.Version))
	case strings.Contains(msg, "is not a superclaude command"):
		return c.versionError("older, without +remote")
	}
	if msg == "" {
		msg = ee.String()
	}
	return fmt.Errorf("%s: superclaude +remote failed: %s", c.Host, lastLine(msg))
}

func (c *Client) versionError(there string) error {
	return fmt.Errorf("%s: %w: %s there, %s here: %s", c.Host, ErrVersion, there, c.Version, installHint(c.Host, c.Version))
}

// installHint says how to put superclaude of version v on host: a release
// with install.sh, a development build ("dev-<commit>[-dirty]") from its
// commit.
func installHint(host, v string) string {
	if commit, ok := strings.CutPrefix(v, "dev-"); ok {
		commit, dirty := strings.CutSuffix(commit, "-dirty")
		hint := fmt.Sprintf("this is a development build: on %s, build commit %s of superclaude and install it (git checkout %s && make install)", host, commit, commit)
		if dirty {
			hint += ", with the same uncommitted changes"
		}
		return hint
	}
	if v == "" || v == "dev" {
		return fmt.Sprintf("install this build of superclaude on %s (make install in the same checkout there)", host)
	}
	return fmt.Sprintf("install superclaude %s on %s: curl -fsSL https://raw.githubusercontent.com/superclaude/superclaude/main/install.sh | SUPERCLAUDE_VERSION=%s sh", v, host, strings.TrimPrefix(v, "v"))
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// limitedWriter keeps the first n bytes written to it and drops the rest.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}
