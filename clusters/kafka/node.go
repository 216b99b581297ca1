package kafka

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// node is one KRaft node: its files, ports and (while running) process.
type node struct {
	id       int
	port     int
	ctrlPort int
	dir      string // the node's own directory (config, data)
	logPath  string // broker-<id>.log in the cluster directory
	java     string
	jvmArgs  []string

	cmd     *exec.Cmd
	exited  chan struct{} // closed when the process has been waited for
	waitErr error         // set before exited is closed
}

func (n *node) propsPath() string { return filepath.Join(n.dir, "server.properties") }
func (n *node) log4jPath() string { return filepath.Join(n.dir, "log4j2.properties") }

// argv is the command of one Kafka main class in this node's JVM set-up.
func (n *node) argv(class string, args ...string) []string {
	a := append([]string{n.java}, n.jvmArgs...)
	a = append(a, "-Dlog4j2.configurationFile="+n.log4jPath(), class)
	return append(a, args...)
}

// command builds a process in its own process group whose output goes to
// the node's log and which dies with its parent.
func (n *node) command(argv []string, log *os.File) *exec.Cmd {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	return cmd
}

func (n *node) openLog() (*os.File, error) {
	f, err := os.OpenFile(n.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, fmt.Errorf("broker log: %w", err)
	}
	return f, nil
}

// format runs StorageTool format for the node and waits for it, bounded by
// ctx; its output lands in the node's log.
func (n *node) format(ctx context.Context, clusterID string) error {
	log, err := n.openLog()
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := n.command(n.argv("kafka.tools.StorageTool", "format", "--cluster-id", clusterID,
		"--config", n.propsPath(), "--ignore-formatted"), log)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start storage format of node %d: %w", n.id, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-ctx.Done():
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-done
		return fmt.Errorf("storage format of node %d did not finish: %w", n.id, ctx.Err())
	}
	if err != nil {
		return fmt.Errorf("storage format of node %d failed (%w): %s", n.id, err, logProblem(n.logPath))
	}
	return nil
}

// start starts the node's broker process.
func (n *node) start() error {
	log, err := n.openLog()
	if err != nil {
		return err
	}
	defer log.Close() // the child holds its own copy
	fmt.Fprintf(log, "=== fplab: starting node %d at %s\n", n.id, time.Now().Format(time.RFC3339Nano))
	cmd := n.command(n.argv("kafka.Kafka", n.propsPath()), log)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start node %d: %w", n.id, err)
	}
	n.cmd, n.exited, n.waitErr = cmd, make(chan struct{}), nil
	exited := n.exited
	go func() {
		n.waitErr = cmd.Wait()
		close(exited)
	}()
	return nil
}

// running reports whether the node's process is alive.
func (n *node) running() bool {
	if n.cmd == nil {
		return false
	}
	select {
	case <-n.exited:
		return false
	default:
		return true
	}
}

// signal sends sig to the node's whole process group.
func (n *node) signal(sig syscall.Signal) {
	if n.running() {
		_ = syscall.Kill(-n.cmd.Process.Pid, sig)
	}
}

// kill SIGKILLs the node's process group and waits for the process.
func (n *node) kill() {
	if n.cmd == nil {
		return
	}
	n.signal(syscall.SIGKILL)
	<-n.exited
	_ = syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL) // any straggler of the group
}

// died describes an unexpected exit for an error message.
func (n *node) died() error {
	if n.waitErr == nil {
		return fmt.Errorf("node %d exited (exit status 0): %s", n.id, logProblem(n.logPath))
	}
	return fmt.Errorf("node %d exited (%w): %s", n.id, n.waitErr, logProblem(n.logPath))
}

// logProblem picks the most telling line of a log's tail: the last line
// logged at ERROR or FATAL level, else the last one naming an exception or
// an error, else the last line; always one line. The level comes first: a
// node that fails shuts down with INFO lines that name exceptions of their
// own (RejectedExecutionException as its event queue closes), which hid
// the ERROR line that said why.
func logProblem(path string) string {
	b, err := readTail(path, 64<<10)
	if err != nil || len(b) == 0 {
		return "(no log output; see " + path + ")"
	}
	return tellingLine(string(b)) + " (log: " + path + ")"
}

// tellingLine is logProblem's choice among a log tail's lines.
func tellingLine(tail string) string {
	lines := strings.Split(strings.TrimSpace(tail), "\n")
	pick := lines[len(lines)-1]
	found := false
	for _, marks := range [][]string{{"] ERROR ", "] FATAL "}, {"Exception", "Error:"}} {
		for i := len(lines) - 1; i >= 0 && !found; i-- {
			for _, m := range marks {
				if strings.Contains(lines[i], m) {
					pick, found = lines[i], true
					break
				}
			}
		}
		if found {
			break
		}
	}
	pick = strings.Join(strings.Fields(pick), " ")
	if len(pick) > 400 {
		pick = pick[:400] + "..."
	}
	return pick
}

func readTail(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	off := st.Size() - max
	if off < 0 {
		off = 0
	}
	b := make([]byte, st.Size()-off)
	_, err = f.ReadAt(b, off)
	return b, err
}
