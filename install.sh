#!/bin/sh
# Installs superclaude from its release on GitHub:
#
#   curl -fsSL https://raw.githubusercontent.com/superclaude/superclaude/main/install.sh | sh
#
# It picks the archive for this machine (Linux or macOS, amd64 or arm64),
# checks its SHA-256 against the release's checksums.txt, and installs the
# superclaude binary into a directory on PATH, saying which. Nothing is
# installed when the checksum does not match or the binary does not run here.
#
# Settings, all optional (environment variables):
#   SUPERCLAUDE_VERSION       the version to install, e.g. 0.1.0 (default: the latest release)
#   SUPERCLAUDE_INSTALL_DIR   where to put the binary (default: the first of ~/.local/bin,
#                             ~/bin, /usr/local/bin that is on PATH and writable, else ~/.local/bin)
#   SUPERCLAUDE_DOWNLOAD_URL  where the release's files are (default: the GitHub release);
#                             a mirror, or a local server when testing a snapshot
#
# POSIX sh: no bashisms, so that `| sh` works wherever sh is dash, ash or zsh.
set -eu

repo="https://github.com/superclaude/superclaude"

say() { printf 'superclaude install: %s\n' "$*" >&2; }
die() {
	say "$*"
	exit 1
}

# The release's platform names, from uname.
detect_os() {
	case "$(uname -s)" in
	Linux) echo linux ;;
	Darwin) echo darwin ;;
	*) die "no superclaude release for $(uname -s): there are builds for Linux and macOS only (or build it with Go: go install github.com/superclaude/superclaude/cmd/superclaude@latest)" ;;
	esac
}

detect_arch() {
	arch=$(uname -m)
	# A shell under Rosetta on Apple silicon says x86_64; the native build is
	# the right one there.
	if [ "$arch" = x86_64 ] && [ "$(uname -s)" = Darwin ] &&
		[ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
		arch=arm64
	fi
	case "$arch" in
	x86_64 | amd64) echo amd64 ;;
	aarch64 | arm64) echo arm64 ;;
	*) die "no superclaude release for the $arch processor: there are builds for amd64 (x86_64) and arm64 (aarch64) only" ;;
	esac
}

# fetch URL FILE downloads with curl or wget, failing on an HTTP error.
fetch() {
	if command -v curl >/dev/null 2>&1; then
		curl -fsSL -o "$2" "$1" || die "could not download $1"
	elif command -v wget >/dev/null 2>&1; then
		wget -q -O "$2" "$1" || die "could not download $1"
	else
		die "neither curl nor wget is installed: install one of them and run this again"
	fi
}

# sha256 FILE prints the file's SHA-256 in hex.
sha256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d ' ' -f 1
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -d ' ' -f 1
	elif command -v openssl >/dev/null 2>&1; then
		openssl dgst -sha256 "$1" | sed 's/^.*= *//'
	else
		die "no sha256sum, shasum or openssl to check the download with: install one of them and run this again"
	fi
}

# on_path DIR succeeds when DIR is one of PATH's entries.
on_path() {
	case ":${PATH}:" in
	*":$1:"*) return 0 ;;
	*) return 1 ;;
	esac
}

# open_to_all DIR succeeds when every user may write to DIR (a link to
# it followed): anyone could plant a link where the new binary is copied,
# replace superclaude there later, or put a command of theirs beside it
# on PATH.
open_to_all() {
	case "$(ls -ldL -- "$1" 2>/dev/null)" in
	d???????w*) return 0 ;;
	*) return 1 ;;
	esac
}

# pick_dir prints the directory to install into: never one every user may
# write to.
pick_dir() {
	if [ -n "${SUPERCLAUDE_INSTALL_DIR:-}" ]; then
		echo "$SUPERCLAUDE_INSTALL_DIR"
		return
	fi
	for d in "${HOME}/.local/bin" "${HOME}/bin" /usr/local/bin; do
		if on_path "$d" && [ -d "$d" ] && [ -w "$d" ] && ! open_to_all "$d"; then
			echo "$d"
			return
		fi
	done
	echo "${HOME}/.local/bin"
}

os=$(detect_os)
arch=$(detect_arch)
version=${SUPERCLAUDE_VERSION:-}
version=${version#v}
case "$version" in
*[!0-9A-Za-z.+-]*) die "SUPERCLAUDE_VERSION='$version' is not a version (like 0.1.0)" ;;
esac
if [ -n "${SUPERCLAUDE_DOWNLOAD_URL:-}" ]; then
	base=${SUPERCLAUDE_DOWNLOAD_URL%/}
elif [ -n "$version" ]; then
	base="$repo/releases/download/v$version"
else
	base="$repo/releases/latest/download"
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/superclaude-install.XXXXXX") || die "cannot make a temporary directory"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

