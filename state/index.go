package state

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/superclaude/superclaude/proc"
)

// Index is the lookup index: which session belongs to a pane, which one a
// supervisor activated last, which supervisor runs a conversation (the
// leases), and which sessions roots exist.
//
// One index can serve many sessions roots. superclaude keeps one per user
// (under its state directory), so that "which session is mine" is a single
// lookup wherever the session lives — in a project's own sessions/
// directory, which a skill names with `+session activate sessions/X`, or in
// the user's default one — and `+status` can list every root from
// anywhere. [Open] without an index directory keeps a private one inside
// the root (<root>/.index), which is what tests and single-root tools use.
//
// Layout of Dir: pane/<key> and pid/<pid> each hold the absolute directory
// of a session; lease/<id> the identity of the supervisor running that
// conversation; roots/<key> the path of a sessions root; built the mtimes
// of the roots when the index last matched their files. Writers hold
// Dir/lock; readers need no lock, because every entry is replaced by
// rename.
//
// The index is a cache, never trusted blindly: every hit is checked
// against its state file, and a miss, a mismatch or a root changed behind
// its back (its mtime moved: a session directory created or removed by
// another tool) rebuilds it from the files.
type Index struct {
	// Dir is the index's directory. Nothing is created in it until a
	// session is written.
	Dir string
}

// Index kinds, one directory each.
const (
	kindPane  = "pane"
	kindPID   = "pid"
	kindLease = "lease"
	kindRoot  = "roots"
)

// indexDir is the name of a root's private index directory.
const indexDir = ".index"

// ErrNotFound reports that no session matches a lookup.
var ErrNotFound = errors.New("no session found")

func (x *Index) path(parts ...string) string {
	return filepath.Join(append([]string{x.Dir}, parts...)...)
}

func (x *Index) lock() (*fileLock, error) {
	if err := x.tree().makeBase(); err != nil {
		return nil, fmt.Errorf("session index: %w", err)
	}
	l, err := x.tree().lockFile(x.path("lock"))
	if err != nil {
		return nil, fmt.Errorf("lock the session index: %w", err)
	}
	return l, nil
}

func entryName(kind, key string) string {
	if kind == kindPID {
		return key
	}
	return base64.RawURLEncoding.EncodeToString([]byte(key))
}

// get returns the session directory an entry names. Entries of an older
// layout (a bare name) or anything not an absolute path are misses.
func (x *Index) get(kind, key string) (string, bool) {
	b, err := x.tree().readFile(x.path(kind, entryName(kind, key)), maxSmallFile, "an index entry")
	if err != nil {
		return "", false
	}
	dir := strings.TrimSpace(string(b))
	if !filepath.IsAbs(dir) || CheckName(filepath.Base(dir)) != nil {
		return "", false
	}
	return filepath.Clean(dir), true
}

func (x *Index) set(kind, key, dir string) error {
	return x.tree().writeFileAtomicNoSync(x.path(kind), entryName(kind, key), []byte(dir+"\n"))
}

// del removes an entry if it still names dir.
func (x *Index) del(kind, key, dir string) {
	if got, ok := x.get(kind, key); ok && got == dir {
		x.tree().removeFile(x.path(kind, entryName(kind, key)))
	}
}

// register records root as a sessions root, once.
func (x *Index) register(root string) error {
	name := entryName(kindRoot, root)
	if x.tree().exists(x.path(kindRoot, name)) {
		return nil
	}
	return x.tree().writeFileAtomicNoSync(x.path(kindRoot), name, []byte(root+"\n"))
}

// Roots lists the sessions roots the index knows, whether or not they
// still exist.
func (x *Index) Roots() []string {
	files, err := x.tree().readDirNames(x.path(kindRoot))
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range files {
		if strings.HasPrefix(f, ".") {
			continue
		}
		b, err := x.tree().readFile(x.path(kindRoot, f), maxSmallFile, "an index entry")
		if err != nil {
			continue
		}
		if root := strings.TrimSpace(string(b)); filepath.IsAbs(root) {
			out = append(out, filepath.Clean(root))
		}
	}
	return out
}

