package source

import (
	"context"
	"time"
)

// PositionShortcut switches the librdkafka paths' position query on idle
// polls (see rdkConsumer.position): off, only EOF events end a partition
// whose tail is never delivered.
var PositionShortcut = &positionShortcut

// SetPollWait lengthens (or shortens) every reader's wait for messages
// until the test ends.
func SetPollWait(t interface{ Cleanup(func()) }, d time.Duration) {
	old := pollWait
	pollWait = d
	t.Cleanup(func() { pollWait = old })
}

// WrapDiscoveryLookup wraps every reader's partition lookup with wrap
// until the test ends.
func WrapDiscoveryLookup(t interface{ Cleanup(func()) }, wrap func(func(context.Context) (int, error)) func(context.Context) (int, error)) {
	old := wrapLookup
	wrapLookup = func(f lookupFunc) lookupFunc { return wrap(f) }
	t.Cleanup(func() { wrapLookup = old })
}
