// Package sshworld is a real OpenSSH server for tests, on 127.0.0.1 and a
// port of its own, with a generated host key, and other local users —
// each with its own home and a generated key pair — that the tests reach
// only through it: the "remote hosts" of a fleet across machines.
//
// The client side is the real ssh too. The tests put a directory first on
// PATH whose ssh runs /usr/bin/ssh with the world's configuration file
// (-F): ssh reads ~/.ssh/config from the home in the password database,
// not from $HOME, so a test's home cannot hold it. That file gives each
// user an alias (Host), its key, and a known_hosts holding the server's
// key, with host-key checking strict — what a user's own ~/.ssh/config
// does.
//
// Making users needs root (useradd); without root, or without sshd
// (.ci/run installs openssh-server), Start skips the test and says why.
// Everything it makes is removed when the test ends: the users' processes
// (by PID, each verified), the users, their homes, the server.
package sshworld

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/superclaude/superclaude/proc"
)

// SSHD is where Debian's openssh-server puts the daemon.
const SSHD = "/usr/sbin/sshd"

// Server is one sshd and its users.
type Server struct {
	t testing.TB
	// Dir holds the server's and the client's files (0755: the users'
	// homes are below it).
	Dir string
	// Bin is the directory to put first on PATH: its ssh uses the world's
	// client configuration.
	Bin string
	// Port is the server's port on 127.0.0.1.
	Port int

	mu        sync.Mutex
	cmd       *exec.Cmd
	users     []*User
	silent    []silentHost
	strangers []stranger
}

// User is one local user that the tests reach over ssh.
type User struct {
	s *Server
	// Name is the login name, Alias the ssh destination that reaches it
	// (a Host of the client configuration), Home its home directory.
	Name, Alias, Home string
	UID, GID          int
}

// Start starts an sshd for the test, or skips the test when this machine
// cannot run one (not root, no sshd) — and fails it in CI (CI set, as
// .ci/run sets it), which runs as root with OpenSSH installed: there the
// ssh tests must run, so that CI never goes green by skipping them.
func Start(t testing.TB) *Server {
	t.Helper()
	if os.Getuid() != 0 {
		cannot(t, "the ssh tests make local users, which needs root (CI runs as root)")
	}
	for _, tool := range []string{SSHD, "/usr/bin/ssh", "/usr/bin/ssh-keygen", "/usr/sbin/useradd"} {
		if _, err := os.Stat(tool); err != nil {
			cannot(t, tool+" is missing: the ssh tests need openssh-server, openssh-client and useradd (.ci/run installs them)")
		}
	}
	dir, err := os.MkdirTemp("", "sc-ssh-")
	if err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755)
	s := &Server{t: t, Dir: dir, Bin: filepath.Join(dir, "bin")}
	t.Cleanup(s.close)
	os.Mkdir(s.Bin, 0o755)
	s.keygen("host_key")
	s.keygen("client_key")
	// sshd wants its privilege-separation directory.
	os.MkdirAll("/run/sshd", 0o755)
	os.WriteFile(filepath.Join(s.Bin, "ssh"),
		[]byte("#!/bin/sh\nexec /usr/bin/ssh -F "+filepath.Join(dir, "ssh_config")+" \"$@\"\n"), 0o755)
	s.Start()
	pub, err := os.ReadFile(filepath.Join(dir, "host_key.pub"))
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Fields(string(pub))
	os.WriteFile(filepath.Join(dir, "known_hosts"),
		[]byte(fmt.Sprintf("[127.0.0.1]:%d %s %s\n", s.Port, fields[0], fields[1])), 0o644)
	s.writeClientConfig()
	return s
}

func (s *Server) keygen(name string) {
	s.t.Helper()
	if out, err := exec.Command("/usr/bin/ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "superclaude-test",
		"-f", filepath.Join(s.Dir, name)).CombinedOutput(); err != nil {
		s.t.Fatalf("ssh-keygen: %v %s", err, out)
	}
}

