//go:build linux || darwin

package proc

import "strings"

// Getenv returns the value of key in the environment the process id was
// started with, and whether it was set. The identity is verified after the
// read, so that a value read from a process that has since given its PID
// to another is never returned. Only processes of the same user can be
// read.
func Getenv(id Identity, key string) (string, bool, error) {
	env, err := environ(id.PID)
	if err != nil {
		return "", false, err
	}
	if err := id.Verify(); err != nil {
		return "", false, err
	}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v, true, nil
		}
	}
	return "", false, nil
}
