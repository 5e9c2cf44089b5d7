package remote

import (
	"fmt"
	"strings"
)

// CheckDestination refuses a host that is no plain ssh destination —
// [user@]host, ssh://[user@]host[:port], or a ~/.ssh/config alias — above all
// one that ssh would read as an option: a fleet file is something people
// clone, and host = "-oProxyCommand=…" would run a command on this
// machine. The destination is also passed after "--", which ends ssh's
// options, so this check is the second of two.
func CheckDestination(host string) error {
	switch {
	case host == "":
		return fmt.Errorf("host is empty")
	case strings.HasPrefix(host, "-"):
		return fmt.Errorf("host %q starts with '-', which ssh would read as an option", host)
	case len(host) > 255:
		return fmt.Errorf("host %.20q… is longer than 255 bytes", host)
	}
	for _, r := range host {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			strings.ContainsRune("@._-:[]/%+", r)
		if !ok {
			return fmt.Errorf("host %q: %q is not allowed in an ssh destination (want [user@]host, ssh://[user@]host[:port], or a ~/.ssh/config alias)", host, r)
		}
	}
	return nil
}