// Start starts the server (again, after Stop) on its port: a free one
// the first time.
func (s *Server) Start() {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		return
	}
	for attempt := 0; attempt < 5; attempt++ {
		port := s.Port
		if port == 0 {
			port = freePort(s.t)
		}
		s.writeServerConfig(port)
		cmd := exec.Command(SSHD, "-D", "-e", "-f", filepath.Join(s.Dir, "sshd_config"))
		log, _ := os.OpenFile(filepath.Join(s.Dir, "sshd.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Start(); err != nil {
			s.t.Fatalf("starting sshd: %v", err)
		}
		log.Close()
		if waitListening(port, 5*time.Second) {
			s.Port, s.cmd = port, cmd
			return
		}
		cmd.Process.Kill()
		cmd.Wait()
		if s.Port != 0 {
			// The port we must keep is still held (a connection of the
			// old server in TIME_WAIT does not hold it; a straggler
			// may): try again shortly.
			time.Sleep(200 * time.Millisecond)
		}
	}
	b, _ := os.ReadFile(filepath.Join(s.Dir, "sshd.log"))
	s.t.Fatalf("sshd does not listen:\n%s", b)
}

// Stop stops the server and every connection it serves: the host is
// unreachable until Start.
func (s *Server) Stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	// The connections' processes are the server's children: end them
	// too, so that no shared connection lives on.
	listener, _ := proc.Of(s.cmd.Process.Pid)
	snap, _ := proc.List()
	for _, p := range snap {
		if p.PPID == s.cmd.Process.Pid {
			proc.Signal(p.Identity, syscall.SIGKILL)
		}
	}
	proc.Signal(listener, syscall.SIGKILL)
	s.cmd.Wait()
	s.cmd = nil
	deadline := time.Now().Add(5 * time.Second)
	for _, p := range snap {
		if p.PPID == listener.PID {
			for proc.Alive(p.Identity) && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
}

func (s *Server) writeServerConfig(port int) {
	var names []string
	for _, u := range s.users {
		names = append(names, u.Name)
	}
	allow := "AllowUsers " + strings.Join(names, " ") + "\n"
	if len(names) == 0 {
		allow = "AllowUsers nobody-at-all\n"
	}
	cfg := fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
PidFile none
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
AuthorizedKeysFile .ssh/authorized_keys
PermitRootLogin no
X11Forwarding no
AllowTcpForwarding no
MaxStartups 100:30:200
MaxSessions 100
LogLevel INFO
`, port, filepath.Join(s.Dir, "host_key")) + allow
	// Each user's temporary files go in its home: some machines' /tmp is
	// not writable by other users (this one's is 0755), and tmux, like
	// superclaude, puts its socket directory there.
	for _, u := range s.users {
		tmp := filepath.Join(u.Home, "tmp")
		cfg += fmt.Sprintf("Match User %s\n  SetEnv TMPDIR=%s TMUX_TMPDIR=%s\n", u.Name, tmp, tmp)
	}
	os.WriteFile(filepath.Join(s.Dir, "sshd_config"), []byte(cfg), 0o600)
}

func (s *Server) writeClientConfig() {
	var b strings.Builder
	for _, u := range s.users {
		fmt.Fprintf(&b, `Host %s
  HostName 127.0.0.1
  Port %d
  User %s
`, u.Alias, s.Port, u.Name)
	}
	for _, h := range s.silent {
		fmt.Fprintf(&b, "Host %s\n  HostName 127.0.0.1\n  Port %d\n  User nobody\n", h.alias, h.port)
	}
	for _, h := range s.strangers {
		fmt.Fprintf(&b, "Host %s\n  HostName 127.0.0.1\n  Port %d\n  User %s\n  UserKnownHostsFile %s\n", h.alias, s.Port, h.user, h.knownHosts)
	}
	// Host-key checking as ssh has it by default (StrictHostKeyChecking
	// ask): what superclaude's ssh makes of it is what a user gets.
	fmt.Fprintf(&b, `Host *
  IdentityFile %s
  IdentitiesOnly yes
  UserKnownHostsFile %s
  GlobalKnownHostsFile /dev/null
  IdentityAgent none
`, filepath.Join(s.Dir, "client_key"), filepath.Join(s.Dir, "known_hosts"))
	os.WriteFile(filepath.Join(s.Dir, "ssh_config"), []byte(b.String()), 0o644)
}

// AddUser makes a local user reached as the ssh destination alias, with a
// home of its own (0700) holding the client's public key. The server is
// restarted to let it in (AllowUsers).
func (s *Server) AddUser(alias string) *User {
	s.t.Helper()
	var suffix [4]byte
	rand.Read(suffix[:])
	name := "sc" + hex.EncodeToString(suffix[:])
	home := filepath.Join(s.Dir, "home-"+alias)
	var out []byte
	var err error
	for attempt := 0; attempt < 20; attempt++ {
		// "*": no password, but not locked (sshd refuses a locked
		// account). useradd fails while another holds the password
		// file's lock: try again.
		out, err = exec.Command("/usr/sbin/useradd", "-M", "-U", "-d", home, "-s", "/bin/bash", "-p", "*", name).CombinedOutput()
		if err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		s.t.Fatalf("useradd %s: %v %s", name, err, out)
	}
	pw, err := user.Lookup(name)
	if err != nil {
		s.t.Fatal(err)
	}
	u := &User{s: s, Name: name, Alias: alias, Home: home}
	u.UID, _ = strconv.Atoi(pw.Uid)
	u.GID, _ = strconv.Atoi(pw.Gid)
	s.mu.Lock()
	s.users = append(s.users, u)
	s.mu.Unlock()
	pub, _ := os.ReadFile(filepath.Join(s.Dir, "client_key.pub"))
	u.WriteFile(".ssh/authorized_keys", pub, 0o600)
	u.MkdirAll("tmp")
	os.Chmod(home, 0o700)
	s.writeClientConfig()
	s.Stop()
	s.Start()
	return u
}

// WriteFile writes a file in the user's home, as the user would: the
// file and every directory made for it are the user's (directories 0700).
func (u *User) WriteFile(rel string, data []byte, mode os.FileMode) {
	u.s.t.Helper()
	path := filepath.Join(u.Home, rel)
	u.MkdirAll(filepath.Dir(rel))
	if err := os.WriteFile(path, data, mode); err != nil {
		u.s.t.Fatal(err)
	}
	os.Chown(path, u.UID, u.GID)
}

// MkdirAll makes a directory in the user's home, the user's (0700).
func (u *User) MkdirAll(rel string) string {
	u.s.t.Helper()
	path := u.Home
	for _, elem := range append([]string{""}, strings.Split(filepath.Clean(rel), "/")...) {
		if elem == "." {
			continue
		}
		path = filepath.Join(path, elem)
		if err := os.Mkdir(path, 0o700); err != nil && !os.IsExist(err) {
			u.s.t.Fatal(err)
		}
		os.Chown(path, u.UID, u.GID)
	}
	return path
}

// Install puts the executable src in the user's ~/.local/bin as name,
// where `make install` puts superclaude: a hard link when it can be (the
// real claude is hundreds of megabytes), else a copy.
func (u *User) Install(src, name string) {
	u.s.t.Helper()
	dir := u.MkdirAll(".local/bin")
	dst := filepath.Join(dir, name)
	os.Remove(dst)
	if err := os.Link(src, dst); err == nil {
		return
	}
	in, err := os.Open(src)
	if err != nil {
		u.s.t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		u.s.t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		u.s.t.Fatal(err)
	}
	out.Close()
	os.Chown(dst, u.UID, u.GID)
}

// SSH runs a command on the user's side through the server, with the
// world's client configuration and no shared connection, and returns its
// standard output.
func (u *User) SSH(stdin string, argv ...string) (string, error) {
	var quoted []string
	for _, a := range argv {
		quoted = append(quoted, "'"+strings.ReplaceAll(a, "'", `'\''`)+"'")
	}
	cmd := exec.Command("/usr/bin/ssh", "-F", filepath.Join(u.s.Dir, "ssh_config"), "-o", "BatchMode=yes", "-T", "--", u.Alias, strings.Join(quoted, " "))
	cmd.Stdin = strings.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("%v: %s", err, stderr.String())
	}
	return string(out), nil
}

// Processes lists the user's live processes (those whose /proc entry the
// user owns: its effective uid).
func (u *User) Processes() []proc.Info {
	snap, _ := proc.List()
	var out []proc.Info
	for _, p := range snap {
		fi, err := os.Stat("/proc/" + strconv.Itoa(p.PID))
		if err != nil || p.Zombie {
			continue
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) == u.UID {
			out = append(out, p)
		}
	}
	return out
}

// ControlMasters lists the shared connections ssh keeps in the background
// (ControlPersist) whose sockets are below dir: such a process names its
// socket in place of its command line, "ssh: PATH [mux]".
func ControlMasters(dir string) []proc.Identity {
	snap, _ := proc.List()
	var out []proc.Identity
	for _, p := range snap {
		cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/cmdline")
		if strings.HasPrefix(string(cmdline), "ssh: "+dir+"/") {
			out = append(out, p.Identity)
		}
	}
	return out
}

// KillControlMasters ends the ControlMasters below dir, waits (a few
// seconds at most) for them to be gone, and returns how many it ended.
func KillControlMasters(dir string) int {
	var killed []proc.Identity
	for _, id := range ControlMasters(dir) {
		if proc.Signal(id, syscall.SIGKILL) == nil {
			killed = append(killed, id)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, id := range killed {
		for proc.Alive(id) && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
	return len(killed)
}

// AddSilentHost adds an ssh destination alias whose server takes the
// connection and never says a word: a host that went away behind a
// network that still answers, the slowest kind of unreachable. It lasts
// as long as the test.
func (s *Server) AddSilentHost(alias string) {
	s.t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		s.t.Fatal(err)
	}
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	s.t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	})
	s.mu.Lock()
	s.silent = append(s.silent, silentHost{alias, l.Addr().(*net.TCPAddr).Port})
	s.mu.Unlock()
	s.writeClientConfig()
}

type silentHost struct {
	alias string
	port  int
}

// AddStranger adds an ssh destination alias that reaches u through the
// server, but whose known_hosts file (returned, empty) does not hold the
// server's key: a host this machine has never checked.
func (s *Server) AddStranger(alias string, u *User) string {
	s.t.Helper()
	kh := filepath.Join(s.Dir, "known_hosts-"+alias)
	if err := os.WriteFile(kh, nil, 0o644); err != nil {
		s.t.Fatal(err)
	}
	s.mu.Lock()
	s.strangers = append(s.strangers, stranger{alias, u.Name, kh})
	s.mu.Unlock()
	s.writeClientConfig()
	return kh
}

type stranger struct{ alias, user, knownHosts string }

// Log returns the server's log.
func (s *Server) Log() string {
	b, _ := os.ReadFile(filepath.Join(s.Dir, "sshd.log"))
	return string(b)
}

func (s *Server) close() {
	s.Stop()
	for _, u := range s.users {
		// Every process of the user, each by its verified identity,
		// until none is left (bounded).
		for round := 0; round < 50; round++ {
			left := u.Processes()
			if len(left) == 0 {
				break
			}
			for _, p := range left {
				proc.Signal(p.Identity, syscall.SIGKILL)
			}
			time.Sleep(20 * time.Millisecond)
		}
		for attempt := 0; attempt < 20; attempt++ {
			if exec.Command("/usr/sbin/userdel", u.Name).Run() == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	os.RemoveAll(s.Dir)
}

func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitListening(port int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+strconv.Itoa(port), 200*time.Millisecond)
		if err == nil {
			c.Close()
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// cannot ends a test this machine cannot run: a skip here, a failure in
// CI, saying what is missing.
func cannot(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal("in CI, where the ssh tests must run: " + why)
	}
	t.Skip(why)
}
