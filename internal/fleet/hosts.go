package fleet

import (
	"slices"
)

// A window or a pane may name a host, `host = "me@buildbox"`: any ssh
// destination, ~/.ssh/config aliases included. That part of the fleet runs
// there — in a tmux server of that user's, each pane under the
// superclaude installed there — and this machine only asks for it over
// ssh (internal/remote): nothing of superclaude's listens on the network,
// and no binary is copied.
//
// On a host, paths are that host's: the file's dir (this machine's) is
// not used, and a window's or a pane's dir is relative to the remote
// user's home, ~ being that home. The panes' sessions live there too, in
// superclaude's state directory on that host, beside the part of the
// fleet file it was given (see remote.go); the tmux server there is the
// file's socket, else the remote user's default.

// Host returns the ssh destination a pane runs on: its own host, else its
// window's; "" is this machine.
func (s *Spec) Host(w Window, p Pane) string {
	if p.Host != "" {
		return p.Host
	}
	return w.Host
}

// Hosts lists the other machines the fleet runs on, each once, in the
// order the file names them.
func (s *Spec) Hosts() []string {
	var out []string
	for _, w := range s.Windows {
		for _, p := range w.Panes {
			if h := s.Host(w, p); h != "" && !slices.Contains(out, h) {
				out = append(out, h)
			}
		}
	}
	return out
}

// Part is the fleet's part on host ("" for this machine): a copy of the
// spec holding only the windows and panes that run there, in the file's
// order. A host's part is a fleet file for that host: no host keys, no
// file of this machine, no directory of this machine — its panes' dirs
// are relative to the remote user's home.
func (s *Spec) Part(host string) *Spec {
	part := *s
	part.Windows = nil
	for _, w := range s.Windows {
		pw := w
		pw.Host, pw.Panes = "", nil
		for _, p := range w.Panes {
			if s.Host(w, p) == host {
				p.Host = ""
				pw.Panes = append(pw.Panes, p)
			}
		}
		if len(pw.Panes) > 0 {
			part.Windows = append(part.Windows, pw)
		}
	}
	if host != "" {
		part.Dir, part.Sessions, part.File = "~", "", ""
	}
	return &part
}
