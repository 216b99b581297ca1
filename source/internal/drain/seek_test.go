package drain

import (
	"strings"
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// TestSeekAnswersWithinItsTimeout: a seek of assigned partitions is taken
// (the consumer needs no broker for it); one of a partition that is not
// assigned fails naming it; bad arguments fail before librdkafka is asked.
// Where a seek moves the position, the source's pause tests check it
// (TestPauseHoldsAndResumeGoesOn loses records without the seek).
func TestSeekAnswersWithinItsTimeout(t *testing.T) {
	c := consumer(t, false)
	topic := "seek"
	if err := c.Assign([]kafka.TopicPartition{{Topic: &topic, Partition: 0, Offset: 5}, {Topic: &topic, Partition: 1, Offset: 7}}); err != nil {
		t.Fatal(err)
	}
	if err := Seek(c, topic, []int32{0, 1}, []int64{2, 3}, 10*time.Second); err != nil {
		t.Fatalf("seek of assigned partitions: %v", err)
	}
	for _, tc := range []struct {
		parts   []int32
		offsets []int64
		timeout time.Duration
		want    string
	}{
		{[]int32{4}, []int64{0}, 10 * time.Second, "seek seek partition 4 to 0: "},
		{[]int32{0, 1}, []int64{0}, time.Second, "2 partitions, 1 offsets"},
		{[]int32{0}, []int64{0}, 0, "under a millisecond"},
	} {
		err := Seek(c, topic, tc.parts, tc.offsets, tc.timeout)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Seek(%v, %v, %v): %v, want %q", tc.parts, tc.offsets, tc.timeout, err, tc.want)
		}
	}
	if err := Seek(c, topic, nil, nil, time.Second); err != nil {
		t.Errorf("seek of no partition: %v", err)
	}
}
