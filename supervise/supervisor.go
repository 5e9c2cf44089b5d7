package supervise

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/thejerf/suture/v4"

	"github.com/superclaude/superclaude/child"
	"github.com/superclaude/superclaude/internal/control"
	"github.com/superclaude/superclaude/internal/envvar"
	"github.com/superclaude/superclaude/internal/guard"
	"github.com/superclaude/superclaude/proc"
	"github.com/superclaude/superclaude/state"
	"github.com/superclaude/superclaude/watchdog"
)

// Config is one supervised run.
type Config struct {
	// Profile drives the agent CLI; Claude when zero.
	Profile Profile
	// Command is the executable; Profile.Command when empty.
	Command string
	// Args are the user's arguments for the agent.
	Args []string
	// Env is the agent's base environment; os.Environ() when nil. The
	// supervisor adds its own variables (SUPERCLAUDE_SUPERVISOR, its
	// identity, which marks every process the agent starts;
	// SUPERCLAUDE_SOCKET, its control socket; and the sessions directory
	// and pane), replacing any inherited from an outer supervisor.
	Env []string
	// Dir is the agent's working directory; ours when empty.
	Dir string
	// Terminal is our terminal; nil runs the agent without a pty.
	Terminal *child.Terminal
	// Store is the sessions directory; nil runs without sessions (no fleet
	// resume, no overflow restart).
	Store *state.Store
	// Pane is this pane's identity ("" outside a fleet).
	Pane string
	// Grace is how long the agent gets between SIGTERM and SIGKILL.
	Grace time.Duration
	// Policy tunes Decide.
	Policy Policy
	// FailureThreshold, FailureDecay and FailureBackoff are suture's: the
	// crash-intensity limit. Past the threshold the supervisor stops.
	FailureThreshold float64
	FailureDecay     time.Duration
	FailureBackoff   time.Duration
	// CrashDelay is the pause before restarting a crashed agent.
	CrashDelay time.Duration
	// Socket is the control socket's path; when empty, a socket named
	// after the supervisor's PID in the user's runtime directory.
	Socket string
	// Listener, when set, is the control socket already listening at
	// Socket, made by the program before the run (control.ListenPID):
	// superclaude names the socket in claude's settings before the
	// supervisor starts (OwnVariables). The run closes it.
	Listener *net.UnixListener
	// Log receives the supervisor's log; nothing is ever printed to the
	// terminal while the agent owns it.
	Log *slog.Logger
	// ResumePolicy says what a start does when its pane's previous
	// conversation can be resumed: ResumeAuto, ResumeAsk (the default) or
	// ResumeNever.
	ResumePolicy string
	// Ask puts an Offer to the person when the policy says to ask. Nil
	// (no terminal to ask on) resumes in a labelled pane and starts a new
	// conversation in an unlabelled one.
	Ask func(Offer) Choice
	// OnStatus, when set, is told each change of what the agent says it is
	// doing (Profile.Status; "" when it no longer says): superclaude marks
	// a tmux pane whose agent waits for input.
	OnStatus func(status string)
	// OnAttention, when set, is told each time the agent needs the
	// person (Attention): superclaude sends notifications. It must not
	// block.
	OnAttention func(Attention)
	// Spare, when set, names processes the sweep after each agent leaves
	// alone with everything below them, while each still runs
	// (watchdog.Watchdog.Spare): superclaude names the tmux servers of
	// the fleets `+up` brought up, which a `+up` run from the agent's
	// Bash tool leaves this supervisor's children.
	Spare func() []proc.Identity
}

// Attention is a moment the agent needs the person, or may: what
// notifications tell.
type Attention struct {
	// Kind is one of the Attention* constants.
	Kind string
	// Session and Pane say which agent.
	Session, Pane string
	// Want says in words what is wanted of the person.
	Want string
	// Until is when a limit resets.
	Until time.Time
}

