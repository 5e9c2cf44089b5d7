// Package control owns the supervisor's control socket: where it lives, who
// may talk to it, what is said on it, and the one client that says it
// (Client): every process that talks to a supervisor — `+session restart`,
// the status line, `+down`, the dashboard — uses it.
//
// The socket is a unix socket in a per-user runtime directory of mode 0700
// that the user owns; a candidate directory that is not (another user made
// it, or put a link there) is passed over for a private one, so nobody can
// plant a socket or stop a start (see runtimedir.go). Every connection's
// peer credentials are checked: only the same user is answered, and each
// connection is bounded in time and size; a failed accept is waited out,
// never fatal (accept.go). The client checks the other way too: the
// process serving the socket must be the supervisor it was given, PID and
// start time, so that a restart request reaches only the supervisor it
// belongs to. (A restart asked for in one pane once restarted the agent of
// another: each pane's supervisor had been found by a PID alone.)
//
// The protocol is one JSON request and one JSON response per connection,
// each a single line.
package control

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// Operations.
const (
	OpPing       = "ping"       // who are you
	OpStatus     = "status"     // what is running
	OpRestart    = "restart"    // kill the agent; the state says what comes next
	OpStop       = "stop"       // stop the agent gracefully and exit
	OpStatusLine = "statusline" // a status-line tick to bind (Payload: Claude's JSON)
)

// Request is one call.
type Request struct {
	Op      string          `json:"op"`
	Session string          `json:"session,omitempty"`
	Reason  string          `json:"reason,omitempty"`
	Payload json.RawMessage `json:"payload,omitempty"`
	// Transcript is the agent's transcript, for a restart asked for by a
	// hook that knows it.
	Transcript string `json:"transcript,omitempty"`
	// Now asks a restart or stop not to wait for the agent to finish its
	// turn.
	Now bool `json:"now,omitempty"`
	// Resume asks a restart to resume the agent's conversation (unless
	// its context had filled up) instead of starting it fresh with the
	// continuation prompt.
	Resume bool `json:"resume,omitempty"`
	// ByAgent says that the agent asked for the restart itself, from a
	// tool of the turn under way (its Bash tool ran `+session restart`):
	// the prompts that turn was answering asked for it, or led to it.
	ByAgent bool `json:"byAgent,omitempty"`
}

// Status is the answer to a status request: what the supervisor knows of
// its run now. The supervisor answers with its own supervise.Status,
// converted to this type, so the compiler keeps the two alike field for
// field; the fields are documented there. This is the wire form: the JSON
// names are this type's.
type Status struct {
	Supervisor          string  `json:"supervisor"`
	Profile             string  `json:"profile,omitempty"`
	Session             string  `json:"session,omitempty"`
	SessionDir          string  `json:"sessionDir,omitempty"`
	Pane                string  `json:"pane,omitempty"`
	AgentPID            int     `json:"agentPid,omitempty"`
	Agent               string  `json:"agent,omitempty"`
	AgentUnknown        string  `json:"agentUnknown,omitempty"`
	Conversation        string  `json:"conversation,omitempty"`
	Learned             bool    `json:"learned,omitempty"`
	ConversationUnknown string  `json:"conversationUnknown,omitempty"`
	Starts              int     `json:"starts"`
	Socket              string  `json:"socket"`
	Ended               bool    `json:"ended,omitempty"`
	StoreProblem        string  `json:"storeProblem,omitempty"`
	SeenUsage           float64 `json:"seenUsage,omitempty"`
}

// Response is one answer.
type Response struct {
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
	// Supervisor is the answering supervisor's identity.
	Supervisor string          `json:"supervisor,omitempty"`
	Data       json.RawMessage `json:"data,omitempty"`
}

// Peer is who is on the other end of a connection.
type Peer struct {
	UID, PID int
}

// MaxSocketPath is the longest socket path both Linux (108) and macOS (104)
// accept, less the terminating NUL.
const MaxSocketPath = 103

