package source

import (
	"slices"
	"strings"
	"testing"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
	"github.com/twmb/franz-go/pkg/kerr"
)

// TestPositionBasedCompletion walks the assembler through what the clients
// report: a partition ends when its position reaches the stop, whether a
// record, a control record, an EOF event or a record past the stop proves
// it; the split never passes the stop and never moves back.
func TestPositionBasedCompletion(t *testing.T) {
	// p0 [0,10), p1 [5,5) empty, p2 [3,8), p3 [9,4) start past stop, p4 [0,6)
	a := newAssembler(100, []int64{0, 5, 3, 9, 0}, []int64{10, 5, 8, 4, 6})
	if a.remaining != 3 || !slices.Equal(a.pos, []int64{0, 5, 3, 4, 0}) {
		t.Fatalf("open: remaining %d, positions %v", a.remaining, a.pos)
	}
	step := func(what string, ok bool, err error, want bool) {
		t.Helper()
		if err != nil || ok != want {
			t.Fatalf("%s: %v, %v; want %v", what, ok, err, want)
		}
	}
	ok, err := a.consume(0, 0)
	step("p0 record 0", ok, err, true)
	ok, err = a.consume(0, 0)
	step("p0 record 0 again", ok, err, false)
	// p0: committed records up to 6, then an aborted tail and its marker:
	// the EOF event at 10 (librdkafka) ends it.
	ok, err = a.consume(0, 6)
	step("p0 record 6", ok, err, true)
	if err := a.eof(0, 4); err != nil || a.pos[0] != 7 {
		t.Fatalf("a stale EOF moved p0 back: %v, position %d", err, a.pos[0])
	}
	if err := a.eof(0, 10); err != nil || a.pos[0] != 10 || a.remaining != 2 {
		t.Fatalf("EOF at the stop: %v, position %d, remaining %d", err, a.pos[0], a.remaining)
	}
	// p2: a control record (franz) at the stop's last offset ends it.
	ok, err = a.consume(2, 5)
	step("p2 record 5", ok, err, true)
	if err := a.control(2, 7); err != nil || a.pos[2] != 8 || a.remaining != 1 {
		t.Fatalf("control at 7: %v, position %d, remaining %d", err, a.pos[2], a.remaining)
	}
	// p4: a record appended after the stop was captured is no row, and
	// proves the position passed the stop; an EOF past the stop is capped.
	ok, err = a.consume(4, 2)
	step("p4 record 2", ok, err, true)
	ok, err = a.consume(4, 9)
	step("p4 record 9 (past the stop)", ok, err, false)
	if a.pos[4] != 6 || !a.done() {
		t.Fatalf("after a record past the stop: position %d, done %v", a.pos[4], a.done())
	}
	if err := a.eof(4, 20); err != nil || a.pos[4] != 6 || a.remaining != 0 {
		t.Fatalf("EOF past a finished stop: %v, position %d, remaining %d", err, a.pos[4], a.remaining)
	}
	if _, err := a.consume(5, 0); err == nil || !strings.Contains(err.Error(), "unexpected partition 5") {
		t.Errorf("record of partition 5: %v", err)
	}
	if err := a.eof(-1, 0); err == nil {
		t.Errorf("EOF of partition -1 accepted")
	}

	a.added(0, 0, 3)
	a.addedNull(0, 6)
	a.addedNull(4, 2)
	b := a.emit(nil)
	if !slices.Equal(b.Split, []int64{10, 5, 8, 4, 6}) {
		t.Errorf("split %v, want the stops", b.Split)
	}
	if st := a.stats; st.Records != 3 || st.Nulls != 2 || st.Bytes != 3 || st.Batches != 1 {
		t.Errorf("stats %+v, want 3 records, 2 nulls, 3 bytes, 1 batch", st)
	}
	a.addedNull(0, 7)
	a.emit(nil)
	if a.stats.Nulls != 3 || a.stats.Records != 4 {
		t.Errorf("after a second batch: %d nulls of %d records, want 3 of 4", a.stats.Nulls, a.stats.Records)
	}
}

// TestEmptyRangesAreFinished: every partition empty (start == stop, no
// records at all, start past stop) is a finished read before any record.
func TestEmptyRangesAreFinished(t *testing.T) {
	a := newAssembler(8, []int64{4, 0, 12}, []int64{4, 0, 7})
	if !a.done() || !slices.Equal(a.out.Split, []int64{4, 0, 7}) {
		t.Fatalf("done %v, split %v", a.done(), a.out.Split)
	}
}

// TestFailureClasses pins which client errors a reader tolerates: only
// those the client retries by itself. Authorization, authentication and
// out-of-range offsets end the read; a partition EOF is no error at all.
func TestFailureClasses(t *testing.T) {
	for _, c := range []kafka.ErrorCode{
		kafka.ErrTopicAuthorizationFailed, kafka.ErrGroupAuthorizationFailed,
		kafka.ErrClusterAuthorizationFailed, kafka.ErrSaslAuthenticationFailed,
		kafka.ErrAuthentication, kafka.ErrAutoOffsetReset, kafka.ErrOffsetOutOfRange,
		kafka.ErrUnknownTopicOrPart, kafka.ErrUnknownTopic, kafka.ErrPartitionEOF,
	} {
		if transient(c) {
			t.Errorf("transient(%v) = true: the read would go on past it", c)
		}
	}
	for _, c := range []kafka.ErrorCode{kafka.ErrTransport, kafka.ErrAllBrokersDown, kafka.ErrNotLeaderForPartition} {
		if !transient(c) {
			t.Errorf("transient(%v) = false", c)
		}
	}
	for _, e := range []error{
		kerr.TopicAuthorizationFailed, kerr.GroupAuthorizationFailed, kerr.ClusterAuthorizationFailed,
		kerr.SaslAuthenticationFailed, kerr.OffsetOutOfRange,
	} {
		if kerrRetriable(e) {
			t.Errorf("kerrRetriable(%v) = true: the read would go on past it", e)
		}
	}
	if !kerrRetriable(kerr.NotLeaderForPartition) {
		t.Errorf("kerrRetriable(NOT_LEADER_FOR_PARTITION) = false")
	}
	err := rdkError("fast", kafka.ErrAutoOffsetReset, 2, 17, kafka.NewError(kafka.ErrAutoOffsetReset, "fetch failed: Broker: Offset out of range", false))
	if want := "fast: partition 2: offset 17 is out of range (records deleted?): fetch failed: Broker: Offset out of range"; err.Error() != want {
		t.Errorf("out of range: %q, want %q", err, want)
	}
}

// TestFranzProperties: the franz path takes kplain's mapping (tested
// there) and names itself in its refusals, on one line, without the
// password.
func TestFranzProperties(t *testing.T) {
	ok := map[string]string{
		"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
		"sasl.username": "u", "sasl.password": "hunter2",
	}
	if o, err := franzSASL(nil); o != nil || err != nil {
		t.Errorf("no properties: %v, %v", o, err)
	}
	if o, err := franzSASL(ok); o == nil || err != nil {
		t.Errorf("%v: %v, %v", ok, o, err)
	}
	bad := map[string]string{"fetch.min.bytes": "1", "sasl.password": "hunter2"}
	_, err := franzSASL(bad)
	if err == nil || !strings.HasPrefix(err.Error(), `franz: client property "fetch.min.bytes" is not taken`) ||
		strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("%v: %v, want one line naming the property, no password", bad, err)
	}
}
