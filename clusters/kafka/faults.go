package kafka

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fastpathlab/fplab/internal/oneline"
)

// The fault protocol: one request line, one reply line, on a unix socket
// the process owning the cluster serves (ServeFaults) and a cell's child
// dials (DialFaults):
//
//	kill <topic> <partition>   ->  ok <node>   (SIGKILL the partition's leader)
//	restart                    ->  ok <node>   (restart it, wait until in sync)
//	anything else              ->  err <one line>
//
// A connection that closes after a kill without a restart gets its node
// restarted by the server, so a crashed child never leaves the cluster
// short of a broker.

// ServeFaults serves the fault protocol on a unix socket at path until
// stop is called; stop waits for requests in progress.
func (c *Cluster) ServeFaults(path string) (stop func(), err error) {
	_ = os.Remove(path)
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("fault socket: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		conns = map[net.Conn]bool{}
	)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns[conn] = true
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() {
					mu.Lock()
					delete(conns, conn)
					mu.Unlock()
				}()
				c.serveFaultConn(ctx, conn)
			}()
		}
	}()
	return func() {
		cancel()
		l.Close()
		mu.Lock()
		for conn := range conns {
			conn.Close()
		}
		mu.Unlock()
		wg.Wait()
		_ = os.Remove(path)
	}, nil
}

func (c *Cluster) serveFaultConn(ctx context.Context, conn net.Conn) {
	defer conn.Close()
	killed := -1
	defer func() {
		if killed >= 0 {
			_ = c.RestartBroker(ctx, killed)
		}
	}()
	sc := bufio.NewScanner(conn)
	for sc.Scan() {
		reply := c.faultRequest(ctx, sc.Text(), &killed)
		if _, err := fmt.Fprintln(conn, reply); err != nil {
			return
		}
	}
}

// faultRequest executes one request line and returns the reply line.
func (c *Cluster) faultRequest(ctx context.Context, line string, killed *int) string {
	f := strings.Fields(line)
	switch {
	case len(f) == 3 && f[0] == "kill":
		if *killed >= 0 {
			return fmt.Sprintf("err node %d is already down; restart it first", *killed)
		}
		p, err := strconv.ParseInt(f[2], 10, 32)
		if err != nil {
			return "err bad partition " + strconv.Quote(f[2])
		}
		lctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		n, err := c.Leader(lctx, f[1], int32(p))
		if err != nil {
			return "err " + oneline.Err(err)
		}
		if err := c.KillBroker(n); err != nil {
			return "err " + oneline.Err(err)
		}
		*killed = n
		return fmt.Sprintf("ok %d", n)
	case len(f) == 1 && f[0] == "restart":
		if *killed < 0 {
			return "err no node killed on this connection"
		}
		n := *killed
		if err := c.RestartBroker(ctx, n); err != nil {
			return "err " + oneline.Err(err)
		}
		*killed = -1
		return fmt.Sprintf("ok %d", n)
	}
	return "err unknown request " + strconv.Quote(line)
}

// FaultConn is a child's connection to a fault server.
type FaultConn struct {
	conn net.Conn
	r    *bufio.Reader
}

// DialFaults connects to the fault server at path.
func DialFaults(ctx context.Context, path string) (*FaultConn, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, "unix", path)
	if err != nil {
		return nil, fmt.Errorf("fault socket %s: %w", path, err)
	}
	return &FaultConn{conn: conn, r: bufio.NewReader(conn)}, nil
}

// Kill asks the server to SIGKILL the leader of topic/partition; it returns
// the node killed.
func (f *FaultConn) Kill(ctx context.Context, topic string, partition int32) (int, error) {
	return f.request(ctx, fmt.Sprintf("kill %s %d", topic, partition))
}

// Restart asks the server to restart the node this connection killed and
// returns once it is back and every replica is in sync.
func (f *FaultConn) Restart(ctx context.Context) (int, error) {
	return f.request(ctx, "restart")
}

// Close closes the connection (a node still down is restarted by the
// server).
func (f *FaultConn) Close() error { return f.conn.Close() }

func (f *FaultConn) request(ctx context.Context, line string) (int, error) {
	if dl, ok := ctx.Deadline(); ok {
		_ = f.conn.SetDeadline(dl)
	} else {
		_ = f.conn.SetDeadline(time.Time{})
	}
	if _, err := fmt.Fprintln(f.conn, line); err != nil {
		return -1, fmt.Errorf("fault request %q: %w", line, err)
	}
	reply, err := f.r.ReadString('\n')
	if err != nil {
		return -1, fmt.Errorf("fault request %q: no reply: %w", line, err)
	}
	reply = strings.TrimSpace(reply)
	if msg, ok := strings.CutPrefix(reply, "err "); ok {
		return -1, fmt.Errorf("fault request %q: %s", line, msg)
	}
	n, err := strconv.Atoi(strings.TrimPrefix(reply, "ok "))
	if err != nil {
		return -1, errors.New("fault server reply is not understood: " + strconv.Quote(reply))
	}
	return n, nil
}
