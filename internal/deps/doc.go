// Package deps holds no code: its tests check how superclaude's packages
// depend on each other and on other modules (docs/design.md#layers):
//
//   - imports point one way, down the layer table in deps_test.go, which
//     docs/design.md shows (design_test.go);
//   - no package reaches a dependency forbidden to it, in the style of
//     tailscale's deptest (forbidden_test.go);
//   - no product package imports a test double from testkit;
//   - no package known to touch the terminal at init is linked into the
//     binary (init_test.go);
//   - no exported name of the library takes, returns or holds a type of an
//     internal package (public_test.go).
package deps
