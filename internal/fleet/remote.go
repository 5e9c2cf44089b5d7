package fleet

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/BurntSushi/toml"
	"golang.org/x/sys/unix"

	"github.com/superclaude/superclaude/internal/remote"
	"github.com/superclaude/superclaude/internal/tmux"
)

// The ops of `superclaude +remote` that bring a fleet's part on a host up
// and down. The asking side sends the part as a fleet file (TOML) in the
// request — data, never a command line — and the host keeps it in its
// state directory, under a name made from where it came from, and runs
// the same Up and Down on it as `+up` and `+down` do on this machine: the
// same checks, the same marks, the same turn gate and sweep, nothing
// foreign touched.
const (
	OpUp   = "fleet-up"
	OpDown = "fleet-down"
)

// Remote is how Up and Down reach a fleet's other hosts.
type Remote struct {
	SSH *remote.SSH
	// Version is this superclaude's version, which each host must have.
	Version string
	// Hosts is the user's record of the hosts their fleets run on: Up
	// adds the fleet there, Down removes it.
	Hosts remote.Hosts
	// Timeout bounds each request (2 minutes when zero: a Down waits for
	// the agents' turns).
	Timeout time.Duration
}

func (r *Remote) client(host string) *remote.Client {
	return &remote.Client{SSH: r.SSH, Host: host, Version: r.Version}
}

func (r *Remote) call(ctx context.Context, host, op string, args, result any) error {
	t := r.Timeout
	if t <= 0 {
		t = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, t)
	defer cancel()
	return r.client(host).Call(ctx, op, args, result)
}

// UpArgs asks a host to bring its part of a fleet up.
type UpArgs struct {
	// Origin names the fleet file on the asking machine (its host name
	// and the file's path). The host keeps the part under a name made
	// from it, the same at every +up, so that each pane finds its
	// sessions, and its conversation, again.
	Origin string `json:"origin"`
	// Name is the fleet's name.
	Name string `json:"name"`
	// Part is the host's part of the fleet file, TOML.
	Part string `json:"part"`
	// Check only checks every pane there.
	Check bool `json:"check,omitempty"`
}

// HostUp is what Up did on one host.
type HostUp struct {
	Host string `json:"host"`
	// Started and Running count the panes, as UpReport's do.
	Started   int      `json:"started"`
	Running   int      `json:"running"`
	Worktrees []string `json:"worktrees,omitempty"`
	// File is where the host keeps the part, SessionsDir its panes'
	// sessions, Tmux the options of the tmux server there.
	File        string   `json:"file"`
	SessionsDir string   `json:"sessionsDir"`
	Tmux        []string `json:"tmux,omitempty"`
}

// DownArgs asks a host to bring its part of a fleet down.
type DownArgs struct {
	Origin string        `json:"origin"`
	Name   string        `json:"name"`
	Now    bool          `json:"now,omitempty"`
	Grace  time.Duration `json:"grace,omitempty"`
}

// HostDown is what Down did on one host.
type HostDown struct {
	Host string `json:"host"`
	DownReport
	// NotUp says the part was not up there.
	NotUp bool `json:"notUp,omitempty"`
	// Err is why the host could not be brought down (nil when it was).
	Err error `json:"-"`
}

// Origin names fleet file file of this machine to other hosts.
func Origin(file string) string {
	host, _ := os.Hostname()
	return host + ":" + file
}

// encodePart writes a host's part as a fleet file.
func encodePart(part *Spec) (string, error) {
	var b bytes.Buffer
	b.WriteString("# A part of a fleet, kept by superclaude +up from another machine.\n")
	if err := toml.NewEncoder(&b).Encode(part); err != nil {
		return "", err
	}
	return b.String(), nil
}

