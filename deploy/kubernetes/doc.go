// Package kubernetes holds the example manifest for running a fleet member
// as a Kubernetes pod (superclaude.yaml, docs/containers.md) and its test,
// which decodes the manifest strictly into the Kubernetes API types and
// checks it against the Dockerfile and superclaude's own timings.
package kubernetes
