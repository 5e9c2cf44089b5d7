package leader

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/proc"
)

// EncodeSpec writes the agent's command for the leader: NUL-separated
// fields (no argument or environment entry can hold a NUL).
func EncodeSpec(path, dir string, args, env []string) []byte {
	var b bytes.Buffer
	for _, f := range []string{path, dir, strconv.Itoa(len(args))} {
		b.WriteString(f)
		b.WriteByte(0)
	}
	for _, f := range append(append([]string{}, args...), env...) {
		b.WriteString(f)
		b.WriteByte(0)
	}
	return b.Bytes()
}

// How a command reaches the leader on its control socket: a header of
// frameHeader bytes, the command's length (big-endian), sent with the
// agent's terminal as ancillary data (SCM_RIGHTS), then the command
// (EncodeSpec). Nothing bounds an environment but maxSpec.
const (
	frameHeader = 8
	maxSpec     = 64 << 20
)

var (
	errEOF     = io.EOF
	errTooLong = errors.New("the agent's command is longer than 64 MiB")
)

// Frame returns what the supervisor sends for spec (EncodeSpec's) on the
// leader's control socket: the header with its ancillary data, the
// terminal tty's descriptor (one sendmsg), then spec itself.
func Frame(spec []byte, tty int) (hdr, oob []byte) {
	hdr = make([]byte, frameHeader)
	for i, n := 0, uint64(len(spec)); i < frameHeader; i++ {
		hdr[frameHeader-1-i] = byte(n >> (8 * i))
	}
	return hdr, syscall.UnixRights(tty)
}

// frameSize reads a header's length.
func frameSize(hdr [frameHeader]byte) uint64 {
	var n uint64
	for _, b := range hdr {
		n = n<<8 | uint64(b)
	}
	return n
}

// DecodeSpec reads what EncodeSpec wrote.
func DecodeSpec(b []byte) (path, dir string, args, env []string, err error) {
	f := strings.Split(string(b), "\x00")
	if len(f) < 4 || f[len(f)-1] != "" {
		return "", "", nil, nil, errors.New("short agent command")
	}
	f = f[:len(f)-1]
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 0 || 3+n > len(f) {
		return "", "", nil, nil, errors.New("bad argument count")
	}
	return f[0], f[1], f[3 : 3+n], f[3+n:], nil
}

// Event is one report of the leader.
type Event struct {
	Kind   string // start, stop, cont, exit, error
	ID     proc.Identity
	Signal syscall.Signal
	Status syscall.WaitStatus
	Code   int
	Err    error
}

// ParseEvent reads one report line.
func ParseEvent(line string) (Event, error) {
	kind, rest, _ := strings.Cut(strings.TrimRight(line, "\n"), " ")
	ev := Event{Kind: kind}
	switch kind {
	case "start":
		id, err := proc.Parse(rest)
		if err != nil {
			return ev, err
		}
		ev.ID = id
	case "stop":
		n, err := strconv.Atoi(rest)
		if err != nil {
			return ev, err
		}
		ev.Signal = syscall.Signal(n)
	case "cont":
	case "exit":
		n, err := strconv.ParseUint(rest, 10, 32)
		if err != nil {
			return ev, err
		}
		ev.Status = syscall.WaitStatus(n)
	case "error":
		code, msg, _ := strings.Cut(rest, " ")
		n, err := strconv.Atoi(code)
		if err != nil {
			return ev, err
		}
		ev.Code, ev.Err = n, errors.New(msg)
	default:
		return ev, errors.New("unknown report " + strconv.Quote(line))
	}
	return ev, nil
}

// ReadEvents reads reports until the leader closes its end.
func ReadEvents(r io.Reader, each func(Event)) {
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			if ev, perr := ParseEvent(line); perr == nil {
				each(ev)
			}
		}
		if err != nil {
			return
		}
	}
}

// WithAgentParent returns env with envvar.AgentParent set for an agent
// that pid starts with args; adopts says pid is a subreaper. (Env nil means
// the parent's environment, as for os/exec.)
//
// The variable names, in the agent's environment, the PID of its parent:
// the session leader, or the supervisor when there is no pty. A program
// can tell from it that it is the agent a supervisor started (or what the
// agent exec'd), not a process the agent started: superclaude, found as
// claude through a shell script that execs it, steps aside by it
// (internal/handover, which reads the value envvar.AgentParentValue
// writes).
func WithAgentParent(env []string, pid int, args []string, adopts bool) []string {
	if env == nil {
		env = os.Environ()
	}
	env = slices.DeleteFunc(slices.Clone(env), func(kv string) bool { return strings.HasPrefix(kv, envvar.AgentParent+"=") })
	value := envvar.AgentParentValue(pid, args)
	if adopts {
		value += envvar.Adopts
	}
	return append(env, envvar.AgentParent+"="+value)
}