// upAcross brings up a fleet with parts on other hosts: every part is
// checked first — this machine's panes here, each host's there, all at
// once — and nothing is created anywhere unless every check passes. Then
// this machine's part comes up (as a whole, or not at all), then the
// hosts' parts, each as a whole. A host that fails then leaves the others
// up, and the error says which are: `+down` takes them down.
func upAcross(s *Spec, hosts []string, o Options) (UpReport, error) {
	if o.Remote == nil {
		return UpReport{}, fmt.Errorf("fleet %s runs on other hosts (%s), and this superclaude cannot reach them", s.Name, strings.Join(hosts, ", "))
	}
	here := s.Part("")
	args := make(map[string]UpArgs, len(hosts))
	for _, h := range hosts {
		text, err := encodePart(s.Part(h))
		if err != nil {
			return UpReport{}, err
		}
		args[h] = UpArgs{Origin: Origin(s.File), Name: s.Name, Part: text}
	}
	// Check everywhere at once.
	errs := make([]error, len(hosts)+1)
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Go(func() {
			a := args[h]
			a.Check = true
			if err := o.Remote.call(context.Background(), h, OpUp, a, nil); err != nil {
				errs[i] = onHost(h, err)
			}
		})
	}
	if len(here.Windows) > 0 {
		co := o
		co.Check = true
		if _, err := upHere(here, co); err != nil {
			errs[len(hosts)] = err
		}
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return UpReport{}, err
	}

	var rep UpReport
	if len(here.Windows) > 0 {
		var err error
		if rep, err = upHere(here, o); err != nil {
			return UpReport{}, err
		}
	}
	rep.Hosts = make([]HostUp, len(hosts))
	for i, h := range hosts {
		wg.Go(func() {
			var r HostUp
			if err := o.Remote.call(context.Background(), h, OpUp, args[h], &r); err != nil {
				errs[i] = onHost(h, err)
				return
			}
			r.Host = h
			rep.Hosts[i] = r
			o.Remote.Hosts.AddFleet(h, s.File)
		})
	}
	wg.Wait()
	var up, failed []string
	if len(here.Windows) > 0 {
		up = append(up, "this machine")
	}
	for i, h := range hosts {
		if errs[i] == nil {
			up = append(up, h)
		} else {
			failed = append(failed, errs[i].Error())
		}
	}
	if len(failed) > 0 {
		msg := fmt.Sprintf("fleet %s did not come up everywhere: %s", s.Name, strings.Join(failed, "; "))
		if len(up) > 0 {
			msg += fmt.Sprintf(" (it is up on %s: superclaude +down %s stops it)", strings.Join(up, ", "), s.File)
		}
		return rep, errors.New(msg)
	}
	return rep, nil
}

// DownAll brings down a fleet, on this machine and on every host it
// names: each part as Down does, all at once. It fails with ErrNotUp only
// when the fleet is up nowhere. When ctx ends, this machine's part is left
// as Down leaves it (ErrInterrupted); a host's part is brought down there
// to the end all the same, as that host's +down would.
func DownAll(ctx context.Context, s *Spec, o Options) (DownReport, []HostDown, error) {
	hosts := s.Hosts()
	if len(hosts) == 0 {
		rep, err := Down(ctx, s.Name, s.File, o)
		return rep, nil, err
	}
	if o.Remote == nil {
		return DownReport{}, nil, fmt.Errorf("fleet %s runs on other hosts (%s), and this superclaude cannot reach them", s.Name, strings.Join(hosts, ", "))
	}
	out := make([]HostDown, len(hosts))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Go(func() {
			d := HostDown{Host: h}
			d.Err = o.Remote.call(context.Background(), h, OpDown, DownArgs{Origin: Origin(s.File), Name: s.Name, Now: o.Now, Grace: o.Grace}, &d)
			d.Host = h
			if d.Err == nil {
				o.Remote.Hosts.RemoveFleet(h, s.File)
			}
			out[i] = d
		})
	}
	rep, err := Down(ctx, s.Name, s.File, o)
	wg.Wait()
	var done []string
	for _, d := range out {
		if d.Err == nil {
			done = append(done, d.Host)
		}
	}
	o.Remote.release(done)
	upSomewhere := err == nil
	var errs []error
	if err != nil && !errors.Is(err, ErrNotUp) {
		errs = append(errs, err)
	}
	for _, d := range out {
		switch {
		case d.Err != nil:
			errs = append(errs, onHost(d.Host, d.Err))
		case !d.NotUp:
			upSomewhere = true
		}
	}
	if len(errs) > 0 {
		return rep, out, errors.Join(errs...)
	}
	if !upSomewhere {
		return rep, out, fmt.Errorf("%w: not on this machine, nor on %s", ErrNotUp, strings.Join(hosts, ", "))
	}
	return rep, out, nil
}

// release closes the shared ssh connection (ssh -O exit) to each of hosts
// that no fleet of the user's still has a part on, as the record of hosts
// says: once a fleet is down, nothing of it is left on either side, not
// even a connection that would otherwise persist for minutes. A host that
// another fleet still runs on keeps its connection, for that fleet's
// views. Having no connection to close is no error.
func (r *Remote) release(hosts []string) {
	for _, h := range hosts {
		if len(r.Hosts.Get(h).Fleets) == 0 {
			r.SSH.Forget(h)
		}
	}
}

