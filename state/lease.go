package state

import (
	"strings"

	"github.com/superclaude/superclaude/proc"
)

// Lease gives owner the conversation id: no two live supervisors ever run
// one conversation (two panes resuming the same id would corrupt it). It
// succeeds when nobody holds the lease, when its holder is owner, or when
// its holder is dead (verified by start time); otherwise it returns the
// live holder and false. The lease file (lease/<id> in the index) is the
// record; a dead holder's is simply taken over, so nothing needs
// releasing.
func (s *Store) Lease(id string, owner proc.Identity) (proc.Identity, bool, error) {
	x := s.index
	l, err := x.lock()
	if err != nil {
		return proc.Identity{}, false, err
	}
	defer l.Unlock()
	name := entryName(kindLease, id)
	if b, err := x.tree().readFile(x.path(kindLease, name), maxSmallFile, "a lease"); err == nil {
		holder, perr := proc.Parse(strings.TrimSpace(string(b)))
		if perr == nil && holder != owner && holder.PID != owner.PID && proc.Alive(holder) {
			return holder, false, nil
		}
	}
	return owner, true, x.tree().writeFileAtomicNoSync(x.path(kindLease), name, []byte(owner.String()+"\n"))
}
