//go:build linux || darwin

package proc

import "golang.org/x/sys/unix"

// ReapOrphans collects every dead child of the calling process except those
// keep says belong to someone else (an exec.Cmd whose Wait must see the
// status). A child subreaper inherits the agent's orphans; without this they
// would stay zombies until the supervisor exits. It returns the PIDs reaped.
func ReapOrphans(keep func(pid int) bool) []int {
	snap, err := List()
	if err != nil {
		return nil
	}
	self := unix.Getpid()
	var reaped []int
	for _, p := range snap {
		if p.PPID != self || !p.Zombie || (keep != nil && keep(p.PID)) {
			continue
		}
		if ReapChild(p.PID) {
			reaped = append(reaped, p.PID)
		}
	}
	return reaped
}

// FindByEnv returns the live processes of the calling user whose environment
// holds key=value. A supervisor puts a marker unique to itself in the
// agent's environment; every descendant inherits it, including those that
// left the tree by double-forking, so after the agent is gone the marker
// still finds them. Processes whose environment cannot be read are skipped.
func FindByEnv(key, value string) ([]Info, error) {
	snap, err := List()
	if err != nil {
		return nil, err
	}
	want := key + "=" + value
	self := unix.Getpid()
	uid := unix.Getuid()
	var out []Info
	for _, p := range snap {
		if p.PID == self || p.Zombie || (p.UID >= 0 && p.UID != uid) {
			continue
		}
		env, err := environ(p.PID)
		if err != nil {
			continue
		}
		for _, kv := range env {
			if kv == want {
				out = append(out, p)
				break
			}
		}
	}
	return out, nil
}