// Kinds of Attention.
const (
	AttentionNeedsInput = "needs-input" // the agent waits for the person's answer
	AttentionLimit      = "limit"       // a usage or rate limit stopped it
	AttentionHalted     = "halted"      // the progress breaker halted the session
	AttentionCrashLimit = "crash-limit" // it crashed past the crash limit: not restarted
	AttentionTurnEnded  = "turn-ended"  // it finished a turn
)

// attention tells Config.OnAttention, when set.
func (s *Supervisor) attention(kind, session, want string, until time.Time) {
	if s.cfg.OnAttention != nil {
		s.cfg.OnAttention(Attention{Kind: kind, Session: session, Pane: s.cfg.Pane, Want: want, Until: until})
	}
}

// Result is how a run ended.
type Result struct {
	// ExitCode is what superclaude exits with: the agent's code, 128+n when
	// signal n killed it.
	ExitCode int
	// Reason says why the run ended, for the log.
	Reason string
	// Message, when not empty, is the line to show the person once the
	// terminal is restored: why superclaude stopped, when that was not
	// simply the agent exiting on its own.
	Message string
	// Session is the session the run ended in.
	Session string
}

// Supervisor is one run's shared state: what the three services and the
// signal handler need to know of each other.
type Supervisor struct {
	cfg   Config
	self  proc.Identity
	inv   Invocation
	log   *slog.Logger
	wd    *watchdog.Watchdog
	agent *agentService

	// needAuto and autoPane say that the supervisor activates a session of
	// its own, in that pane, once the agent has started (startPlan).
	needAuto bool
	autoPane string
	// autoMade names that session once this run has made it, for
	// dropEmpty; heldUntil writes its held events once the agent has
	// outlived the startup window.
	autoMade  string
	heldUntil *time.Timer
	// notice is a line for the person, said before the first agent
	// starts (startPlan's).
	notice string

	mu      sync.Mutex
	current *child.Agent
	// restartOf is the agent whose one restart has been taken (nil:
	// none), and restartWrites counts restarts being written; both under
	// mu (restartclaim.go).
	restartOf     *child.Agent
	restartWrites sync.WaitGroup
	// now is what the profile's hooks are told of the current (or last)
	// agent. Its Conversation is the conversation that agent runs: the
	// one it resumed, or the one its status line bound or its profile
	// learned. The state can lose it before the agent ends (a restart
	// request deletes sessionId); the event log keeps it for +history.
	now Running
	// lastStatus is what the agent last said it was doing (noteStatus),
	// and statusLooked is closed at the next look at it (awaitTurn,
	// giveTypeahead).
	lastStatus   string
	statusLooked chan struct{}
	// continuedAt is when the supervisor last typed the continue after a
	// limit: that prompt is its own, not the person's (typedByUs).
	continuedAt time.Time
	// learned is the conversation and transcript learnConversation last
	// bound for the current agent ("" after each start), and unknownWhy
	// why the conversation could not be learned, as last recorded.
	learned, unknownWhy string
	// statusErr is the error of Profile.Status's last reading ("" when it
	// read), said once in the log, and statusWhy says it for a person.
	statusErr, statusWhy string
	// endNote is what the run's end tells the person once the terminal
	// is back, beside how it ended: a resume that was not made.
	endNote string

	// done is closed when the run has ended, and res is then how.
	done chan struct{}
	res  Result

	// seenUsage and storeProblem are what the last status-line tick saw
	// and why it could not be stored, while ticks cannot be stored (a
	// full disk); toldStore says the log has said so (storeFailed).
	seenMu       sync.Mutex
	seenUsage    float64
	storeProblem string
	toldStore    bool
	// unsavedFrom and unsavedUntil are the last stretch of time in which
	// ticks could not be stored (unsavedUntil zero while they still
	// cannot), unsavedWhy why, and unsavedSession and unsavedRoot the
	// session and its sessions directory: the run's end says so
	// (unsavedNote).
	unsavedFrom, unsavedUntil               time.Time
	unsavedWhy, unsavedSession, unsavedRoot string
	// lineNotice is what the status line tells the person until
	// lineNoticeUntil (under seenMu): what a fresh agent, which clears the
	// screen as it starts, would otherwise hide (setNotice).
	lineNotice      string
	lineNoticeUntil time.Time

	stopping   atomic.Bool
	stopSignal atomic.Int32
	// asInit: the supervisor is PID 1 (init.go); termPending: a SIGTERM
	// to it waits for the agent's turn.
	asInit      bool
	termPending atomic.Bool
	killedByUs  atomic.Bool
	// killForPerson: the kill killedByUs marks was asked for by the
	// person (Exit.ByPerson).
	killForPerson atomic.Bool
	crashLoop     atomic.Bool
	socket        string
}

