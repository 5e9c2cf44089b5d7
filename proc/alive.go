//go:build linux || darwin

package proc

// manyPIDs is how many PIDs to look up make one listing of the processes
// cheaper than a failed lookup of each one that is gone: on Linux the
// listing of /proc is a few system calls for a few hundred processes.
const manyPIDs = 32

// AliveAll reports, for each of ids, whether the process it names is
// running: [Alive] for each, but each PID looked up once however many ids
// name it, and, where the kernel lists its processes in one directory and
// there are many PIDs to look up, only the PIDs that are there at all
// (livePIDs). A listing of 10,000 sessions whose supervisors are gone
// opened 10,000 /proc entries that did not exist, a fifth of a +status
// (issue 22). An id recorded without a start time (Start 0, a seed-era
// state file) is alive when any process holds its PID, as [PIDAlive]
// says.
func AliveAll(ids []Identity) []bool {
	out := make([]bool, len(ids))
	pids := make(map[int]bool, len(ids))
	for _, id := range ids {
		if id.PID > 0 {
			pids[id.PID] = true
		}
	}
	present, listed := livePIDs(len(pids))
	live := make(map[int]Info, len(pids))
	for pid := range pids {
		if listed && !present[pid] {
			continue // not there when the kernel listed them: gone
		}
		if info, err := stat(pid); err == nil && !info.Zombie {
			live[pid] = info
		}
	}
	for i, id := range ids {
		info, ok := live[id.PID]
		out[i] = ok && id.PID > 0 && (id.Start == 0 || id.matches(info.Identity) == nil)
	}
	return out
}
