package supervise

import (
	"context"
	"encoding/json"
	"net"

	"github.com/superclaude/superclaude/internal/control"
)

// binder serves the control socket.
type binder struct {
	s  *Supervisor
	ln *net.UnixListener
}

func (b *binder) String() string { return "binder" }

func (b *binder) Serve(ctx context.Context) error {
	return control.Serve(ctx, b.ln, b.handle)
}

// Status is what a status request answers.
type Status struct {
	Supervisor string `json:"supervisor"`
	Session    string `json:"session,omitempty"`
	Pane       string `json:"pane,omitempty"`
	AgentPID   int    `json:"agentPid,omitempty"`
	Starts     int    `json:"starts"`
	Socket     string `json:"socket"`
}

func (b *binder) handle(ctx context.Context, req control.Request, peer control.Peer) control.Response {
	s := b.s
	resp := control.Response{OK: true, Supervisor: s.self.String()}
	switch req.Op {
	case control.OpPing:
	case control.OpStatus:
		st := Status{Supervisor: s.self.String(), Session: s.Session(), Pane: s.cfg.Pane, Socket: s.socket}
		if a := s.currentAgent(); a != nil {
			st.AgentPID = a.PID()
		}
		if s.agent != nil {
			st.Starts = s.agent.starts
		}
		resp.Data, _ = json.Marshal(st)
	case control.OpRestart:
		if !b.owns(req.Session) {
			return control.Response{Supervisor: s.self.String(), Error: "session " + req.Session + " does not belong to this supervisor"}
		}
		reason := "restart requested over the control socket"
		if req.Reason != "" {
			reason = req.Reason
		}
		if !s.RequestRestart(reason) {
			return control.Response{Supervisor: s.self.String(), Error: "no agent is running"}
		}
	case control.OpStop:
		s.Stop(0)
	default:
		if h, ok := s.cfg.Handlers[req.Op]; ok {
			r := h(ctx, s, req, peer)
			r.Supervisor = s.self.String()
			return r
		}
		return control.Response{Supervisor: s.self.String(), Error: "unknown operation " + req.Op}
	}
	return resp
}

// owns reports whether session (empty: whatever this supervisor runs) is
// this supervisor's: its current session, or one whose state names this
// supervisor as owner.
func (b *binder) owns(session string) bool {
	s := b.s
	if session == "" || session == s.Session() {
		return true
	}
	if s.cfg.Store == nil {
		return false
	}
	st, err := s.cfg.Store.Load(session)
	return err == nil && st.PID == s.self.PID && st.PIDStart == s.self.Start
}
