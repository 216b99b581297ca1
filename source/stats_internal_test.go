package source

import (
	"testing"
	"time"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/source/internal/drain"
)

// TestStatsSinkDrops holds OnStats in its first call: statsBacklog more
// documents wait, the ones after them are dropped and counted, and offer
// never waits. Once OnStats is let go, close hands over the waiting ones
// and returns after the last call.
func TestStatsSinkDrops(t *testing.T) {
	entered, gate := make(chan struct{}), make(chan struct{})
	var got []string
	s := newStatsSink(func(doc []byte) {
		if len(got) == 0 {
			close(entered)
			<-gate
		}
		got = append(got, string(doc))
	})
	s.offer([]byte("0"))
	<-entered
	const extra = 3
	for i := 1; i <= statsBacklog+extra; i++ {
		s.offer([]byte{byte('0' + i)})
	}
	if st := s.count(consume.Stats{}); st.StatsSamples != 0 || st.StatsDropped != extra {
		t.Fatalf("while OnStats is held: %d samples, %d dropped, want 0 and %d", st.StatsSamples, st.StatsDropped, extra)
	}
	close(gate)
	s.close()
	st := s.count(consume.Stats{})
	if st.StatsSamples != 1+statsBacklog || st.StatsDropped != extra || len(got) != 1+statsBacklog {
		t.Fatalf("after close: %d samples, %d dropped, %d calls", st.StatsSamples, st.StatsDropped, len(got))
	}
	for i, doc := range got {
		if doc != string(rune('0'+i)) {
			t.Fatalf("documents handed over as %q, not in order", got)
		}
	}
	if st := (*statsSink)(nil).count(consume.Stats{Records: 7}); st != (consume.Stats{Records: 7}) {
		t.Fatalf("a nil sink counted %+v", st)
	}
}

// TestStatsInterval reads statistics.interval.ms back from a client made
// of librdkafkaConfig (no broker needed): 0, librdkafka's own default
// (nothing emitted), when Stats is off, and Stats in milliseconds when on.
func TestStatsInterval(t *testing.T) {
	for _, tc := range []struct {
		stats time.Duration
		want  string
	}{{0, "0"}, {50 * time.Millisecond, "50"}, {time.Hour, "3600000"}} {
		cfg := &Config{Path: consume.PathFast, Bootstrap: []string{"127.0.0.1:1"}, Stats: tc.stats}
		cm := kafka.ConfigMap{"go.logs.channel.enable": true}
		for k, v := range librdkafkaConfig(cfg) {
			cm[k] = v
		}
		c, err := kafka.NewConsumer(&cm)
		if err != nil {
			t.Fatal(err)
		}
		go dropLogs(c.Logs())
		got, err := drain.Conf(c, "statistics.interval.ms")
		c.Close()
		if err != nil || got != tc.want {
			t.Errorf("stats %v: statistics.interval.ms %q (%v), want %q", tc.stats, got, err, tc.want)
		}
	}
}
