package supervise

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/superclaude/superclaude/internal/claude"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/state"
)

// statusLine binds one of Claude Code's status-line ticks (the payload is
// its JSON) to the session the agent works in now — looked up at this
// tick, never remembered from an earlier one — and answers what the line
// should show. The status line process prints it.
//
// A tick that binds a conversation id for the first time also takes that
// conversation's lease: this supervisor runs it, and no other supervisor
// may resume it while this one lives.
func (s *Supervisor) statusLine(payload json.RawMessage) control.Response {
	resp := control.Response{OK: true, Supervisor: s.self.String()}
	tick, err := claude.ParseStatusLine(payload)
	if err != nil {
		resp.OK, resp.Error = false, "unreadable status-line input: "+err.Error()
		return resp
	}
	info := claude.WithTick(claude.LineInfo{Problem: "no session"}, tick)
	if sess := s.mine(); sess != nil {
		res, err := claude.Tick(sess, s.self, tick, time.Now(), 0)
		switch {
		case errors.Is(err, state.ErrNoSession):
		case err != nil:
			s.log.Warn("binding a status-line tick", "session", sess.Name, "err", err)
			info = res.Info
		default:
			info = res.Info
		}
		if res.Bound != "" {
			s.setConversation(res.Bound, tick.TranscriptPath)
			if holder, ok, err := sess.Store.Lease(res.Bound, s.self); err != nil || !ok {
				s.log.Warn("conversation lease", "id", res.Bound, "holder", holder.PID, "err", err)
			}
		}
	}
	if !s.cfg.Policy.LimitContinue {
		info.LimitContinue = claude.LimitByNobody
	}
	resp.Data, _ = json.Marshal(info)
	return resp
}
