package proc

import (
	"testing"
)

func TestGetenvReadsAnotherProcessEnvironment(t *testing.T) {
	cmd := startHelper(t, "sleep", "PROC_TEST_MARK=tmux,123,4")
	id, err := Of(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	v, ok, err := Getenv(id, "PROC_TEST_MARK")
	if err != nil || !ok || v != "tmux,123,4" {
		t.Fatalf("Getenv = %q %v %v, want tmux,123,4", v, ok, err)
	}
	if _, ok, err := Getenv(id, "PROC_TEST_UNSET"); err != nil || ok {
		t.Fatalf("Getenv of an unset key = %v %v", ok, err)
	}
}

func TestGetenvRefusesARecycledIdentity(t *testing.T) {
	cmd := startHelper(t, "sleep", "PROC_TEST_MARK=x")
	id, err := Of(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	id.Start++ // the same PID, held by another process than the one named
	if v, ok, err := Getenv(id, "PROC_TEST_MARK"); err == nil {
		t.Fatalf("Getenv of a wrong identity = %q %v, want an error", v, ok)
	}
}
