package state

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"

	"github.com/superclaude/superclaude/internal/proc"
)

// kindLease holds the conversation leases: .index/lease/<id> names the
// supervisor (pid:start:boot) running that conversation.
const kindLease = "lease"

// Lease gives owner the conversation id: no two live supervisors ever run
// one conversation (two panes resuming the same id would corrupt it). It
// succeeds when nobody holds the lease, when its holder is owner, or when
// its holder is dead (verified by start time); otherwise it returns the
// live holder and false. The lease file is the record; a dead holder's is
// simply taken over, so nothing needs releasing.
func (s *Store) Lease(id string, owner proc.Identity) (proc.Identity, bool, error) {
	l, err := s.lockIndex()
	if err != nil {
		return proc.Identity{}, false, err
	}
	defer l.Unlock()
	dir := s.indexPath(kindLease)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return proc.Identity{}, false, err
	}
	name := base64.RawURLEncoding.EncodeToString([]byte(id))
	if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
		holder, perr := proc.Parse(strings.TrimSpace(string(b)))
		if perr == nil && holder != owner && holder.PID != owner.PID && proc.Alive(holder) {
			return holder, false, nil
		}
	}
	return owner, true, writeFileAtomicNoSync(dir, name, []byte(owner.String()+"\n"))
}