// Roots lists the store's own sessions root and every root its index
// knows, each once, sorted: every sessions directory of the user, for a
// view that lists them all.
func (s *Store) Roots() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range append(s.index.Roots(), s.Root) {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}

// built is the record of when the index last matched the files: each
// root's mtime at that moment.
type built struct {
	Roots map[string]int64 `json:"roots"`
}

func (x *Index) readBuilt() built {
	var b built
	if data, err := x.tree().readFile(x.path("built"), maxSmallFile, "an index file"); err == nil {
		json.Unmarshal(data, &b)
	}
	if b.Roots == nil {
		b.Roots = map[string]int64{}
	}
	return b
}

func (x *Index) writeBuilt(b built) {
	data, _ := json.Marshal(b)
	x.tree().writeFileAtomicNoSync(x.Dir, "built", data)
}

func rootMtime(root string) (int64, bool) {
	fi, err := rootInfo(root)
	if err != nil {
		return 0, false
	}
	return fi.ModTime().UnixNano(), true
}

// fresh reports whether the index matched the files of every root it knows
// (and of also, when it exists) when each last changed: a session
// directory created or removed by anyone but this package makes it stale.
func (x *Index) fresh(also string) bool {
	b := x.readBuilt()
	roots := x.Roots()
	if also != "" {
		roots = append(roots, also)
	}
	for _, r := range roots {
		m, ok := rootMtime(r)
		if !ok {
			if _, known := b.Roots[r]; known {
				return false // a root that went away
			}
			continue
		}
		if b.Roots[r] != m {
			return false
		}
	}
	return true
}

// rootFresh reports whether the index matched root's files when root last
// changed, and returns root's mtime.
func (x *Index) rootFresh(root string) (int64, bool) {
	m, ok := rootMtime(root)
	if !ok {
		return 0, false
	}
	got, known := x.readBuilt().Roots[root]
	return m, known && got == m
}

// touch records that root's new mtime is ours (a session directory we just
// created and are indexing), provided the index was fresh for root at
// prev. The caller holds the lock.
func (x *Index) touch(root string, prev int64) {
	b := x.readBuilt()
	if got, known := b.Roots[root]; !known || got != prev {
		return
	}
	if m, ok := rootMtime(root); ok {
		b.Roots[root] = m
		x.writeBuilt(b)
	}
}

// indexChanges reports whether a write from before to after moves the
// session's pane or owner, or activates it, and so must go through the
// index.
func indexChanges(before, after *State) bool {
	return before.FleetPaneID != after.FleetPaneID || before.PID != after.PID ||
		!before.ActivatedAt.Equal(after.ActivatedAt)
}

// add points the index at dir for the pane and PID that after has and
// before did not, and for after's PID on every activation: the PID entry
// names the session its supervisor activated last. The caller holds the
// lock.
func (x *Index) add(dir string, before, after *State) error {
	if after.FleetPaneID != "" && after.FleetPaneID != before.FleetPaneID {
		if err := x.set(kindPane, after.FleetPaneID, dir); err != nil {
			return err
		}
	}
	if after.PID > 0 && (after.PID != before.PID || !after.ActivatedAt.Equal(before.ActivatedAt)) {
		if err := x.set(kindPID, strconv.Itoa(after.PID), dir); err != nil {
			return err
		}
	}
	return nil
}

// removeStale drops the entries for the pane and PID before had and after
// no longer has. The caller holds the lock.
func (x *Index) removeStale(dir string, before, after *State) {
	if before.FleetPaneID != "" && before.FleetPaneID != after.FleetPaneID {
		x.del(kindPane, before.FleetPaneID, dir)
	}
	if before.PID > 0 && before.PID != after.PID {
		x.del(kindPID, strconv.Itoa(before.PID), dir)
	}
}

