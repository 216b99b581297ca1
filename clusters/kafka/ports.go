package kafka

import (
	"fmt"
	"net"
	"strconv"
)

// freePorts returns n distinct ports that were free on 127.0.0.1 a moment
// ago (the OS picks them; a node that then loses the race fails to bind
// and Start reports it).
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	out := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, fmt.Errorf("pick a free port: %w", err)
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

func addr(port int) string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) }
