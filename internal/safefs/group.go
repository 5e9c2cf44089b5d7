package safefs

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"sync"
)

// A file or directory its group may write to is as open as one every user
// may write to, once another user shares the group: a config.toml left
// 0664 in a group shared with a colleague let the colleague set
// `notify = ["sh", "-c", …]` and run commands as its owner (issue 21's
// second hostile pass). So group-writable is refused like other-writable —
// but for a user private group, the scheme most Linux distributions use
// (every user has a group of their own, and a umask of 002 leaves files
// 0664 and directories 0775): a group nobody else is in shares nothing.
//
// The rule is OpenSSH's for its own files (Debian's user-group-modes,
// secure_permissions): the group must exist, every user whose primary
// group it is must be the file's owner, its member list must name nobody
// but the owner, and it must have at least one of the two. Both lists are
// read from /etc/passwd and /etc/group; a group that cannot be read there
// (a directory service's) is not taken for a private one.

// privateGroups caches privateGroup's answers: the files do not change
// while superclaude runs, and a listing checks thousands of files.
var privateGroups sync.Map // groupKey → bool

type groupKey struct{ uid, gid uint32 }

// Where the account databases are read from; a test points them at its own.
var (
	passwdFile = "/etc/passwd"
	groupFile  = "/etc/group"
)

// privateGroup reports whether gid is the private group of the user uid:
// nobody else has it as primary group or is listed as its member.
func privateGroup(uid, gid uint32) bool {
	k := groupKey{uid, gid}
	if v, ok := privateGroups.Load(k); ok {
		return v.(bool)
	}
	v := readPrivateGroup(uid, gid)
	privateGroups.Store(k, v)
	return v
}

func readPrivateGroup(uid, gid uint32) bool {
	owner := ""
	members := 0
	ok := eachLine(passwdFile, func(f []string) bool {
		// name:password:uid:gid:…
		if len(f) < 4 {
			return true
		}
		u, uerr := strconv.ParseUint(f[2], 10, 32)
		g, gerr := strconv.ParseUint(f[3], 10, 32)
		if uerr != nil || gerr != nil {
			return true
		}
		if uint32(u) == uid && owner == "" {
			owner = f[0]
		}
		if uint32(g) == gid {
			if uint32(u) != uid {
				return false // another user's primary group
			}
			members++
		}
		return true
	})
	if !ok || owner == "" {
		return false
	}
	found := false
	ok = eachLine(groupFile, func(f []string) bool {
		// name:password:gid:member,member…
		if len(f) < 4 {
			return true
		}
		if g, err := strconv.ParseUint(f[2], 10, 32); err != nil || uint32(g) != gid {
			return true
		}
		found = true
		for _, m := range strings.Split(f[3], ",") {
			switch m = strings.TrimSpace(m); m {
			case "":
			case owner:
				members++
			default:
				return false // another user is a member
			}
		}
		return true
	})
	return ok && found && members > 0
}

// eachLine calls fn with the colon-separated fields of each line of the
// account database file, until fn returns false; it reports false when
// the file cannot be read or fn said no.
func eachLine(file string, fn func([]string) bool) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		if !fn(strings.Split(line, ":")) {
			return false
		}
	}
	return sc.Err() == nil
}