// Run supervises the agent until it stops for good and returns how. It is
// Start and Wait; a setup failure comes back as a Result with a Message.
func Run(ctx context.Context, cfg Config) Result {
	s, err := newSupervisor(cfg)
	if err != nil {
		return Result{ExitCode: 1, Reason: err.Error(), Message: "superclaude: " + err.Error()}
	}
	return s.run(ctx)
}

// run is start and Wait.
func (s *Supervisor) run(ctx context.Context) Result {
	if err := s.start(ctx); err != nil {
		return Result{ExitCode: 1, Reason: err.Error(), Message: "superclaude: " + err.Error()}
	}
	return s.Wait()
}

// Start starts supervising the agent and returns the running supervisor:
// a program's handle on it (Status, Restart, Stop, Wait). The agent's
// first start follows at once, in the background. It fails only when the
// supervision cannot be set up — its control socket, its terminal; a start
// that the resume question's answer calls off (Config.Ask) is a run that
// ended at once, whose Result says so.
//
// The supervisor handles the signals superclaude handles (SIGTERM, SIGINT
// and SIGHUP stop the run, SIGUSR1 restarts the agent after its turn,
// SIGWINCH resizes its terminal) while it runs, and, on Linux, becomes a
// child subreaper of the calling process, so that what the agent's tools
// detach stays within reach of the sweep.
func Start(ctx context.Context, cfg Config) (*Supervisor, error) {
	s, err := newSupervisor(cfg)
	if err != nil {
		return nil, err
	}
	if err := s.start(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

func newSupervisor(cfg Config) (*Supervisor, error) {
	if cfg.Profile.Name == "" {
		cfg.Profile = Claude
	}
	if cfg.Command == "" {
		cfg.Command = cfg.Profile.Command
	}
	if cfg.Env == nil {
		cfg.Env = os.Environ()
	}
	if cfg.Grace <= 0 {
		cfg.Grace = 2 * time.Second
	}
	if cfg.Policy == (Policy{}) {
		cfg.Policy = DefaultPolicy
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	self, err := proc.Self()
	if err != nil {
		return nil, err
	}
	s := &Supervisor{cfg: cfg, self: self, log: cfg.Log, asInit: isInit()}
	if cfg.Profile.Scan != nil {
		s.inv = cfg.Profile.Scan(cfg.Args)
	} else {
		s.inv = scanGeneric(cfg.Args)
	}
	s.wd = watchdog.New(cfg.Grace, envvar.Supervisor, self.String(), cfg.Log.With("service", "watchdog"))
	s.wd.Spare = cfg.Spare
	return s, nil
}

// Identity is the supervisor's own process identity: what owns its
// session in the state file and marks every process of its agent (the
// SUPERCLAUDE_SUPERVISOR variable).
func (s *Supervisor) Identity() proc.Identity { return s.self }

// starts is how many times the agent has been started.
func (s *Supervisor) starts() int {
	if s.agent == nil {
		return 0
	}
	return int(s.agent.starts.Load())
}

// start sets the run up and starts the tree and the signal loop in the
// background; done is closed, and res set, when the run has ended.
func (s *Supervisor) start(ctx context.Context) (err error) {
	s.done = make(chan struct{})
	log := s.log
	// Signals are taken from the first instruction: what came before
	// Start (CatchSignals) is handed on, and a stop is then honoured
	// wherever it falls — before the agent starts, it never starts
	// (Serve), and after, it is killed at once.
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, supervisorSignals...)
	handedOn := false
	defer func() {
		if !handedOn {
			signal.Stop(sigs)
		}
	}()
	for _, sig := range takeEarlySignals() {
		s.onSignal(sig.(syscall.Signal))
	}
	if proc.SubreaperSupported {
		if err := proc.BecomeSubreaper(); err != nil {
			log.Warn("cannot become a child subreaper", "err", err)
		} else {
			s.wd.Subreaper = true
		}
	}

	// The control socket exists before the agent starts, so that its
	// children can always reach it.
	// A runtime directory that will not do (another user's, one open to
	// every user, something planted where the socket goes) is stepped
	// away from, never followed, and the start goes on: the log says why
	// the socket is where it is.
	sock := s.cfg.Socket
	ln := s.cfg.Listener
	switch {
	case ln != nil:
	case sock == "":
		ln, sock, _, err = control.ListenPID(s.self.PID)
		for _, why := range control.SteppedAside() {
			log.Warn("a runtime directory was passed over", "why", why)
		}
	default:
		ln, err = control.Listen(sock)
	}
	if err != nil {
		return fmt.Errorf("control socket: %w", err)
	}
	s.socket = sock

	// What a supervisor killed with SIGKILL left behind — a tool's setsid
	// child, its socket, its launch directory — goes, beside the start:
	// the sweep only ends processes whose supervisor is verifiably dead,
	// never this one's agent. It walks the machine's processes only when
	// the runtime directories say some supervisor died (PredecessorDied).
	if !s.inv.OneShot {
		guard.Go(func() {
			if !watchdog.PredecessorDied() {
				return
			}
			rep := watchdog.SweepPredecessors(ctx, s.cfg.Grace, log.With("service", "sweep"))
			log.Info("swept what dead supervisors left", "report", fmt.Sprintf("%+v", rep))
		})
	}
	first := s.startPlan()
	s.agent = &agentService{s: s, next: first}
	if first.Action == Stop {
		ln.Close()
		s.res = Result{ExitCode: 0, Reason: first.Reason, Message: "superclaude: not started: " + first.Reason}
		close(s.done)
		return nil
	}

	if t := s.cfg.Terminal; t != nil {
		if s.notice != "" {
			// Before the agent owns the terminal: the only time a line
			// of ours can be read above its screen.
			t.Out().Write([]byte(s.notice + "\n"))
		}
		if err := t.MakeRaw(); err != nil {
			ln.Close()
			return fmt.Errorf("terminal: %w", err)
		}
	}

	treeCtx, cancel := context.WithCancel(ctx)
	tree := suture.New("superclaude", suture.Spec{
		EventHook:        s.eventHook(cancel),
		FailureThreshold: s.cfg.FailureThreshold,
		FailureDecay:     s.cfg.FailureDecay.Seconds(),
		FailureBackoff:   s.cfg.FailureBackoff,
		// Every service ends its processes before Serve returns; the
		// agent's kill takes at most the grace and the sweep's SIGKILL.
		Timeout: s.cfg.Grace + 8*time.Second,
	})
	tree.Add(s.wd)
	tree.Add(&binder{s: s, ln: ln})
	tree.Add(s.agent)

	// A stop that came while the supervisor prepared (a resume question
	// may have waited on the person) is honoured before anything starts.
	s.pendingSignals(sigs)

	done := tree.ServeBackground(treeCtx)
	log.Info("supervisor started", "pid", s.self.PID, "socket", sock, "pane", s.cfg.Pane, "session", s.session(), "plan", first.String())
	handedOn = true
	guard.Go(func() {
		defer close(s.done)
		defer cancel()
		defer signal.Stop(sigs)
		if t := s.cfg.Terminal; t != nil {
			defer t.Restore()
			defer t.Close() // the session leader kept for a next agent
		}
		for {
			select {
			case sig := <-sigs:
				s.onSignal(sig.(syscall.Signal))
			case err := <-done:
				r := s.result(err)
				if dropped := s.dropEmpty(); dropped != "" && r.Session == dropped {
					r.Session = ""
				}
				s.settle()
				s.res = r
				return
			}
		}
	})
	return nil
}

// supervisorSignals are the signals a supervisor answers (onSignal).
var supervisorSignals = []os.Signal{syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGWINCH, syscall.SIGCHLD}

var (
	earlyMu sync.Mutex
	early   chan os.Signal
)

// CatchSignals starts keeping the signals a supervisor answers for the
// next Run, which honours them first thing. A program that supervises
// calls it as early as it can: a SIGTERM or a closed terminal (SIGHUP)
// that comes while it prepares — finds the agent, opens its sessions,
// writes claude's settings — would otherwise kill it with its files left
// behind, or, once the agent was about to start, be lost and let the
// agent run on. Run takes the signals over; calling CatchSignals twice is
// calling it once.
func CatchSignals() {
	earlyMu.Lock()
	defer earlyMu.Unlock()
	if early == nil {
		early = make(chan os.Signal, 16)
		signal.Notify(early, supervisorSignals...)
	}
}

// takeEarlySignals ends CatchSignals and returns what it kept. The caller
// has its own signal.Notify in place already, so no signal falls between.
func takeEarlySignals() []os.Signal {
	earlyMu.Lock()
	defer earlyMu.Unlock()
	if early == nil {
		return nil
	}
	signal.Stop(early)
	var out []os.Signal
	for {
		select {
		case sig := <-early:
			out = append(out, sig)
		default:
			early = nil
			return out
		}
	}
}

// pendingSignals handles the signals already waiting in sigs.
func (s *Supervisor) pendingSignals(sigs <-chan os.Signal) {
	for {
		select {
		case sig := <-sigs:
			s.onSignal(sig.(syscall.Signal))
		default:
			return
		}
	}
}

// Wait waits for the run to end — the agent's own exit, a Stop, a signal,
// the crash limit — and returns how. The agent and everything it started
// have ended by then, and the terminal is restored.
func (s *Supervisor) Wait() Result {
	<-s.done
	return s.res
}

// Done is closed when the run has ended; Wait then returns at once.
func (s *Supervisor) Done() <-chan struct{} { return s.done }

// onSignal handles a signal sent to superclaude itself.
func (s *Supervisor) onSignal(sig syscall.Signal) {
	switch sig {
	case syscall.SIGWINCH:
		if a := s.currentAgent(); a != nil {
			a.Resize()
		}
	case syscall.SIGCHLD:
		// Orphans adopted as subreaper that exited on their own. An
		// agent without a pty and the session leader of those on one
		// (child/leader.go) are waited for by package child, which needs
		// their status — from their fork on, before the agent service
		// knows of them.
		proc.ReapOrphans(child.Owned)
	case syscall.SIGUSR1:
		// The seeds' `kill -USR1 $WATCHDOG_PID`: restart the agent, once
		// it has finished its turn.
		s.restartAfterTurn("SIGUSR1", true)
	case syscall.SIGTERM:
		s.onTerm()
	default:
		s.stop(sig)
	}
}

// requestRestart kills the agent from outside; what starts next is decided
// from the session's state once it has exited. byPerson says the person
// asked for it (Exit.ByPerson). It reports false when no agent is
// running.
func (s *Supervisor) requestRestart(reason string, byPerson bool) bool {
	s.killedByUs.Store(true)
	s.killForPerson.Store(byPerson)
	ok := s.wd.Kill(watchdog.Request{Reason: reason})
	if !ok {
		s.killedByUs.Store(false)
		s.killForPerson.Store(false)
	}
	s.log.Info("restart requested", "reason", reason, "agent-running", ok)
	return ok
}

// stop ends the run: sig is passed on to the agent (SIGTERM when 0), which
// gets the grace to exit before SIGKILL, and superclaude then exits with
// the agent's code.
func (s *Supervisor) stop(sig syscall.Signal) {
	if sig == 0 {
		sig = syscall.SIGTERM
	}
	s.stopSignal.Store(int32(sig))
	s.stopping.Store(true)
	s.log.Info("stop requested", "signal", child.SignalName(sig))
	s.wd.Kill(watchdog.Request{Reason: "superclaude got " + child.SignalName(sig), Signal: sig})
}

func (s *Supervisor) setConversation(id, transcript string) {
	s.mu.Lock()
	s.now.Conversation, s.now.Transcript = id, transcript
	s.mu.Unlock()
}

func (s *Supervisor) conversation() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now.Conversation
}

// agentStarted is when the current (or last) agent was started.
func (s *Supervisor) agentStarted() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now.Started
}

