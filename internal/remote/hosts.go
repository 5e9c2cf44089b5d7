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

	"golang.org/x/sys/unix"
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

func (h Hosts) read() (hostsFile, error) {
	var f hostsFile
	b, err := os.ReadFile(h.File)
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
	if err := os.MkdirAll(filepath.Dir(h.File), 0o700); err != nil {
		return err
	}
	lock, err := os.OpenFile(h.File+".lock", os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := unix.Flock(int(lock.Fd()), unix.LOCK_EX); err != nil {
		return err
	}
	f, err := h.read()
	if err != nil {
		// A record that does not parse is set aside, not lost.
		os.Rename(h.File, h.File+".corrupt-"+time.Now().UTC().Format("20060102T150405"))
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
	// Under the lock no other writer uses the temporary name; a link
	// planted there is not followed.
	tmp := h.File + ".tmp"
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	_, err = out.Write(append(b, '\n'))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Rename(tmp, h.File)
}
