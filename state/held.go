package state

import "sync"

// heldEvents are the events a store keeps back instead of appending them:
// those of a session that may yet turn out never to have begun (see
// [Store.HoldEvents]). The store and every store of another root reached
// through it share one.
type heldEvents struct {
	mu sync.Mutex
	m  map[string][]Event // by root and session name
}

func heldKey(root, name string) string { return root + "\x00" + name }

// hold reports whether ev is kept back, and keeps it if so.
func (h *heldEvents) hold(root string, ev Event) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := heldKey(root, ev.Session)
	evs, ok := h.m[k]
	if ok {
		h.m[k] = append(evs, ev)
	}
	return ok
}

// HoldEvents makes the store keep back, in memory, every event of session
// name it would append from now on — its own transitions and the ones its
// caller appends — until ReleaseEvents appends them or DropEvents forgets
// them. A supervisor holds the events of the session it makes for a run,
// so that a run whose agent fails as it starts leaves no line in the
// event log (nothing happened in it for +why to tell); events that other
// processes append are not held.
//
// What is held is lost if the process dies before either call: a holder
// releases within seconds.
func (s *Store) HoldEvents(name string) {
	s.held.mu.Lock()
	defer s.held.mu.Unlock()
	k := heldKey(s.Root, name)
	if _, ok := s.held.m[k]; !ok {
		s.held.m[k] = []Event{}
	}
}

// ReleaseEvents appends the events held for session name, in the order
// they came, and stops holding them. It returns how many there were.
func (s *Store) ReleaseEvents(name string) int {
	s.held.mu.Lock()
	k := heldKey(s.Root, name)
	evs := s.held.m[k]
	delete(s.held.m, k)
	s.held.mu.Unlock()
	for _, ev := range evs {
		s.Append(ev)
	}
	return len(evs)
}

// DropEvents forgets the events held for session name and stops holding
// them. It reports whether they were still held (false: they were
// released already, or never held).
func (s *Store) DropEvents(name string) bool {
	s.held.mu.Lock()
	defer s.held.mu.Unlock()
	k := heldKey(s.Root, name)
	_, ok := s.held.m[k]
	delete(s.held.m, k)
	return ok
}
