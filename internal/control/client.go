package control

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// Client is the one client of the control protocol: every process that
// talks to a supervisor — `+session restart`, the status line, `+down`,
// the dashboard — does so through it. It is bound to one supervisor, whose
// identity every call verifies on the connection (roundTrip), and every call is
// bounded in time: by the caller's context, and at most by the
// operation's own timeout below.
type Client struct {
	socket string
	owner  proc.Identity
}

// How long each operation may take at most. A supervisor answers at once;
// a restart that waits for the agent's turn answers at once too, saying
// so (RestartAnswer.Waiting). The status line's tick is the tightest:
// Claude Code waits for the line, and a line without the supervisor is
// drawn from the state file instead.
const (
	pingTimeout       = 2 * time.Second
	statusTimeout     = 2 * time.Second
	restartTimeout    = 10 * time.Second
	stopTimeout       = 10 * time.Second
	statusLineTimeout = time.Second
)

// ErrNotRunning reports that the supervisor a client was asked for is not
// running: nothing was sent.
var ErrNotRunning = errors.New("is not running")

// NewClient returns a client of the supervisor owner, which serves socket.
// owner's start time is verified at every call; a zero owner (a caller
// with no identity to check) is not, and should be rare.
func NewClient(socket string, owner proc.Identity) *Client {
	return &Client{socket: socket, owner: owner}
}

// Dial returns a client of the supervisor owner, found by its PID in the
// runtime directories (FindSocket). An owner recorded without a start
// time (a state file from before identities were verified) is taken to be
// its PID's current holder, which every call then verifies. An owner that
// is not running is ErrNotRunning.
func Dial(owner proc.Identity) (*Client, error) {
	if owner.PID <= 0 {
		return nil, errors.New("no supervisor")
	}
	if owner.Start == 0 {
		id, err := proc.Of(owner.PID)
		if err != nil {
			return nil, fmt.Errorf("supervisor pid %d %w (%v)", owner.PID, ErrNotRunning, err)
		}
		owner = id
	}
	if !proc.Alive(owner) {
		return nil, fmt.Errorf("supervisor pid %d %w", owner.PID, ErrNotRunning)
	}
	sock, err := FindSocket(owner.PID)
	if err != nil {
		return nil, err
	}
	return NewClient(sock, owner), nil
}

// Supervisor is the identity of the supervisor the client talks to.
func (c *Client) Supervisor() proc.Identity { return c.owner }

// Restart is a request to restart a session's agent.
type Restart struct {
	// Session names the session: a name in the supervisor's sessions
	// root, a session directory, or "" for the agent's own.
	Session string
	// Reason says why, for the log, the event log and the dehydrated
	// context.
	Reason string
	// Transcript is the agent's transcript, when the caller knows it (a
	// hook does).
	Transcript string
	// Now asks the supervisor not to wait for the agent's turn to end.
	Now bool
	// Resume asks the supervisor to resume the agent's conversation
	// (unless its context had filled up) instead of starting it fresh with
	// the continuation prompt.
	Resume bool
	// ByAgent says that the agent asked for the restart itself, from a
	// tool of the turn under way (its Bash tool ran `+session restart`).
	ByAgent bool
}

// RestartAnswer is the data of a restart request's answer: the session the
// owner restarts and the prompt the fresh agent starts with, or, when the
// restart waits for the agent to finish its turn, that it does.
type RestartAnswer struct {
	Session string `json:"session"`
	Dir     string `json:"dir"`
	Prompt  string `json:"prompt,omitempty"`
	// Waiting says the agent is in the middle of a turn: the restart
	// happens when the turn ends, or after the supervisor's turn wait at
	// the latest.
	Waiting bool `json:"waiting,omitempty"`
	// TurnUnknown says the agent's CLI does not tell whether it is in the
	// middle of a turn: the restart did not wait for one to end.
	TurnUnknown bool `json:"turnUnknown,omitempty"`
	// Resume says the restart carries on the agent's conversation rather
	// than starting a fresh context: nothing saved the agent's context
	// for a fresh start (its profile cannot).
	Resume bool `json:"resume,omitempty"`
}

// Ping asks the supervisor who it is; nil when it answers.
func (c *Client) Ping(ctx context.Context) error {
	_, err := c.call(ctx, pingTimeout, Request{Op: OpPing})
	return err
}

// Status asks the supervisor what runs.
func (c *Client) Status(ctx context.Context) (Status, error) {
	var st Status
	resp, err := c.call(ctx, statusTimeout, Request{Op: OpStatus})
	if err == nil {
		err = decode(resp, &st)
	}
	return st, err
}

// Restart asks the supervisor to restart a session's agent. The supervisor
// checks that it owns the session and writes the state; the caller writes
// nothing.
func (c *Client) Restart(ctx context.Context, r Restart) (RestartAnswer, error) {
	var ans RestartAnswer
	resp, err := c.call(ctx, restartTimeout, Request{Op: OpRestart, Session: r.Session, Reason: r.Reason, Transcript: r.Transcript, Now: r.Now, Resume: r.Resume, ByAgent: r.ByAgent})
	if err == nil {
		err = decode(resp, &ans)
	}
	return ans, err
}

// Stop asks the supervisor to stop its agent, once the agent's turn has
// ended unless now, and exit. session, when not empty, is the session the
// request is about, for the supervisor's log.
func (c *Client) Stop(ctx context.Context, session, reason string, now bool) error {
	_, err := c.call(ctx, stopTimeout, Request{Op: OpStop, Session: session, Reason: reason, Now: now})
	return err
}

// StatusLine hands the supervisor a tick of Claude Code's status line
// (payload, Claude's JSON) to bind, and decodes what the line should show
// into line: the line's type is the status line's owner's
// (internal/claude), which this package, below it, does not know.
func (c *Client) StatusLine(ctx context.Context, payload json.RawMessage, line any) error {
	resp, err := c.call(ctx, statusLineTimeout, Request{Op: OpStatusLine, Payload: payload})
	switch {
	case err != nil:
		return err
	case len(resp.Data) == 0:
		return errors.New("the supervisor's answer holds no line")
	}
	return decode(resp, line)
}

// call makes one call within timeout at most.
func (c *Client) call(ctx context.Context, timeout time.Duration, req Request) (Response, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	return roundTrip(ctx, c.socket, c.owner, req)
}

// decode reads an answer's data into v; an answer without data leaves v as
// it was.
func decode(resp Response, v any) error {
	if len(resp.Data) == 0 {
		return nil
	}
	if err := json.Unmarshal(resp.Data, v); err != nil {
		return fmt.Errorf("unreadable answer from the supervisor: %w", err)
	}
	return nil
}
