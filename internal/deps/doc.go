// Package deps holds no code: its test checks that superclaude's packages
// import each other in one direction only (DESIGN.md: cmd → supervise →
// {child, watchdog, state, internal/claude …} → proc), that no
// product package imports a test double from testkit, and that
// no package known to touch the terminal at init is linked into the binary.
package deps
