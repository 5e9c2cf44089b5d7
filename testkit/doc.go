// Package testkit holds no code: its subpackages are what the tests of the
// module share, and nothing else may import them (internal/deps checks
// that only _test.go files do). They live here, out of the product's
// packages, so that reading internal/ or the library shows only the
// product.
//
//   - reexec: a test binary started again as a helper process; every
//     TestMain of the module is reexec.Main.
//   - fakeagent: an agent CLI that behaves as Claude Code does where
//     superclaude depends on it, played by a re-executed test binary.
//   - fakeapi: a fake of Anthropic's Messages API on 127.0.0.1, good
//     enough to run the real Claude Code CLI offline (e2e/). The fakes of
//     other model APIs sit beside it, one package each (fakeopenai,
//     fakegemini).
//   - testbin: the superclaude binary built once per test binary, and a
//     program on a pseudo-terminal the test holds.
//   - fleetworld: a fleet test's private tmux server and environment.
//   - sshworld: a real sshd on 127.0.0.1 and other local users reached
//     only through it, the other hosts of a fleet across machines.
package testkit