say "downloading $base/checksums.txt"
fetch "$base/checksums.txt" "$tmp/checksums.txt"

# The archive's name comes from the checksums file: superclaude_<version>_<os>_<arch>.tar.gz.
# That tells the latest release's version without asking GitHub's API.
if [ -n "$version" ]; then
	archive="superclaude_${version}_${os}_${arch}.tar.gz"
	want=$(awk -v f="$archive" '$2 == f || $2 == "*" f { print $1; exit }' "$tmp/checksums.txt")
else
	line=$(awk -v s="_${os}_${arch}.tar.gz" '
		index($2, "superclaude_") == 1 && substr($2, length($2) - length(s) + 1) == s { print; exit }' "$tmp/checksums.txt")
	want=${line%% *}
	archive=${line##* }
fi
if [ -z "$want" ] || [ -z "$archive" ]; then
	die "the release at $base has no archive for ${os}/${arch}${version:+ in version $version} (not in its checksums.txt)"
fi
case "$archive" in
*/* | .*) die "checksums.txt at $base names '$archive', which is not an archive's name" ;;
esac
case "$want" in
*[!0-9a-f]* | "") die "checksums.txt at $base is malformed: '$want' is not a SHA-256" ;;
esac
[ "${#want}" -eq 64 ] || die "checksums.txt at $base is malformed: '$want' is not a SHA-256"

say "downloading $base/$archive"
fetch "$base/$archive" "$tmp/$archive"
got=$(sha256 "$tmp/$archive")
if [ "$got" != "$want" ]; then
	die "checksum mismatch for $archive: checksums.txt says $want, the download is $got. The download is corrupt or was tampered with; nothing was installed."
fi
say "checksum verified (SHA-256 $got)"

mkdir "$tmp/x"
tar -xzf "$tmp/$archive" -C "$tmp/x" superclaude || die "$archive does not hold a superclaude binary"
[ -f "$tmp/x/superclaude" ] || die "$archive does not hold a superclaude binary"

dir=$(pick_dir)
mkdir -p "$dir" || die "cannot create $dir (set SUPERCLAUDE_INSTALL_DIR to a directory you can write)"
[ -w "$dir" ] || die "cannot write to $dir (run as a user who can, or set SUPERCLAUDE_INSTALL_DIR)"
if open_to_all "$dir"; then
	die "$dir is writable by every user: anyone could replace superclaude there, or put a command of theirs beside it on your PATH. Nothing was installed; set SUPERCLAUDE_INSTALL_DIR to a directory of your own, or chmod o-w $dir"
fi

# Into the directory under a new temporary name nobody can guess (mktemp
# makes the file), tried there (a build for the wrong machine, a
# directory mounted noexec), then renamed over any old copy in one step:
# a running superclaude keeps its file.
new=$(mktemp "$dir/.superclaude.new.XXXXXX") || die "cannot write in $dir"
cat "$tmp/x/superclaude" >"$new" || {
	rm -f "$new"
	die "cannot write $new"
}
chmod 0755 "$new"
if ! ran=$("$new" +version 2>&1); then
	rm -f "$new"
	die "the downloaded superclaude ($archive) does not run on this machine: $ran. Nothing was installed."
fi
mv -f "$new" "$dir/superclaude" || {
	rm -f "$new"
	die "cannot install $dir/superclaude"
}
say "installed $dir/superclaude: $ran"

if ! on_path "$dir"; then
	# The names as the person writes them, not expanded.
	# shellcheck disable=SC2088
	case "${SHELL:-}" in
	*/zsh) rc="~/.zshrc" ;;
	*/bash) rc="~/.bashrc" ;;
	*/fish) rc="~/.config/fish/config.fish" ;;
	*) rc="your shell's startup file" ;;
	esac
	# Written with $HOME when it is under it, as people write it.
	shown=$dir
	case "$dir" in
	"$HOME"/*) shown="\$HOME/${dir#"$HOME"/}" ;;
	esac
	case "${SHELL:-}" in
	*/fish) line="fish_add_path $shown" ;;
	*) line="export PATH=\"$shown:\$PATH\"" ;;
	esac
	say "$dir is not on your PATH. Add this line to $rc, then open a new terminal (or run it in this one):"
	say "    $line"
else
	# Another program of the same name ahead of ours on PATH (the
	# SuperClaude framework's, installed with pip or npm, or an older copy)
	# would be the one that runs.
	first=$(command -v superclaude 2>/dev/null || true)
	if [ -n "$first" ] && [ "$first" != "$dir/superclaude" ]; then
		say "note: 'superclaude' runs $first, which comes before $dir on your PATH."
		say "    That is another program or an older copy (the SuperClaude framework from pip or npm installs a command of the same name)."
		say "    Remove it, or put $dir first on PATH."
	fi
fi
say "run it where you would run claude: superclaude [claude's arguments]"
