package kafka

import (
	"fmt"
	"time"
)

// Options configures Start.
type Options struct {
	// Brokers is the node count, 1..9 (default 1). Every node is a
	// combined broker+controller; all are controller-quorum voters.
	Brokers int
	// Dir holds the nodes' configs, data and logs (broker-<i>.log); it is
	// created if missing and kept after Stop. Required.
	Dir string
	// Partitions is num.partitions, for topics created without a count
	// (default 6).
	Partitions int
	// Ports are the client listener ports, one per node (default: free
	// ports chosen at start). A port already in use is an error.
	Ports []int
	// Dist is the distribution directory (default DistDir()).
	Dist string
	// Java is the java binary (default FindJava()).
	Java string
	// HeapMB is each node's JVM heap, -Xms and -Xmx (default 1024).
	HeapMB int
	// StartTimeout bounds formatting plus waiting for every broker to be
	// listed in metadata, however much progress the start makes (default
	// 10m).
	StartTimeout time.Duration
	// StallTimeout fails a start that makes no progress for this long: no
	// node's log grew and metadata listed no more brokers (default 90s, the
	// old fixed budget; progress.go).
	StallTimeout time.Duration
	// StopGrace is the SIGTERM -> SIGKILL delay of Stop (default 10s).
	StopGrace time.Duration
	// Auth, when set, turns on SASL/PLAIN authentication on the client
	// listener and the ACL authorizer (see Auth). Nil: PLAINTEXT, no
	// authorizer, everyone may do everything.
	Auth *Auth
	// RequestLog turns on Kafka's request log (kafka.request.logger at
	// DEBUG): one "Completed request:" line per request in the node's
	// broker-<i>.log, its header (API key, client id) included, which is
	// how a test sees the client id a reader sends (BrokerLogs). Off for
	// measured runs: it writes a line per fetch.
	RequestLog bool
}

// Auth configures an authenticated cluster: the client listener speaks
// SASL_PLAINTEXT with mechanism PLAIN, the users and passwords are the
// listener's inline JAAS entries, and the StandardAuthorizer denies
// everything no ACL allows (allow.everyone.if.no.acl.found=false), except
// to super users. Clients get their properties from Cluster.ClientProps;
// Cluster.AllowRead grants a user read access to a topic.
type Auth struct {
	// Users maps user name to password. Names are 1..64 of
	// [A-Za-z0-9._-] (they become JAAS option keys, user_<name>);
	// passwords are 1..128 printable ASCII characters without '"' and
	// '\' (they are quoted JAAS values in server.properties).
	Users map[string]string
	// SuperUser is the user, one of Users, that the ACLs do not apply to;
	// the brokers authenticate to each other as this user, and Start's
	// readiness checks, AllowRead and the other cluster helpers use it.
	SuperUser string
}

// validate checks the users and the super user; errors never quote a
// password.
func (a *Auth) validate() error {
	if len(a.Users) == 0 {
		return fmt.Errorf("auth has no users")
	}
	for u, p := range a.Users {
		switch {
		case !validUser(u):
			return fmt.Errorf("auth user name %q is not 1..64 of [A-Za-z0-9._-]", u)
		case u == anonymous:
			return fmt.Errorf("auth user name %s is reserved (the controller listener's principal)", anonymous)
		case !validPassword(p):
			return fmt.Errorf("password of auth user %q is not 1..128 printable ASCII characters without '\"' and '\\'", u)
		}
	}
	if _, ok := a.Users[a.SuperUser]; !ok {
		return fmt.Errorf("auth super user %q is not one of the users", a.SuperUser)
	}
	return nil
}

// clone copies a so that a caller's later changes to its map do not reach
// a running cluster.
func (a *Auth) clone() *Auth {
	c := &Auth{Users: make(map[string]string, len(a.Users)), SuperUser: a.SuperUser}
	for u, p := range a.Users {
		c.Users[u] = p
	}
	return c
}

func validUser(u string) bool {
	if len(u) < 1 || len(u) > 64 {
		return false
	}
	for _, r := range u {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
		default:
			return false
		}
	}
	return true
}

func validPassword(p string) bool {
	if len(p) < 1 || len(p) > 128 {
		return false
	}
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

const (
	maxBrokers          = 9
	defaultPartitions   = 6
	defaultHeapMB       = 1024
	defaultStartTimeout = 10 * time.Minute
	defaultStallTimeout = 90 * time.Second
	defaultStopGrace    = 10 * time.Second
)

// withDefaults fills the zero fields and validates the rest.
func (o Options) withDefaults() (Options, error) {
	if o.Brokers == 0 {
		o.Brokers = 1
	}
	if o.Partitions == 0 {
		o.Partitions = defaultPartitions
	}
	if o.HeapMB == 0 {
		o.HeapMB = defaultHeapMB
	}
	if o.StartTimeout == 0 {
		o.StartTimeout = defaultStartTimeout
	}
	if o.StallTimeout == 0 {
		o.StallTimeout = defaultStallTimeout
	}
	if o.StopGrace == 0 {
		o.StopGrace = defaultStopGrace
	}
	switch {
	case o.Brokers < 1 || o.Brokers > maxBrokers:
		return o, fmt.Errorf("brokers must be 1..%d, got %d", maxBrokers, o.Brokers)
	case o.Dir == "":
		return o, fmt.Errorf("no directory for configs, data and logs")
	case o.Partitions < 1:
		return o, fmt.Errorf("partitions must be > 0, got %d", o.Partitions)
	case len(o.Ports) != 0 && len(o.Ports) != o.Brokers:
		return o, fmt.Errorf("%d ports given for %d brokers", len(o.Ports), o.Brokers)
	case o.HeapMB < 128:
		return o, fmt.Errorf("heap must be >= 128 MB, got %d", o.HeapMB)
	case o.StartTimeout < 0 || o.StallTimeout < 0 || o.StopGrace < 0:
		return o, fmt.Errorf("negative timeout")
	}
	if o.Auth != nil {
		if err := o.Auth.validate(); err != nil {
			return o, err
		}
		o.Auth = o.Auth.clone()
	}
	if o.Dist == "" {
		o.Dist = DistDir()
	}
	if err := CheckDist(o.Dist); err != nil {
		return o, err
	}
	if o.Java == "" {
		j, err := FindJava()
		if err != nil {
			return o, err
		}
		o.Java = j
	}
	return o, nil
}
