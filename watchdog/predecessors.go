package watchdog

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/proc"
)

// PredecessorReport says what [SweepPredecessors] found and did.
type PredecessorReport struct {
	// Dead lists the supervisors found verifiably dead through the
	// markers of processes they left running.
	Dead []proc.Identity
	// Killed lists the processes that were signalled.
	Killed []proc.Identity
	// Survivors lists processes still running when the sweep gave up.
	Survivors []proc.Identity
	// Removed lists the sockets and launch directories removed.
	Removed []string
}

// debrisAge is how old a socket or launch directory whose PID is running
// again must be before it is taken for a dead supervisor's: a supervisor
// that is starting has made its launch directory and bound its socket a
// moment before it listens.
const debrisAge = 10 * time.Second

// SweepPredecessors cleans up after this user's supervisors that died
// without cleaning up themselves (SIGKILL, a crash). A supervisor calls it
// at its start, before its agent starts.
//
//   - Every process of this user whose marker ($SUPERCLAUDE_SUPERVISOR,
//     which every process a supervisor starts inherits) names a
//     supervisor that is verifiably dead — its PID is free, or held by a
//     process that started at another time or in another boot — is ended
//     with its descendants: SIGTERM, grace, SIGKILL, each signal through a
//     verified identity. A marker that does not parse is no evidence, and a
//     live supervisor's processes are its own business. The caller, its
//     ancestors and its descendants are never touched (a superclaude
//     started from inside a dead supervisor's agent must not end its own
//     line).
//   - In the user's runtime directories, the control socket (<pid>.sock)
//     and launch directory (<pid>.launch) of every supervisor that is gone
//     are removed: those whose PID nobody holds, and those of the dead
//     supervisors found above whose PID another process holds now, when
//     nothing answers on the socket and they are older than debrisAge.
//
// It returns what it did; errors are logged, never fatal: a sweep that
// fails leaves debris, which is what happened before.
func SweepPredecessors(ctx context.Context, grace time.Duration, log *slog.Logger) PredecessorReport {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var rep PredecessorReport
	// One walk of the process table serves the markers and the lines.
	snap, serr := proc.List()
	var marked []proc.Marked
	spare := map[int]bool{}
	if serr != nil {
		log.Warn("predecessor sweep: listing processes", "err", serr)
	} else {
		marked = proc.FindMarkedIn(snap, envvar.Supervisor)
		spare = ownLine(snap, unix.Getpid())
	}

	dead := map[proc.Identity]bool{}
	verdict := map[string]bool{}
	var ids []proc.Identity
	for _, m := range marked {
		isDead, seen := verdict[m.Value]
		if !seen {
			sup, err := proc.Parse(m.Value)
			isDead = err == nil && gone(sup.Verify())
			verdict[m.Value] = isDead
			if isDead {
				dead[sup] = true
				rep.Dead = append(rep.Dead, sup)
			}
		}
		if !isDead || spare[m.PID] {
			continue
		}
		ids = append(ids, m.Identity)
		if serr == nil {
			for _, d := range proc.Descendants(snap, m.PID) {
				if !spare[d.PID] {
					ids = append(ids, d.Identity)
				}
			}
		}
	}
	if len(ids) > 0 {
		log.Info("predecessor sweep: ending what dead supervisors left running", "supervisors", len(rep.Dead), "processes", len(ids))
		res, err := proc.KillTree(ctx, proc.Identity{}, proc.KillOptions{
			Grace: grace,
			Also:  ids,
			Reap:  func(pid int) { proc.ReapChildWait(pid, 2*time.Second) },
		})
		rep.Killed = append(res.Termed, res.Killed...)
		rep.Survivors = res.Survivors
		if err != nil {
			log.Warn("predecessor sweep", "err", err, "survivors", len(res.Survivors))
		}
	}

	// Besides the supervisors whose leftovers said they died, those whose
	// PID another process took without leaving anything: their entries
	// would otherwise call for a walk at every start (PredecessorDied).
	deadPID := recordedDead(control.RuntimeDirs())
	for id := range dead {
		deadPID[id.PID] = true
	}
	for _, dir := range control.RuntimeDirs() {
		rep.Removed = append(rep.Removed, removeDebris(dir, deadPID, log)...)
	}
	return rep
}

