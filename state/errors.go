package state

import (
	"errors"
	"fmt"
	"time"
)

// Error reports a state file that failed to parse or validate. It names the
// file and, when one field is at fault, that field.
type Error struct {
	// File is the path of the state file.
	File string
	// Field is the JSON key at fault; empty when the document itself is
	// unreadable (empty, truncated, not an object).
	Field string
	// Problem says what is wrong.
	Problem string
	// KeptAs is where the file was moved aside, when it was.
	KeptAs string
}

// Error names the file and, where known, the field or the limit.
func (e *Error) Error() string {
	file := e.File
	if file == "" {
		file = ".state.json"
	}
	msg := file + ": "
	if e.Field != "" {
		msg += fmt.Sprintf("field %q: ", e.Field)
	}
	msg += e.Problem
	if e.KeptAs != "" {
		msg += "; the file was kept aside as " + e.KeptAs
	}
	return msg
}

// ErrCorrupt matches every [*Error] with errors.Is.
var ErrCorrupt = errors.New("corrupt state file")

// Is makes errors.Is(err, ErrCorrupt) true for every *Error.
func (e *Error) Is(target error) bool { return target == ErrCorrupt }

// fieldError is an *Error before the file name is known.
type fieldError struct {
	field, problem string
}

func (e *fieldError) Error() string {
	if e.field == "" {
		return e.problem
	}
	return fmt.Sprintf("field %q: %s", e.field, e.problem)
}

func asError(file string, err error) error {
	var fe *fieldError
	if errors.As(err, &fe) {
		return &Error{File: file, Field: fe.field, Problem: fe.problem}
	}
	var e *Error
	if errors.As(err, &e) {
		c := *e
		c.File = file
		return &c
	}
	return err
}

// ClockSkew is how far in the future a timestamp may be before it is
// refused: enough for clocks stepped by NTP, far less than a bad write.
const ClockSkew = time.Minute

// validate checks what decoding alone does not: required values, and times
// that cannot have happened yet.
func (s *State) validate(now time.Time) error {
	if s.Lifecycle == "" {
		return &fieldError{"lifecycle", "required field is missing"}
	}
	if !validLifecycle(s.Lifecycle) {
		return &fieldError{"lifecycle", fmt.Sprintf("%q is not one of %s", s.Lifecycle, lifecycleList())}
	}
	if s.StartedAt.IsZero() {
		return &fieldError{"startedAt", "required field is missing"}
	}
	if s.PID < 0 {
		return &fieldError{"pid", "want a whole number ≥ 0"}
	}
	limit := now.Add(ClockSkew)
	for _, t := range []struct {
		name string
		v    time.Time
	}{{"startedAt", s.StartedAt}, {"lastHeartbeat", s.LastHeartbeat}, {"activatedAt", s.ActivatedAt}} {
		if !t.v.IsZero() && t.v.After(limit) {
			return &fieldError{t.name, fmt.Sprintf("%s is in the future", FormatTime(t.v))}
		}
	}
	return nil
}
