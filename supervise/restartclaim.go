package supervise

import (
	"errors"
	"fmt"
)

// A restart request writes: the dehydrated context, the restart request in
// the session's state, a "restart" event. Two rules keep those writes
// honest (issue 21: 15 requests in a burst wrote 302 events and a restart
// request written after the decision killed a fresh agent):
//
//   - One restart per agent. The first request for the running agent
//     takes its restart (takeRestart); every later one, until a new
//     agent runs, is refused before it writes anything.
//   - Nothing is written after the decision. The agent service, once the
//     agent has exited, forgets it (agentGone) and then waits for every
//     restart being written before it reads the state and decides; a
//     request that comes after that finds no agent and is refused. A
//     request taken just before the agent ended on its own is therefore
//     honoured by the decision (it reads killRequested), never left in
//     the state for the next agent.

// errRestartTaken refuses a request for an agent whose restart is already
// under way.
var errRestartTaken = errors.New("a restart of the agent is already under way; nothing was changed")

// errNoAgent refuses a request when no agent runs.
var errNoAgent = errors.New("no agent is running; nothing was changed")

// restartClaim is a request's hold on the running agent's one restart.
type restartClaim struct {
	s      *Supervisor
	killed bool
	ended  bool
}

// takeRestart takes the running agent's restart for the caller, or says
// why it cannot: errNoAgent, errRestartTaken. The caller makes its writes
// and kill through the claim and then calls end.
func (s *Supervisor) takeRestart() (*restartClaim, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.current == nil:
		return nil, errNoAgent
	case s.restartOf == s.current:
		return nil, errRestartTaken
	}
	s.restartOf = s.current
	s.restartWrites.Add(1)
	return &restartClaim{s: s}, nil
}

// restartTaken reports whether the running agent's restart is taken: a
// request that would wait for the agent's turn first is refused at once.
func (s *Supervisor) restartTaken() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current != nil && s.restartOf == s.current
}

// kill asks the watchdog to kill the agent for the restart, which the
// person asked for when byPerson; false when the agent has ended
// meanwhile.
func (c *restartClaim) kill(reason string, byPerson bool) bool {
	c.killed = c.s.requestRestart(reason, byPerson)
	return c.killed
}

// end releases the claim. A restart that wrote nothing and killed nothing
// gives the agent's restart back, for a later request to take.
func (c *restartClaim) end(wrote bool) {
	if c.ended {
		return
	}
	c.ended = true
	if !wrote && !c.killed {
		c.s.mu.Lock()
		if c.s.restartOf != nil && c.s.restartOf == c.s.current {
			c.s.restartOf = nil
		}
		c.s.mu.Unlock()
	}
	c.s.restartWrites.Done()
}

// agentGone forgets the agent that has exited and waits for the restarts
// being written for it: the decision that follows reads what they wrote.
func (s *Supervisor) agentGone() {
	s.mu.Lock()
	s.current, s.restartOf = nil, nil
	s.mu.Unlock()
	s.restartWrites.Wait()
}

// refusedRestart words a refusal for the log.
func refusedRestart(reason string, err error) string {
	return fmt.Sprintf("restart (%s) refused: %v", reason, err)
}
