#!/bin/sh
# Runs a command where only the loopback network exists, when this machine
# allows it (root, unshare, ip): the real Claude Code CLI under test must
# reach nothing but the fake API on 127.0.0.1. The test also sets the three
# variables that keep the CLI quiet, so without a namespace it still only
# talks to 127.0.0.1; the namespace makes sure of it.
set -eu
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null 2>&1 && command -v ip >/dev/null 2>&1 &&
	unshare -n true 2>/dev/null; then
	echo "e2e: running in a network namespace with only loopback" >&2
	exec unshare -n sh -c 'ip link set lo up && exec "$@"' sh "$@"
fi
echo "e2e: no network namespace here (needs root, unshare and ip); relying on the CLI's quiet variables" >&2
exec "$@"
