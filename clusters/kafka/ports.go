package kafka

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// The kernel hands out source ports for outgoing connections from its
// ephemeral range (ip_local_port_range, 32768-60999 by default), and a port
// the OS picked for net.Listen(":0") comes from that same range. Between the
// pick and the JVM's bind (a format, a JVM start: seconds under load) any
// client on the host may take it as a source port; under four busy loops
// a node of a test cluster lost that race and exited at start-up. So nodes
// get ports below the ephemeral range, where no outgoing connection lands,
// and Start retries a cluster whose node still lost a bind (another
// listener picked the same port).
const (
	pickLow  = 20000 // below it sit the well-known services' ports
	pickTrys = 64    // random probes per port before giving up
)

// ephemeralLow is the first port of the kernel's ephemeral range (32768
// when the range cannot be read).
func ephemeralLow() int {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 32768
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 32768
	}
	lo, err := strconv.Atoi(f[0])
	if err != nil || lo <= pickLow+1000 {
		return 32768
	}
	return lo
}

// freePorts returns n distinct ports, below the ephemeral range, that were
// free on 127.0.0.1 a moment ago. A node that still loses its port fails to
// bind; Start sees it (lostBind) and starts again on new ports.
func freePorts(n int) ([]int, error) {
	hi := ephemeralLow()
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	out := make([]int, 0, n)
	for range n {
		var l net.Listener
		for range pickTrys {
			p := pickLow + rand.IntN(hi-pickLow)
			var err error
			if l, err = net.Listen("tcp", addr(p)); err == nil {
				break
			}
		}
		if l == nil {
			return nil, fmt.Errorf("pick a free port: none free in %d tries below %d", pickTrys, hi)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}

// checkFree fails when a given port cannot be bound on 127.0.0.1.
func checkFree(port int) error {
	if port < 1 || port > 65535 {
		return fmt.Errorf("port %d is out of range", port)
	}
	l, err := net.Listen("tcp", addr(port))
	if err != nil {
		return fmt.Errorf("port %d is in use on 127.0.0.1", port)
	}
	return l.Close()
}

// lostBind reports whether a node's log says it could not bind a port.
func lostBind(logPath string) bool {
	b, err := readTail(logPath, 256<<10)
	return err == nil && strings.Contains(string(b), "Address already in use")
}

func addr(port int) string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) }
