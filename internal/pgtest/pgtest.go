// Package pgtest starts a throwaway PostgreSQL server for tests, from the
// Debian packages (postgresql, /usr/lib/postgresql/N/bin), and hands each
// test a database of its own. Test-only: nothing in a measured path
// imports it.
//
// The server is the child of the test binary, not a daemon: it dies with
// it (a parent-death signal), so a test binary that crashes leaves no
// postgres behind. Running as root, the server runs as the postgres user
// the package creates, since postgres refuses to run as root.
package pgtest

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// startTimeout bounds initdb and the server's start: a few seconds here,
// a minute on a loaded host.
const startTimeout = 2 * time.Minute

// Server is one running PostgreSQL server.
type Server struct {
	cmd  *exec.Cmd
	base string
	port int
	done chan struct{}
	n    atomic.Int64
}

var (
	shared    *Server
	sharedErr error
	once      sync.Once
)

// Main runs a package's tests and then stops the shared server, if a test
// started it: call it from TestMain.
func Main(m *testing.M) int {
	code := m.Run()
	if shared != nil {
		if err := shared.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest:", err)
			code = 1
		}
	}
	return code
}

// Database returns the URL of a new, empty database on the package's shared
// server (started on first use), dropped when t ends. A machine without
// PostgreSQL fails the test: .ci/run installs it.
func Database(t testing.TB) string {
	t.Helper()
	once.Do(func() { shared, sharedErr = Start() })
	if sharedErr != nil {
		t.Fatalf("pgtest: %v", sharedErr)
	}
	name := "t" + strconv.FormatInt(shared.n.Add(1), 10)
	admin := shared.URL("postgres")
	if err := exec1(admin, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		if err := exec1(admin, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return shared.URL(name)
}

func exec1(url, stmt string) error {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return err
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	if _, err := db.ExecContext(ctx, stmt); err != nil {
		return fmt.Errorf("%s: %w", stmt, err)
	}
	return nil
}

// URL is the URL of database name on s.
func (s *Server) URL(name string) string {
	return fmt.Sprintf("postgres://fplab@127.0.0.1:%d/%s?sslmode=disable", s.port, name)
}

// BinDir finds the newest PostgreSQL server installed from Debian's
// packages.
func BinDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "postgres")); err == nil {
			return d, nil
		}
	}
	return "", errors.New("no PostgreSQL server in /usr/lib/postgresql/*/bin: apt-get install postgresql")
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// Start initialises a cluster in a temporary directory and starts its
// server on a free loopback port, trusting local connections (a test
// server holds nothing). It returns once the server accepts connections.
func Start() (*Server, error) {
	bin, err := BinDir()
	if err != nil {
		return nil, err
	}
	cred, err := runAs()
	if err != nil {
		return nil, err
	}
	base, err := os.MkdirTemp("", "fplab-pg-")
	if err != nil {
		return nil, err
	}
	s := &Server{base: base, done: make(chan struct{})}
	fail := func(err error) (*Server, error) {
		os.RemoveAll(base)
		return nil, err
	}
	data := filepath.Join(base, "data")
	if err := os.Chmod(base, 0o755); err != nil {
		return fail(err)
	}
	if err := os.Mkdir(data, 0o700); err != nil {
		return fail(err)
	}
	if cred != nil {
		if err := os.Chown(data, int(cred.Uid), int(cred.Gid)); err != nil {
			return fail(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	initdb := exec.CommandContext(ctx, filepath.Join(bin, "initdb"), "-D", data, "-U", "fplab",
		"--auth=trust", "--no-sync", "--encoding=UTF8", "--locale=C")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGKILL}
	if out, err := initdb.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("initdb: %w: %s", err, lastLine(out)))
	}
	if s.port, err = freePort(); err != nil {
		return fail(err)
	}
	s.cmd = exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(s.port),
		"-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=",
		"-c", "fsync=off", "-c", "logging_collector=off")
	// SIGINT is postgres's fast shutdown; Go sets the parent-death signal
	// after changing user, so it holds for the postgres user too.
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGINT}
	logs, err := s.cmd.StderrPipe()
	if err != nil {
		return fail(err)
	}
	if err := s.cmd.Start(); err != nil {
		return fail(fmt.Errorf("postgres: %w", err))
	}
	ready := make(chan struct{})
	var tail []string
	var mu sync.Mutex
	go func() {
		sc := bufio.NewScanner(logs)
		signalled := false
		for sc.Scan() {
			line := sc.Text()
			mu.Lock()
			tail = append(tail[max(0, len(tail)-4):], line)
			mu.Unlock()
			if !signalled && strings.Contains(line, "database system is ready to accept connections") {
				signalled = true
				close(ready)
			}
		}
	}()
	go func() { s.cmd.Wait(); close(s.done) }()
	select {
	case <-ready:
		return s, nil
	case <-s.done:
		mu.Lock()
		defer mu.Unlock()
		return fail(fmt.Errorf("postgres exited before it was ready: %s", strings.Join(tail, " | ")))
	case <-ctx.Done():
		s.cmd.Process.Kill()
		<-s.done
		return fail(fmt.Errorf("postgres not ready in %v", startTimeout))
	}
}

// Stop shuts the server down (fast shutdown: clients disconnected) and
// removes its files.
func (s *Server) Stop() error {
	defer os.RemoveAll(s.base)
	if err := s.cmd.Process.Signal(syscall.SIGINT); err != nil {
		return nil // already gone
	}
	select {
	case <-s.done:
		return nil
	case <-time.After(startTimeout):
		s.cmd.Process.Kill()
		<-s.done
		return fmt.Errorf("postgres did not stop in %v; killed", startTimeout)
	}
}

// runAs is the credential to run the server with: none for a user other
// than root, and the postgres user (Debian's package makes it) for root.
func runAs() (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, postgres needs a user of its own: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}
