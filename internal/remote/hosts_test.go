package remote

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestHostsRecord(t *testing.T) {
	h := Hosts{File: filepath.Join(t.TempDir(), "state", HostsFile)}
	if list, err := h.List(); err != nil || len(list) != 0 {
		t.Fatalf("a new record: %v %v", list, err)
	}
	h.AddFleet("b", "/f1.toml")
	h.AddFleet("a", "/f1.toml")
	h.AddFleet("a", "/f2.toml")
	h.AddFleet("a", "/f1.toml")
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	h.Answered("a", at, nil)
	h.Answered("a", at.Add(time.Minute), errors.New("Connection refused"))
	list, err := h.List()
	if err != nil || len(list) != 2 || list[0].Host != "a" || len(list[0].Fleets) != 2 {
		t.Fatalf("record: %+v %v", list, err)
	}
	if a := list[0]; !a.LastGood.Equal(at) || !a.LastTry.Equal(at.Add(time.Minute)) || a.LastError != "Connection refused" {
		t.Fatalf("host a: %+v: want the last good answer at %v and the failure a minute later", a, at)
	}
	h.RemoveFleet("a", "/f1.toml")
	h.RemoveFleet("a", "/f2.toml")
	if list, _ := h.List(); len(list) != 1 || list[0].Host != "b" {
		t.Fatalf("a host with no fleet up stays in the record: %+v", list)
	}
	fi, err := os.Stat(h.File)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the record's mode: %v %v", fi.Mode(), err)
	}
	if fi, err := os.Stat(filepath.Dir(h.File)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the state directory's mode: %v %v", fi.Mode(), err)
	}
}

// Views record answers while +up records fleets: no change is lost.
func TestHostsConcurrentChangesKeepEveryFleet(t *testing.T) {
	h := Hosts{File: filepath.Join(t.TempDir(), HostsFile)}
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(2)
		go func() { defer wg.Done(); h.AddFleet("box", filepath.Join("/fleet", string(rune('a'+i)))) }()
		go func() { defer wg.Done(); h.Answered("box", time.Now(), nil) }()
	}
	wg.Wait()
	if got := h.Get("box"); len(got.Fleets) != 20 {
		t.Fatalf("%d of 20 fleets recorded", len(got.Fleets))
	}
}

// A record that does not parse is set aside and a new one started.
func TestHostsCorruptRecordIsKeptAside(t *testing.T) {
	dir := t.TempDir()
	h := Hosts{File: filepath.Join(dir, HostsFile)}
	os.WriteFile(h.File, []byte("{not json"), 0o600)
	if _, err := h.List(); err == nil {
		t.Fatal("a corrupt record read without an error")
	}
	if err := h.AddFleet("box", "/f.toml"); err != nil {
		t.Fatal(err)
	}
	aside, _ := filepath.Glob(h.File + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("the corrupt record was not kept aside: %v", aside)
	}
	if got := h.Get("box"); len(got.Fleets) != 1 {
		t.Fatalf("after a corrupt record: %+v", got)
	}
}

// Attack: the record of hosts was read with os.ReadFile and written
// through a fixed ".tmp" name, under a lock waited on for ever. A FIFO
// planted at hosts.json (by a neighbour of the same user) hung +status,
// +dashboard and +up for ever; a link to /dev/zero there filled the
// memory; a hard link planted at the temporary name had the record
// written into the file it shares. The record is reached through safefs:
// nothing planted is followed or waited on, and a change puts what is
// there aside and starts a new record.
func TestAttackHostsRecordPlantedFIFOHangsNothing(t *testing.T) {
	dir := t.TempDir()
	h := Hosts{File: filepath.Join(dir, HostsFile)}
	if err := syscall.Mkfifo(h.File, 0o600); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o600)
	os.Link(victim, h.File+".tmp")
	done := make(chan error, 1)
	go func() {
		h.Up()
		done <- h.AddFleet("box", "/f/fleet.toml")
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("AddFleet with a FIFO planted at the record: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the record's reader still waits on a FIFO after 5 s")
	}
	if up := h.Up(); len(up) != 1 || up[0] != "box" {
		t.Errorf("the record after the change: %q", up)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Errorf("the file linked at the temporary name was written: %q", b)
	}
}
