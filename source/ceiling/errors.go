package ceiling

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
)

// codeName names a Kafka error code the way kerr does, with the number:
// "NOT_LEADER_FOR_PARTITION (code 6)".
func codeName(code int16) string {
	name := "UNKNOWN_SERVER_ERROR"
	if ke, ok := errors.AsType[*kerr.Error](kerr.ErrorForCode(code)); ok && ke.Code == code {
		name = ke.Message
	}
	return fmt.Sprintf("%s (code %d)", name, code)
}

// leaderMoved reports the error codes that mean "ask metadata for the
// leader again": the partition's leadership moved or is being elected.
func leaderMoved(code int16) bool {
	switch code {
	case kerr.NotLeaderForPartition.Code, kerr.LeaderNotAvailable.Code,
		kerr.FencedLeaderEpoch.Code, kerr.UnknownLeaderEpoch.Code,
		kerr.OffsetNotAvailable.Code:
		return true
	}
	return false
}

// requestFailed is the one-line error for a request that got no answer:
// the caller's context ended (parent), the step's timeout passed (ctx,
// derived from parent with timeout), or the client failed.
func requestFailed(parent, ctx context.Context, timeout time.Duration, what string, err error) error {
	if parent.Err() != nil {
		return fmt.Errorf("%s: %w", what, context.Cause(parent))
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%s: no answer within %v: %w", what, timeout, ctx.Err())
	}
	return fmt.Errorf("%s: %w", what, err)
}