// running is what the profile's hooks are told of the agent that runs
// now; ok is false when none does.
func (s *Supervisor) running() (r Running, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.now, s.current != nil
}

func (s *Supervisor) currentAgent() *child.Agent {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current
}

// eventHook logs suture's events and turns a backoff — the crash-intensity
// limit passed — into the end of the run.
func (s *Supervisor) eventHook(cancel context.CancelFunc) suture.EventHook {
	return func(e suture.Event) {
		s.log.Info("suture", "event", e.String())
		if e.Type() == suture.EventTypeBackoff {
			s.crashLoop.Store(true)
			cancel()
		}
	}
}

func (s *Supervisor) result(treeErr error) Result {
	r := s.agent.result
	r.Session = s.session()
	if s.crashLoop.Load() {
		last := s.agent.lastExit
		r.ExitCode = last.Code
		if r.ExitCode == 0 {
			r.ExitCode = 1
		}
		r.Reason = fmt.Sprintf("the agent crashed more than %g times within %s (last: %s)",
			threshold(s.cfg.FailureThreshold), decay(s.cfg.FailureDecay), last.Exit.String())
		r.Message = "superclaude: " + r.Reason + "; not restarting it."
		// The event log's last word, for +why: the decision before it
		// said a restart would come.
		s.event("stopped", "not restarting: "+r.Reason, nil)
		s.attention(AttentionCrashLimit, r.Session, "look: "+r.Reason+"; superclaude is not restarting it", time.Time{})
		if next := s.agent.next; len(next.Carried) > 0 {
			// The restart that was to carry them does not come.
			r.Message = joinLines(r.Message, s.noteCarry(s.mine(), Plan{Action: Stop}, next.Carried, "superclaude is not starting the agent again"))
		}
	}
	if note := s.unsavedNote(); note != "" {
		r.Message = joinLines(r.Message, note)
	}
	if r.Reason == "" && treeErr != nil && !errors.Is(treeErr, suture.ErrTerminateSupervisorTree) {
		r.Reason = treeErr.Error()
	}
	r.Message = joinLines(r.Message, s.heldAtEnd(s.mine()))
	s.mu.Lock()
	r.Message = joinLines(r.Message, s.endNote)
	s.mu.Unlock()
	s.log.Info("supervisor stopped", "exit", r.ExitCode, "reason", r.Reason)
	return r
}

func threshold(t float64) float64 {
	if t == 0 {
		return 5
	}
	return t
}

func decay(d time.Duration) time.Duration {
	if d == 0 {
		return 30 * time.Second
	}
	return d
}

func sigOf(n int32) syscall.Signal { return syscall.Signal(n) }
