package drain

import (
	"strings"
	"testing"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// consumer is a librdkafka consumer that never reaches a broker (nothing
// listens on port 1) and whose log lines are dropped, not printed.
func consumer(t *testing.T, crc bool) *kafka.Consumer {
	t.Helper()
	c, err := kafka.NewConsumer(&kafka.ConfigMap{
		"bootstrap.servers":      "127.0.0.1:1",
		"group.id":               "fplab-drain-test",
		"check.crcs":             crc,
		"go.logs.channel.enable": true,
	})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for range c.Logs() {
		}
	}()
	t.Cleanup(func() { c.Close() })
	return c
}

// TestConfReadsTheRunningClient: the handle found by reflection is the
// client's, so Conf reads back what it was configured with, and an unknown
// property is RD_KAFKA_CONF_UNKNOWN's error.
func TestConfReadsTheRunningClient(t *testing.T) {
	for _, crc := range []bool{false, true} {
		got, err := Conf(consumer(t, crc), "check.crcs")
		if want := map[bool]string{false: "false", true: "true"}[crc]; err != nil || got != want {
			t.Errorf("check.crcs=%v: Conf = %q, %v, want %q", crc, got, err, want)
		}
	}
	if _, err := Conf(consumer(t, false), "no.such.property"); err == nil || !strings.Contains(err.Error(), `has no property "no.such.property"`) {
		t.Errorf("unknown property: %v", err)
	}
}

// TestDrainOfAnIdleQueue: a drain of a queue with nothing assigned crosses
// once, brings no message and no fault, and exposes empty views.
func TestDrainOfAnIdleQueue(t *testing.T) {
	d, err := New(consumer(t, false), 64)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	n, err := d.Run(0)
	if err != nil || n != 0 {
		t.Fatalf("Run = %d, %v, want 0 messages and no fault", n, err)
	}
	if buf, ends, parts, offs := d.Views(); buf != nil || ends != nil || parts != nil || offs != nil {
		t.Errorf("Views of an empty drain = %v %v %v %v", buf, ends, parts, offs)
	}
	if faultNone != 0 {
		t.Errorf("FPL_DRAIN_OK = %d: a zeroed fpl_drain must start without a fault", faultNone)
	}
}
