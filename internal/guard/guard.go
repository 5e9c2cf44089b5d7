// Package guard owns what must happen when superclaude panics: a panic in
// any goroutine ends the whole program without running other goroutines'
// deferred calls, so the terminal a supervisor put in raw mode would stay
// raw. Every goroutine superclaude starts defers [Recover], which runs the
// registered cleanups (restoring the terminal) before the program dies.
package guard

import (
	"fmt"
	"os"
	"runtime/debug"
	"sync"
)

var (
	mu       sync.Mutex
	next     int
	cleanups = map[int]func(){}
)

// AtPanic registers f to run if any guarded goroutine panics. The returned
// function unregisters it.
func AtPanic(f func()) (remove func()) {
	mu.Lock()
	defer mu.Unlock()
	id := next
	next++
	cleanups[id] = f
	return func() {
		mu.Lock()
		delete(cleanups, id)
		mu.Unlock()
	}
}

// Cleanup runs the registered cleanups.
func Cleanup() {
	mu.Lock()
	fs := make([]func(), 0, len(cleanups))
	for _, f := range cleanups {
		fs = append(fs, f)
	}
	mu.Unlock()
	for _, f := range fs {
		func() {
			defer func() { recover() }()
			f()
		}()
	}
}

// Recover must be deferred directly at the top of a goroutine. On a panic it
// runs the cleanups, prints the panic and stack to stderr (the terminal is
// restored by then), and exits with status 2, as an unrecovered panic does.
func Recover() {
	r := recover()
	if r == nil {
		return
	}
	Cleanup()
	fmt.Fprintf(os.Stderr, "superclaude: panic: %v\n\n%s", r, debug.Stack())
	os.Exit(2)
}

// Go runs f in a guarded goroutine.
func Go(f func()) {
	go func() {
		defer Recover()
		f()
	}()
}