// Reindex rebuilds the index from the state files of every root it knows
// and of the store's own. Lookups call it when the index is missing or
// wrong; it reads every session, so it costs time in proportion to their
// number.
func (s *Store) Reindex() error {
	x := s.index
	l, err := x.lock()
	if err != nil {
		return err
	}
	defer l.Unlock()
	roots := x.Roots()
	if _, err := rootInfo(s.Root); err == nil {
		roots = append(roots, s.Root)
		x.register(s.Root)
	}
	b := built{Roots: map[string]int64{}}
	want := map[string]map[string]string{kindPane: {}, kindPID: {}}
	best := map[string]map[string]*State{kindPane: {}, kindPID: {}}
	put := func(kind, key string, sess Session) {
		if cur, ok := best[kind][key]; ok && !preferred(kind, sess.State, cur) {
			return
		}
		best[kind][key] = sess.State
		want[kind][key] = sess.Dir
	}
	seen := map[string]bool{}
	for _, root := range roots {
		if seen[root] {
			continue
		}
		seen[root] = true
		// The mtime is read before the scan: a directory created during
		// the scan makes the index stale again instead of being missed.
		m, ok := rootMtime(root)
		if !ok {
			continue
		}
		sessions, err := s.at(root).List()
		if err != nil {
			continue
		}
		b.Roots[root] = m
		for _, sess := range sessions {
			if sess.State.FleetPaneID != "" {
				put(kindPane, sess.State.FleetPaneID, sess)
			}
			if sess.State.PID > 0 {
				put(kindPID, strconv.Itoa(sess.State.PID), sess)
			}
		}
	}
	for kind, entries := range want {
		keep := map[string]bool{}
		for key, dir := range entries {
			keep[entryName(kind, key)] = true
			if got, ok := x.get(kind, key); ok && got == dir {
				continue
			}
			if err := x.set(kind, key, dir); err != nil {
				return err
			}
		}
		files, _ := x.tree().readDirNames(x.path(kind))
		for _, f := range files {
			if keep[f] || strings.HasPrefix(f, ".") {
				continue
			}
			x.tree().removeFile(x.path(kind, f))
		}
	}
	x.writeBuilt(b)
	return nil
}

// preferred reports whether a should own an index key of kind over b when
// two session files claim the same pane or PID, as seed-era files can: for
// a PID, the session whose owner is alive (a dead supervisor's PID is
// another process's now, and its session must not hide the live one's);
// then the later activation, then a live session over a completed one,
// then the more recent heartbeat, then the later start.
func preferred(kind string, a, b *State) bool {
	if kind == kindPID {
		if aa, ba := OwnerAlive(a), OwnerAlive(b); aa != ba {
			return aa
		}
	}
	if !a.ActivatedAt.Equal(b.ActivatedAt) {
		return a.ActivatedAt.After(b.ActivatedAt)
	}
	if (a.Lifecycle == Completed) != (b.Lifecycle == Completed) {
		return b.Lifecycle == Completed
	}
	if !a.LastHeartbeat.Equal(b.LastHeartbeat) {
		return a.LastHeartbeat.After(b.LastHeartbeat)
	}
	return a.StartedAt.After(b.StartedAt)
}

// Owner returns the verified identity of the supervisor that owns st.
func Owner(st *State) proc.Identity {
	return proc.Identity{PID: st.PID, Start: st.PIDStart, Boot: st.PIDBoot}
}

// OwnerAlive reports whether st's owner is running: verified by start time
// when the file records one; seed-era files without it can only be checked
// by PID.
func OwnerAlive(st *State) bool {
	if st.PID <= 0 {
		return false
	}
	if st.PIDStart == 0 {
		return proc.PIDAlive(st.PID)
	}
	return proc.Alive(Owner(st))
}

// OwnersAlive is OwnerAlive for each of sts, with each owner looked up
// once (proc.AliveAll): a listing of every session asks it of thousands.
func OwnersAlive(sts []*State) []bool {
	ids := make([]proc.Identity, len(sts))
	for i, st := range sts {
		ids[i] = Owner(st) // Start 0, a seed-era file: any process holding the PID
	}
	return proc.AliveAll(ids)
}

// OwnedBy reports whether st names id as its owner: the same PID and, when
// both record one, the same start time. A seed-era file (no start time)
// matches by PID.
func OwnedBy(st *State, id proc.Identity) bool {
	if id.PID <= 0 || st.PID != id.PID {
		return false
	}
	return st.PIDStart == 0 || id.Start == 0 || (st.PIDStart == id.Start && (st.PIDBoot == "" || id.Boot == "" || st.PIDBoot == id.Boot))
}

