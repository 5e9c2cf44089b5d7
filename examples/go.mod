module github.com/superclaude/superclaude/examples

go 1.26.0

require github.com/superclaude/superclaude v0.0.0

require (
	github.com/creack/pty v1.1.24 // indirect
	github.com/fsnotify/fsnotify v1.10.1 // indirect
	github.com/thejerf/suture/v4 v4.0.6 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/term v0.47.0 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)

replace github.com/superclaude/superclaude => ../
