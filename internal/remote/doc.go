// Package remote owns superclaude's reach beyond this machine. The
// transport is the user's own OpenSSH client — their keys, their agent,
// their ~/.ssh/config and known_hosts — and never a daemon or a network
// protocol of superclaude's: on the other host, superclaude runs as a
// command of that user's, started over ssh, and answers on its standard
// output.
//
// What it owns:
//
//   - [Quote] and [RemoteCommand]: ssh joins the words of a remote
//     command into one string that the remote user's shell parses, so
//     every word is quoted here for a POSIX shell. What a person wrote (a
//     session name, a fleet's directory) never goes that way at all: it
//     travels on standard input as JSON data, and the remote command line
//     is a constant of this package.
//   - [CheckDestination]: which ssh destinations a fleet file may name (no
//     option smuggled in as a host name).
//   - [SSH]: the client's command lines. Connections are shared with
//     OpenSSH's ControlMaster and kept for a while with ControlPersist, in
//     a private directory, so that a view's refresh costs no handshake.
//     Host-key checking is left exactly as the user configured it.
//   - [Client] and [Serve]: the two ends of one request and its answer —
//     the typed client of `superclaude +remote` on the other host.
//   - [Hosts]: the hosts this user's fleets run on, and for each the time
//     of its last good answer, for the views.
package remote