// lookup resolves one index key. holds says whether a loaded state holds
// the key (the entry is right about it); match whether it also answers the
// lookup. A hit is checked against its file; a stale hit, or a miss while
// the index is stale, rebuilds the index once and asks again.
//
// A hit whose file holds the key but does not answer — a dead
// supervisor's session recorded under the PID a live caller holds now,
// which PID reuse makes common with many sessions — is not stale: while
// the roots have not changed, a rebuild would write the same entry back
// and the next lookup would rebuild again (with 10,000 sessions that made
// every status-line tick of such a caller take a third of a second). It
// is a miss, as a miss in a fresh index is.
func (s *Store) lookup(kind, key string, holds, match func(*State) bool) (*Session, error) {
	for attempt := 0; attempt < 2; attempt++ {
		dir, ok := s.index.get(kind, key)
		if ok {
			sess, err := s.at(filepath.Dir(dir)).session(filepath.Base(dir))
			if err == nil && match(sess.State) {
				return sess, nil
			}
			if err != nil && !errors.Is(err, ErrNoSession) {
				s.report(err)
			}
			if err == nil && holds(sess.State) && s.index.fresh(s.Root) {
				return nil, ErrNotFound
			}
		} else if s.index.fresh(s.Root) {
			return nil, ErrNotFound
		}
		if attempt == 0 {
			if err := s.Reindex(); err != nil {
				return nil, err
			}
		}
	}
	return nil, ErrNotFound
}

// FindByPane returns the session whose fleetPaneId is pane, in any root
// the index knows.
func (s *Store) FindByPane(pane string) (*Session, error) {
	if pane == "" {
		return nil, ErrNotFound
	}
	onPane := func(st *State) bool { return st.FleetPaneID == pane }
	return s.lookup(kindPane, pane, onPane, onPane)
}

// FindByOwner returns the session the supervisor id activated last,
// provided it still names id as its owner and id is alive (verified by
// start time when the file records one).
func (s *Store) FindByOwner(id proc.Identity) (*Session, error) {
	return s.findByOwner(id, false)
}

// findByOwner is FindByOwner; live says the caller found id alive a
// moment ago, so that it is not looked up again.
func (s *Store) findByOwner(id proc.Identity, live bool) (*Session, error) {
	if id.PID <= 0 {
		return nil, ErrNotFound
	}
	return s.lookup(kindPID, strconv.Itoa(id.PID),
		func(st *State) bool { return st.PID == id.PID },
		func(st *State) bool { return OwnedBy(st, id) && (live || OwnerAlive(st)) })
}

// Mine is the one answer to "which session does this agent work in now",
// asked at every use — a status-line tick, a hook, a restart request, the
// decision after the agent exits — and never cached: a skill may have
// activated another session a moment ago (S7, S8; R3).
//
// It is the session the supervisor owner activated last; failing that, the
// session of pane, unless another live supervisor owns that one. The
// owner comes first because a pane's label can change under a running
// agent (R6), while the supervisor's identity cannot.
func (s *Store) Mine(owner proc.Identity, pane string) (*Session, error) {
	return s.mine(owner, pane, false)
}

// MineLive is Mine for an owner the caller has just found alive — a
// callback's supervisor, verified from its environment a moment before:
// the session that names it is taken without reading the owner's /proc
// entry a second time (each is a read of the supervisor's stat, a tenth
// of a status-line tick's own work, issue 22).
func (s *Store) MineLive(owner proc.Identity, pane string) (*Session, error) {
	return s.mine(owner, pane, true)
}

func (s *Store) mine(owner proc.Identity, pane string, live bool) (*Session, error) {
	sess, err := s.findByOwner(owner, live)
	if err == nil || !errors.Is(err, ErrNotFound) {
		return sess, err
	}
	sess, err = s.FindByPane(pane)
	if err != nil {
		return nil, err
	}
	if !OwnedBy(sess.State, owner) && OwnerAlive(sess.State) {
		return nil, ErrNotFound
	}
	return sess, nil
}
