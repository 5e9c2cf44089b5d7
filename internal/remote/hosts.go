package remote

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/superclaude/superclaude/internal/safefs"
)

// Hosts is this user's record of the hosts their fleets run on: for each,
// the fleet files that have a part up there (so that `+status` and the
// dashboard know where to look, from any directory) and the outcome of the
// last look (so that a host that does not answer is shown with the time
// of its last good answer). It is one small JSON file, changed under a
// lock, read-modify-write, and holds no secret: host names, file names
// and times.
type Hosts struct {
	// File is the record's path (HostsFile in the state directory).
	File string
}

// HostsFile is the record's name in superclaude's state directory.
const HostsFile = "hosts.json"

// Host is one host of the record.
type Host struct {
	// Host is the ssh destination, as the fleet file gives it.
	Host string `json:"host"`
	// Fleets are the fleet files whose part on the host is up.
	Fleets []string `json:"fleets,omitempty"`
	// LastGood is when the host last answered; LastTry when it was last
	// asked, and LastError why that failed ("" when it answered).
	LastGood  time.Time `json:"lastGood,omitzero"`
	LastTry   time.Time `json:"lastTry,omitzero"`
	LastError string    `json:"lastError,omitempty"`
}

type hostsFile struct {
	Hosts []Host `json:"hosts"`
}

// List returns the hosts of the record, by name.
func (h Hosts) List() ([]Host, error) {
	f, err := h.read()
	return f.Hosts, err
}

// Get returns the record of one host (its name only, when it has none).
func (h Hosts) Get(host string) Host {
	f, _ := h.read()
	for _, x := range f.Hosts {
		if x.Host == host {
			return x
		}
	}
	return Host{Host: host}
}

// Up lists the hosts where a fleet of the user's is up: what the views
// look at besides this machine.
func (h Hosts) Up() []string {
	list, _ := h.List()
	var out []string
	for _, x := range list {
		if len(x.Fleets) > 0 {
			out = append(out, x.Host)
		}
	}
	return out
}

// AddFleet records that fleet has a part up on host.
func (h Hosts) AddFleet(host, fleet string) error {
	return h.change(host, false, func(x *Host) {
		if !slices.Contains(x.Fleets, fleet) {
			x.Fleets = append(x.Fleets, fleet)
			sort.Strings(x.Fleets)
		}
	})
}

// RemoveFleet records that fleet's part on host is down; a host with no
// fleet left leaves the record.
func (h Hosts) RemoveFleet(host, fleet string) error {
	return h.change(host, true, func(x *Host) {
		x.Fleets = slices.DeleteFunc(x.Fleets, func(f string) bool { return f == fleet })
	})
}

// Answered records the outcome of asking host at time at: err nil when it
// answered.
func (h Hosts) Answered(host string, at time.Time, err error) error {
	return h.change(host, false, func(x *Host) {
		x.LastTry = at
		if err == nil {
			x.LastGood, x.LastError = at, ""
		} else {
			x.LastError = err.Error()
		}
	})
}

// maxHosts bounds what is read of the record: a few KiB for many hosts.
const maxHosts = 4 << 20

// lockWait is how long a change waits for the record's lock: a holder
// that never lets go (a superclaude stopped with Ctrl-Z as it held it)
// fails the change, with a message, rather than hanging +up or a view.
const lockWait = 10 * time.Second

// dir opens the record's directory (the state directory), creating it
// when create is set. The record, its lock and its temporary files are
// reached through it as every file there is (safefs): a link, a FIFO or a
// device planted under their names is neither followed nor waited on.
func (h Hosts) dir(create bool) (*safefs.Dir, error) {
	dir := filepath.Dir(h.File)
	if create {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
	}
	return safefs.Open(dir, "")
}

func (h Hosts) read() (hostsFile, error) {
	d, err := h.dir(false)
	if errors.Is(err, fs.ErrNotExist) {
		return hostsFile{}, nil
	}
	if err != nil {
		return hostsFile{}, err
	}
	defer d.Close()
	return h.readIn(d)
}

func (h Hosts) readIn(d *safefs.Dir) (hostsFile, error) {
	var f hostsFile
	b, err := d.ReadFile(filepath.Base(h.File), maxHosts, "the record of hosts")
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return hostsFile{}, fmt.Errorf("%s: %w", h.File, err)
	}
	return f, nil
}

// change applies fn to host's entry (made when missing) under the
// record's lock; drop drops the entry when no fleet is left on it.
func (h Hosts) change(host string, drop bool, fn func(*Host)) error {
	d, err := h.dir(true)
	if err != nil {
		return err
	}
	defer d.Close()
	name := filepath.Base(h.File)
	lock, err := d.LockWithin(name+".lock", lockWait)
	if err != nil {
		return err
	}
	defer lock.Unlock()
	f, err := h.readIn(d)
	if err != nil {
		// A record that does not parse, or is no regular file, is set
		// aside, not lost.
		d.Rename(name, name+".corrupt-"+time.Now().UTC().Format("20060102T150405"))
		f = hostsFile{}
	}
	i := slices.IndexFunc(f.Hosts, func(x Host) bool { return x.Host == host })
	if i < 0 {
		f.Hosts = append(f.Hosts, Host{Host: host})
		i = len(f.Hosts) - 1
	}
	fn(&f.Hosts[i])
	if drop && len(f.Hosts[i].Fleets) == 0 {
		f.Hosts = slices.Delete(f.Hosts, i, i+1)
	}
	sort.Slice(f.Hosts, func(a, b int) bool { return f.Hosts[a].Host < f.Hosts[b].Host })
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return d.WriteAtomic(name, append(b, '\n'), false)
}
