package drain

import (
	"encoding/json"
	"testing"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// TestMainQueue takes the main queue of a consumer that samples statistics
// every 10 ms and never reaches a broker off its consumer queue: the
// statistics documents and the client's connection errors arrive on the
// Main, while crossings of the consumer queue see neither (a statistics
// event there would abort the process). Wake cuts a long Poll short.
func TestMainQueue(t *testing.T) {
	c, err := kafka.NewConsumer(&kafka.ConfigMap{
		"bootstrap.servers":      "127.0.0.1:1",
		"group.id":               "fplab-drain-main-test",
		"statistics.interval.ms": 10,
		"go.logs.channel.enable": true,
	})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range c.Logs() {
		}
	}()
	defer c.Close()
	m, err := Detach(c)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	d, err := New(c, 16, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var stats, errs int
	for i := 0; i < 200 && (stats < 3 || errs == 0); i++ {
		ev, ok := m.Poll(1000)
		switch {
		case !ok:
		case ev.Stats != nil:
			stats++
			var doc struct {
				Type string `json:"type"`
			}
			if err := json.Unmarshal(ev.Stats, &doc); err != nil || doc.Type != "consumer" {
				t.Fatalf("statistics document %.200s: %v", ev.Stats, err)
			}
		case ev.Err != nil:
			errs++
			if ev.Err.Partition != -1 || ev.Err.Text == "" {
				t.Errorf("client error %+v", *ev.Err)
			}
		}
		// the consumer queue, served as the fast path's crossing serves it
		n, err := d.Run(0, nil)
		if nerr, _ := d.Errs(); err != nil || n != 0 || nerr != 0 {
			t.Fatalf("crossing: %d messages, %d errors, %v", n, nerr, err)
		}
	}
	if stats < 3 || errs == 0 {
		t.Fatalf("%d statistics documents, %d client errors on the main queue", stats, errs)
	}
	woke := make(chan struct{})
	go func() {
		defer close(woke)
		for {
			// a document may come first; the wake ends the wait after it
			if ev, ok := m.Poll(60_000); !ok || ev.Err != nil {
				return
			}
		}
	}()
	m.Wake()
	<-woke
}
