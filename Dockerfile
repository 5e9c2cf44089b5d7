# syntax=docker/dockerfile:1
#
# superclaude and Claude Code in one image, superclaude as the entrypoint and
# PID 1: it runs claude under its supervisor, reaps every orphan of the
# container, and on `docker stop` or a pod's deletion (SIGTERM) lets claude
# finish its turn before stopping it (docs/containers.md).
#
#   docker build -t superclaude .
#   docker run -it --rm -v superclaude-home:/home/agent -e ANTHROPIC_API_KEY superclaude
#   docker stop -t 90 …          # the turn may take up to a minute
#
# Arguments after the image name go to claude, as they would after
# `superclaude` anywhere (`… superclaude -p "hi"`).
#
# Build arguments: CLAUDE_VERSION, the Claude Code CLI to install from npm
# (the version the end-to-end tests run); VERSION, COMMIT and DATE, what
# `superclaude +version` prints (make image sets them from git).

ARG GO_VERSION=1.26
ARG DEBIAN=trixie

# superclaude: a static binary (no cgo), so the image needs no Go runtime
# and the binary no particular libc.
FROM golang:${GO_VERSION}-${DEBIAN} AS superclaude
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
ARG COMMIT=
ARG DATE=
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false \
      -ldflags "-s -w \
        -X github.com/superclaude/superclaude/internal/version.version=${VERSION} \
        -X github.com/superclaude/superclaude/internal/version.commit=${COMMIT} \
        -X github.com/superclaude/superclaude/internal/version.date=${DATE}" \
      -o /out/superclaude ./cmd/superclaude

# Claude Code: its npm package ships the CLI as a native binary in a
# package per platform. It is taken from there directly: no install script
# runs, and the image needs no Node.js.
FROM node:22-${DEBIAN}-slim AS claude
ARG CLAUDE_VERSION=2.1.330
RUN npm install --prefix /opt/claude --no-audit --no-fund --ignore-scripts \
      "@anthropic-ai/claude-code@${CLAUDE_VERSION}" \
 && arch="$(uname -m | sed -e s/x86_64/x64/ -e s/aarch64/arm64/)" \
 && install -D -m 0755 "/opt/claude/node_modules/@anthropic-ai/claude-code-linux-${arch}/claude" /out/claude

# The image: Debian's glibc (the native claude needs it), git and ripgrep
# for claude's tools, and a user of its own. Claude Code refuses to skip
# its permission prompts as root; superclaude needs no privilege.
FROM debian:${DEBIAN}-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates git openssh-client procps ripgrep less \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --create-home --uid 1000 --user-group --shell /bin/bash agent \
 && mkdir -p /home/agent/work \
 && chown -R agent:agent /home/agent
COPY --from=claude /out/claude /usr/local/bin/claude
COPY --from=superclaude /out/superclaude /usr/local/bin/superclaude
# Everything claude and superclaude keep lives under HOME — claude's
# ~/.claude and ~/.claude.json, superclaude's ~/.local/state/superclaude
# with the sessions — so one volume at /home/agent keeps it across
# restarts. Claude cannot update itself in place here: the image is
# rebuilt instead.
ENV HOME=/home/agent \
    DISABLE_AUTOUPDATER=1
USER agent
WORKDIR /home/agent/work
# SIGTERM, the default, said for the reader: superclaude as PID 1 waits for
# claude's turn on it (supervise/init.go).
STOPSIGNAL SIGTERM
# The exec form: superclaude itself is PID 1, not a shell.
ENTRYPOINT ["/usr/local/bin/superclaude"]
