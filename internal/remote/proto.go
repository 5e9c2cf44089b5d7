package remote

import "encoding/json"

// Request is what the client writes on the standard input of `superclaude
// +remote` on the other host: one JSON object, the only way data reaches
// the other side.
type Request struct {
	// Version is the client's superclaude version: the other side answers
	// only a request of its own version (see [ErrVersion]).
	Version string `json:"version"`
	// Op names the operation, Args its arguments (the op's own type).
	Op   string          `json:"op"`
	Args json.RawMessage `json:"args,omitempty"`
}

// Reply is one line of the answer on standard output. An op answers with
// one Reply; a streaming op with one per item, as they come, until it
// ends or the connection goes.
type Reply struct {
	// Version is the answering superclaude's version.
	Version string `json:"version"`
	// Result is the op's result; Error says why there is none.
	Result json.RawMessage `json:"result,omitempty"`
	Error  string          `json:"error,omitempty"`
	// WrongVersion is set when the request was refused for its version.
	WrongVersion bool `json:"wrongVersion,omitempty"`
}

// maxRequest bounds a request: a fleet's part is a few KiB.
const maxRequest = 4 << 20