// ErrOccupied reports that something other than a socket — a link, a
// file, a directory — is where a socket is to be made. It is left as it
// is: removing it could race with whoever put it there, and following it
// is what they may want.
var ErrOccupied = errors.New("something other than a socket is there")

// Listen listens on path, replacing a stale socket left by a supervisor
// that died. The socket file is 0600. Anything else at path is left as it
// is and refused with [ErrOccupied] (bind(2) never follows a link there
// either).
func Listen(path string) (*net.UnixListener, error) {
	if len(path) > MaxSocketPath {
		return nil, fmt.Errorf("socket path %s is longer than %d bytes", path, MaxSocketPath)
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&fs.ModeSocket == 0 {
			return nil, fmt.Errorf("%s is %s: %w", path, kindOf(fi.Mode()), ErrOccupied)
		}
		os.Remove(path)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, err
	}
	ln.SetUnlinkOnClose(true)
	// chmod follows a link: the socket just made is checked to be there
	// still (in a private directory, where only the user could swap it).
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&fs.ModeSocket == 0 {
		err = fmt.Errorf("%s was replaced by %s as it was made: %w", path, kindOf(fi.Mode()), ErrOccupied)
	}
	if err == nil {
		err = os.Chmod(path, 0o600)
	}
	if err != nil {
		ln.SetUnlinkOnClose(false) // what is there now is not ours
		ln.Close()
		return nil, err
	}
	return ln, nil
}

// kindOf names the kind of file of mode, for messages.
func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m.IsRegular():
		return "a regular file"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	}
	return "not a socket"
}

// Handler answers one request from a verified peer.
type Handler func(ctx context.Context, req Request, peer Peer) Response

// ErrWrongServer reports that the process serving a socket is not the
// supervisor the caller expected.
var ErrWrongServer = errors.New("the socket is served by another process than the expected supervisor")

// roundTrip sends req to the socket at path and returns the answer. When expect
// names a process, the socket's server must be that very process (PID from
// the peer credentials, start time verified) or the request is not sent.
func roundTrip(ctx context.Context, path string, expect proc.Identity, req Request) (Response, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return Response{}, err
	}
	conn := c.(*net.UnixConn)
	defer conn.Close()
	if dl, ok := ctx.Deadline(); ok {
		conn.SetDeadline(dl)
	} else {
		conn.SetDeadline(time.Now().Add(30 * time.Second))
	}
	if !expect.IsZero() {
		peer, err := peerOf(conn)
		if err != nil {
			return Response{}, fmt.Errorf("checking the socket's server: %w", err)
		}
		if peer.PID != expect.PID {
			return Response{}, fmt.Errorf("%w: pid %d, not %d", ErrWrongServer, peer.PID, expect.PID)
		}
		if err := expect.Verify(); err != nil {
			return Response{}, fmt.Errorf("%w: %v", ErrWrongServer, err)
		}
	}
	b, err := json.Marshal(req)
	if err != nil {
		return Response{}, err
	}
	_, werr := conn.Write(append(b, '\n'))
	// Read even when the write failed: a server that refuses a peer
	// answers and hangs up before reading.
	line, err := bufio.NewReader(conn).ReadBytes('\n')
	if len(line) == 0 {
		if werr != nil {
			return Response{}, werr
		}
		return Response{}, err
	}
	var resp Response
	if err := json.Unmarshal(line, &resp); err != nil {
		return Response{}, fmt.Errorf("bad response: %w", err)
	}
	if !resp.OK && resp.Error != "" {
		return resp, errors.New(resp.Error)
	}
	return resp, nil
}

// peerOf reads the credentials of the process on the other end.
func peerOf(conn *net.UnixConn) (Peer, error) {
	raw, err := conn.SyscallConn()
	if err != nil {
		return Peer{}, err
	}
	var p Peer
	var perr error
	if err := raw.Control(func(fd uintptr) { p, perr = peerCred(int(fd)) }); err != nil {
		return Peer{}, err
	}
	return p, perr
}
