package rungargs

import "time"

// ProducerLead is how long before its T0 a live trial starts its producer
// when it writes records: the process must start, reach the cluster and
// generate every record before its first intended send time (about 2M
// records a second on the lab's 2-core VM), or its first records start
// behind. A late start is not hidden: it shows as producer-behind-ms and in
// the warm-up's latency. The rung starts its producer this far ahead; the
// ladder counts it in a maxrate cell's worst-case time.
func ProducerLead(records int) time.Duration {
	return time.Second + time.Duration(records)*time.Second/2_000_000
}