// reuseSlack is how much later than its socket or launch directory the
// process holding a supervisor's PID may have started and still be taken
// for that supervisor: clock ticks and the boot clock's reading make its
// start time a few milliseconds off. A supervisor starts before it makes
// either, so its own start always comes first.
const reuseSlack = time.Second

// PredecessorDied reports whether a supervisor of this user may have died
// without cleaning up after itself, and so whether [SweepPredecessors] has
// anything to do. Every supervisor makes its control socket (<pid>.sock)
// in a runtime directory before its agent starts, and removes it when it
// ends; one killed with SIGKILL leaves it. So while every socket and
// launch directory in this user's runtime directories belongs to a live
// supervisor — its PID held by a process that started before the entry
// was made — no dead supervisor has left anything, and the sweep's walk
// of every process of the machine (reading each one's environment, a
// thousand for a desktop's thousand processes) is skipped: a start costs
// what its own work costs, not what the machine runs.
//
// What it cannot see is a supervisor whose runtime directory is none of
// control.RuntimeDirs (one started with another $TMPDIR): its leftovers
// are swept at the next start that finds any dead supervisor.
func PredecessorDied() bool { return len(recordedDead(control.RuntimeDirs())) > 0 }

// recordedDead returns the PIDs of the sockets and launch directories in
// dirs whose supervisor is not verifiably alive: no process holds the PID,
// or the one holding it started after the entry was made (the PID was
// reused), or it cannot be read. This process's own are left out.
func recordedDead(dirs []string) map[int]bool {
	dead := map[int]bool{}
	self := os.Getpid()
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			base, ok := strings.CutSuffix(e.Name(), ".sock")
			if !ok {
				if base, ok = strings.CutSuffix(e.Name(), ".launch"); !ok {
					continue
				}
			}
			pid, err := strconv.Atoi(base)
			if err != nil || pid <= 0 || pid == self || dead[pid] {
				continue
			}
			fi, err := e.Info()
			if err != nil {
				continue // removed meanwhile
			}
			holder, err := proc.Of(pid)
			if err != nil || proc.StartedAt(holder).After(fi.ModTime().Add(reuseSlack)) {
				dead[pid] = true
			}
		}
	}
	return dead
}

// gone reports whether a Verify error proves the process dead (rather than
// unreadable).
func gone(err error) bool {
	return errors.Is(err, proc.ErrGone) || errors.Is(err, proc.ErrReused)
}

// ownLine is the set of pid, its ancestors and its descendants in snap.
func ownLine(snap []proc.Info, pid int) map[int]bool {
	line := map[int]bool{pid: true}
	parent := make(map[int]int, len(snap))
	for _, p := range snap {
		parent[p.PID] = p.PPID
	}
	for p := parent[pid]; p > 0 && !line[p]; p = parent[p] {
		line[p] = true
	}
	for _, d := range proc.Descendants(snap, pid) {
		line[d.PID] = true
	}
	return line
}

// removeDebris removes, from one runtime directory, the sockets and launch
// directories of supervisors that are gone (see SweepPredecessors).
func removeDebris(dir string, deadPID map[int]bool, log *slog.Logger) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range entries {
		name := e.Name()
		base, isSock := strings.CutSuffix(name, ".sock")
		if !isSock {
			var isLaunch bool
			if base, isLaunch = strings.CutSuffix(name, ".launch"); !isLaunch {
				continue
			}
		}
		pid, err := strconv.Atoi(base)
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		path := filepath.Join(dir, name)
		fi, err := os.Lstat(path)
		if err != nil || (isSock && fi.Mode()&os.ModeSocket == 0) || (!isSock && !fi.IsDir()) {
			continue
		}
		sock := filepath.Join(dir, base+".sock")
		switch {
		case !proc.PIDAlive(pid):
		case deadPID[pid] && time.Since(fi.ModTime()) > debrisAge && !served(sock):
		default:
			continue
		}
		if isSock {
			err = os.Remove(path)
		} else {
			err = os.RemoveAll(path)
		}
		if err != nil {
			log.Warn("predecessor sweep: removing", "path", path, "err", err)
			continue
		}
		removed = append(removed, path)
	}
	return removed
}

// served reports whether something accepts connections on the socket at
// path; when in doubt (anything but a refusal or no socket), it says yes.
func served(path string) bool {
	c, err := net.DialTimeout("unix", path, time.Second)
	if err == nil {
		c.Close()
		return true
	}
	return !errors.Is(err, syscall.ECONNREFUSED) && !errors.Is(err, syscall.ENOENT)
}