// HostSide is what superclaude on a host needs to serve OpUp and OpDown.
type HostSide struct {
	// StateDir is superclaude's state directory there: the parts are kept
	// in its hosted/ directory, and recorded (Record) in its fleets/ as a
	// fleet of this host's, so that `+down NAME` there finds it too.
	StateDir string
	// Exe is the superclaude each pane runs.
	Exe string
	// Server chooses the tmux server of a part (its socket key, else the
	// default of this user's).
	Server func(*Spec) tmux.Server
}

// partFile is where a host keeps the part of fleet name from origin: a
// directory of its own per origin, whose name a person can read.
func (h HostSide) partFile(origin, name string) (string, error) {
	if !nameRE().MatchString(name) {
		return "", fmt.Errorf("fleet name %q: only letters, digits, '-' and '_' (%s)", name, whyPlainNames)
	}
	sum := sha256.Sum256([]byte(origin))
	return filepath.Join(h.StateDir, "hosted", name+"-"+hex.EncodeToString(sum[:6]), "fleet.toml"), nil
}

// Up brings a part up on this host (or only checks it).
func (h HostSide) Up(a UpArgs) (HostUp, error) {
	file, err := h.partFile(a.Origin, a.Name)
	if err != nil {
		return HostUp{}, err
	}
	if _, err := os.Stat(filepath.Dir(file)); err != nil && a.Check {
		// A check leaves nothing behind: not even the part's directory.
		// (Deferred: the last one first, after .next is gone.)
		defer os.Remove(filepath.Dir(filepath.Dir(file)))
		defer os.Remove(filepath.Dir(file))
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return HostUp{}, err
	}
	next := file + ".next"
	if err := writePrivate(next, a.Part); err != nil {
		return HostUp{}, err
	}
	defer os.Remove(next)
	s, err := Load(next)
	if err != nil {
		return HostUp{}, err
	}
	if s.Name != a.Name || len(s.Hosts()) > 0 {
		return HostUp{}, fmt.Errorf("the part of fleet %s names another fleet or more hosts", a.Name)
	}
	s.File = file
	o := Options{Tmux: h.Server(s), Exe: h.Exe, Check: a.Check}
	if a.Check {
		_, err := Up(s, o)
		return HostUp{}, err
	}
	if err := os.Rename(next, file); err != nil {
		return HostUp{}, err
	}
	rep, err := Up(s, o)
	if err != nil {
		return HostUp{}, err
	}
	WriteRecord(filepath.Join(h.StateDir, "fleets"), s, o.Tmux)
	return HostUp{Started: rep.Started, Running: rep.Running, Worktrees: rep.Worktrees,
		File: file, SessionsDir: s.SessionsDir(), Tmux: o.Tmux.Flags()}, nil
}

// Down brings a part down on this host.
func (h HostSide) Down(a DownArgs) (HostDown, error) {
	file, err := h.partFile(a.Origin, a.Name)
	if err != nil {
		return HostDown{}, err
	}
	s, err := Load(file)
	if errors.Is(err, os.ErrNotExist) {
		return HostDown{NotUp: true}, nil
	}
	if err != nil {
		return HostDown{}, err
	}
	rep, err := Down(context.Background(), s.Name, s.File, Options{Tmux: h.Server(s), Now: a.Now, Grace: a.Grace})
	if err == nil || errors.Is(err, ErrNotUp) {
		MarkDown(filepath.Join(h.StateDir, "fleets"), s.Name, s.File)
	}
	if errors.Is(err, ErrNotUp) {
		return HostDown{NotUp: true}, nil
	}
	return HostDown{DownReport: rep}, err
}

// writePrivate writes text to path, a new file of mode 0600, never
// through what is there: whatever is at path — a symbolic link, or a hard
// link to another of the user's files, which O_NOFOLLOW does not see — is
// removed first, and the file is created only if nothing was put back
// meanwhile.
func writePrivate(path, text string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// SessionsDir is where the part of fleet name from origin keeps its
// panes' sessions on this host.
func (h HostSide) SessionsDir(origin, name string) (string, error) {
	file, err := h.partFile(origin, name)
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(file), "sessions"), nil
}

// onHost names the host an error came from, unless the error names it
// first already (the ssh client's own errors do: "box: superclaude is
// not installed there"), which read "on box: box: …" otherwise.
func onHost(host string, err error) error {
	if strings.HasPrefix(err.Error(), host+": ") {
		return fmt.Errorf("on %w", err)
	}
	return fmt.Errorf("on %s: %w", host, err)
}
