package hosts

import (
	"path/filepath"
	"time"

	"github.com/superclaude/superclaude/internal/config"
	"github.com/superclaude/superclaude/internal/remote"
	"github.com/superclaude/superclaude/internal/version"
)

// Timeout is how long a view waits for each other host's answer
// (--host-timeout).
var Timeout = 2 * time.Second

// Version is this build's version as another host's superclaude compares
// it: a host answers only a superclaude of its own version.
func Version() string { return version.Get().Short() }

// Record is the user's record of the hosts their fleets run on, which +up
// keeps.
func Record() (remote.Hosts, error) {
	st, err := config.StateDir()
	if err != nil {
		return remote.Hosts{}, err
	}
	return remote.Hosts{File: filepath.Join(st, remote.HostsFile)}, nil
}

func client(ssh *remote.SSH, host string) *remote.Client {
	return &remote.Client{SSH: ssh, Host: host, Version: Version()}
}

// opStatus is the request for a host's +status rows.
const opStatus = "status"

// statusArgs narrow a host's rows to one fleet's part (Origin and Name,
// as fleet.UpArgs give them); empty: every session of that user's.
type statusArgs struct {
	Origin string `json:"origin,omitempty"`
	Name   string `json:"name,omitempty"`
}

// opFind says whether a host has a session: how +why, +history and
// +session restart find the host of a session that is not on this
// machine, before they run there (remote.OpRun).
const opFind = "find"

type findArgs struct {
	// Which is a session's name, or with History a pane's identity too.
	Which   string `json:"which"`
	History bool   `json:"history,omitempty"`
}
