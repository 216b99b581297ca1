package source

import "time"

// pollWait is how long one wait for messages may last (a Poll, a drain
// crossing, a franz PollFetches) before a reader looks at its clocks
// again: the stall timeout, and whether its context has ended. It is the
// upstream reader's 100 ms bounded poll, but a reader does not rely on it
// for cancellation: a Next whose context ends returns at once, the
// librdkafka paths by yielding their consumer queue (rdkConsumer.wake),
// franz by PollFetches' own context. A wake-up is such a cancel: the
// reader stays usable and the next Next goes on where it stood, nothing
// lost or repeated. Tests lengthen the wait to prove that no cancel waits
// it out.
var pollWait = 100 * time.Millisecond
