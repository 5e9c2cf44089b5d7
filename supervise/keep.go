package supervise

// Keeper keeps the file an agent's CLI keeps its conversation in from
// being lost to another process while the agent runs (Profile.Keep).
//
// Gemini CLI needs one: each Gemini CLI that starts deletes, in its
// project's chats directory, every chat file that holds no prompt yet —
// also the file of another Gemini CLI that runs there and has not been
// given its first prompt, which then writes its conversation on into a
// new file without the line that names it. That conversation can then
// never be resumed, and the next Gemini CLI to start deletes it. A fleet
// of Gemini panes in one project starts them all at once (docs/agent-clis.md).
type Keeper interface {
	// Look is called at each look of the waiting supervisor (the agent's
	// files changed), with what the agent runs now: Transcript is its
	// conversation's file once learned. It restores what was lost since
	// the last look, and says what it did ("" when nothing).
	Look(a Running) (did string, err error)
	// Release lets go, once the agent has ended.
	Release()
}

// keepLook runs the agent's keeper at a look, and logs what it did.
func (s *Supervisor) keepLook(k Keeper) {
	r, ok := s.running()
	if k == nil || !ok {
		return
	}
	did, err := k.Look(r)
	switch {
	case err != nil:
		s.log.Warn("keeping the agent's conversation file", "profile", s.cfg.Profile.Name, "file", r.Transcript, "err", err)
	case did != "":
		s.log.Info("kept the agent's conversation file", "profile", s.cfg.Profile.Name, "file", r.Transcript, "what", did)
	}
}
