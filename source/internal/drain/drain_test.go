package drain

import (
	"fmt"
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

// newDrain attaches a drain of capn messages to a consumer that never
// reaches a broker, empties it as a crossing does first, and closes it when
// the test ends.
func newDrain(t *testing.T, capn int, keys bool) *Drain {
	t.Helper()
	d, err := New(consumer(t, false), capn, keys)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)
	d.reset()
	return d
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
	d := newDrain(t, 64, false)
	n, err := d.Run(0, nil)
	if err != nil || n != 0 {
		t.Fatalf("Run = %d, %v, want 0 messages and no fault", n, err)
	}
	if buf, ends, parts, offs, nulls := d.Views(); buf != nil || ends != nil || parts != nil || offs != nil || nulls != nil {
		t.Errorf("Views of an empty drain = %v %v %v %v %v", buf, ends, parts, offs, nulls)
	}
	if faultNone != 0 {
		t.Errorf("FPL_DRAIN_OK = %d: a zeroed fpl_drain must start without a fault", faultNone)
	}
}

// TestEOFMirrorsLibrdkafka pins rdk.h's copy of the one error code the
// drain tells apart.
func TestEOFMirrorsLibrdkafka(t *testing.T) {
	if kafka.ErrorCode(errPartitionEOF) != kafka.ErrPartitionEOF {
		t.Fatalf("RD_KAFKA_RESP_ERR__PARTITION_EOF = %d in rdk.h, %d in librdkafka", errPartitionEOF, kafka.ErrPartitionEOF)
	}
}

// TestDrainBookkeeping feeds a drain what a crossing's callback gets:
// values (one empty), tombstones, EOF events and errors, past the initial
// capacity. Values land back to back with their ends; a tombstone is
// flagged and adds no byte; an empty value is not a tombstone; EOF events
// are not errors; every error keeps its code, partition, offset and text.
func TestDrainBookkeeping(t *testing.T) {
	d := newDrain(t, 2, false)
	type msg struct {
		off  int64
		val  string
		null bool
	}
	msgs := []msg{{0, "ab", false}, {1, "", true}, {2, "", false}, {3, "cde", false}, {4, "", true}}
	for _, m := range msgs {
		d.take(0, 1, m.off, []byte(m.val), m.null)
	}
	d.take(kafka.ErrPartitionEOF, 1, 5, []byte("reached end"), false)
	d.take(kafka.ErrTransport, -1, -1001, []byte("broker down"), false)
	d.take(kafka.ErrAutoOffsetReset, 2, 7, []byte("offset out of range"), false)
	d.take(kafka.ErrPartitionEOF, 2, 9, nil, true)

	buf, ends, parts, offs, nulls := d.Views()
	if string(buf) != "abcde" {
		t.Errorf("buf %q, want %q", buf, "abcde")
	}
	wantEnds := []uint32{2, 2, 2, 5, 5}
	for i, m := range msgs {
		if ends[i] != wantEnds[i] || parts[i] != 1 || offs[i] != m.off || nulls[i] != m.null {
			t.Errorf("message %d: end %d partition %d offset %d null %v, want %d 1 %d %v", i, ends[i], parts[i], offs[i], nulls[i], wantEnds[i], m.off, m.null)
		}
	}
	if len(ends) != len(msgs) {
		t.Errorf("%d messages, want %d", len(ends), len(msgs))
	}
	if eofs := d.EOFs(); len(eofs) != 2 || eofs[0] != (EOF{1, 5}) || eofs[1] != (EOF{2, 9}) {
		t.Errorf("EOFs %v, want [{1 5} {2 9}]", eofs)
	}
	n, errs := d.Errs()
	want := []Err{{kafka.ErrTransport, -1, -1001, "broker down"}, {kafka.ErrAutoOffsetReset, 2, 7, "offset out of range"}}
	if n != 2 || len(errs) != 2 || errs[0] != want[0] || errs[1] != want[1] {
		t.Errorf("Errs = %d %v, want 2 %v", n, errs, want)
	}

	d.reset()
	if buf, ends, _, _, _ := d.Views(); buf != nil || ends != nil {
		t.Errorf("after reset: %q %v", buf, ends)
	}
	if n, errs := d.Errs(); n != 0 || len(errs) != 0 || len(d.EOFs()) != 0 {
		t.Errorf("after reset: %d errors %v, EOFs %v", n, errs, d.EOFs())
	}
}

// TestDrainAim: a crossing aimed at a destination puts payloads there
// back to back while they fit; the first that does not fit and every
// message after it go to the drain's own buffer, and the callback yields
// at each. Tombstones take no byte wherever they land; after a reset
// without a destination, nothing yields.
func TestDrainAim(t *testing.T) {
	d := newDrain(t, 2, false)
	dst := d.aim(10)
	type msg struct {
		val  string
		null bool
	}
	msgs := []msg{{"abc", false}, {"", true}, {"de", false}, {"", false}, {"fghijk", false}, {"", true}, {"x", false}}
	yields := []int{0, 0, 0, 0, 1, 2, 3}
	for i, m := range msgs {
		d.take(0, 0, int64(i), []byte(m.val), m.null)
		if d.yields() != yields[i] {
			t.Errorf("after message %d: %d yields, want %d", i, d.yields(), yields[i])
		}
	}
	split, n := d.Split()
	if split != 4 || n != 5 || string(dst[:n]) != "abcde" {
		t.Errorf("Split = %d, %d bytes %q; want 4, 5 %q", split, n, dst[:n], "abcde")
	}
	buf, ends, _, offs, nulls := d.Views()
	if string(buf) != "fghijkx" {
		t.Errorf("buf %q, want %q", buf, "fghijkx")
	}
	wantEnds := []uint32{3, 3, 5, 5, 6, 6, 7}
	for i, m := range msgs {
		if ends[i] != wantEnds[i] || offs[i] != int64(i) || nulls[i] != m.null {
			t.Errorf("message %d: end %d offset %d null %v, want %d %d %v", i, ends[i], offs[i], nulls[i], wantEnds[i], i, m.null)
		}
	}

	d.reset()
	d.aim(0)
	d.take(0, 0, 0, []byte("a"), false)
	d.take(0, 0, 1, []byte("b"), false)
	if split, _ := d.Split(); d.yields() != 0 || split != 0 {
		t.Errorf("no destination: %d yields, split %d; want 0, 0", d.yields(), split)
	}
	if buf, _, _, _, _ := d.Views(); string(buf) != "ab" {
		t.Errorf("no destination: buf %q, want %q", buf, "ab")
	}
}

// TestHeaderCodesMirrorLibrdkafka pins rdk.h's copies of the codes a
// keyed drain tells apart.
func TestHeaderCodesMirrorLibrdkafka(t *testing.T) {
	if kafka.ErrorCode(errNoEnt) != kafka.ErrNoent || kafka.ErrorCode(errBadMsg) != kafka.ErrBadMsg {
		t.Fatalf("RD_KAFKA_RESP_ERR__NOENT, __BAD_MSG = %d, %d in rdk.h; %d, %d in librdkafka", errNoEnt, errBadMsg, kafka.ErrNoent, kafka.ErrBadMsg)
	}
}

// keyedView is one message's key and headers as a keyed drain's views
// hold them.
type keyedView struct {
	key     []byte
	keyNull bool
	hdrs    []kafka.Header
}

// keyedViews reads every message's key and headers back from KeyViews.
func keyedViews(t *testing.T, d *Drain) []keyedView {
	t.Helper()
	keys, kends, knulls, hbuf, hends := d.KeyViews()
	if len(kends) != len(knulls) || len(kends) != len(hends) {
		t.Fatalf("KeyViews: %d key ends, %d null flags, %d header ends", len(kends), len(knulls), len(hends))
	}
	var out []keyedView
	kfrom, hfrom := uint32(0), uint32(0)
	for i := range kends {
		v := keyedView{key: keys[kfrom:kends[i]], keyNull: knulls[i]}
		hs := HeadersOf(hbuf[hfrom:hends[i]])
		for {
			name, val, ok := hs.Next()
			if !ok {
				break
			}
			v.hdrs = append(v.hdrs, kafka.Header{Key: string(name), Value: val})
		}
		kfrom, hfrom = kends[i], hends[i]
		out = append(out, v)
	}
	return out
}

// TestKeyedDrainBookkeeping: a keyed drain keeps every message's key
// (null, empty or not, past its initial capacity) and headers (none, a
// null value, an empty value, many), tombstones' included, next to the
// values; events and errors take no key row. An unkeyed drain keeps none.
func TestKeyedDrainBookkeeping(t *testing.T) {
	long := []byte(strings.Repeat("k", 100))
	var many []kafka.Header
	for i := range 20 {
		many = append(many, kafka.Header{Key: fmt.Sprintf("h%d", i), Value: []byte(strings.Repeat("v", i))})
	}
	type msg struct {
		val  string
		null bool
		meta meta
	}
	msgs := []msg{
		{"ab", false, meta{[]byte("k0"), []kafka.Header{{Key: "a", Value: []byte("1")}, {Key: "b", Value: nil}}}},
		{"", true, meta{[]byte("k1"), []kafka.Header{{Key: "seq", Value: []byte{0, 0, 0, 0, 0, 0, 0, 1}}}}},
		{"c", false, meta{}},
		{"", false, meta{[]byte{}, []kafka.Header{{Key: "e", Value: []byte{}}}}},
		{"def", false, meta{long, many}},
	}
	for _, keyed := range []bool{true, false} {
		d := newDrain(t, 2, keyed)
		for i, m := range msgs {
			d.takeMeta(0, 1, int64(i), []byte(m.val), m.null, m.meta)
			if i == 1 {
				d.take(kafka.ErrPartitionEOF, 1, 2, nil, true)
				d.take(kafka.ErrTransport, -1, -1001, []byte("broker down"), false)
			}
		}
		buf, ends, _, _, nulls := d.Views()
		if string(buf) != "abcdef" || len(ends) != len(msgs) || !nulls[1] || nulls[3] {
			t.Fatalf("keyed=%v: values %q ends %v nulls %v", keyed, buf, ends, nulls)
		}
		if !keyed {
			if k, ke, kn, h, he := d.KeyViews(); k != nil || ke != nil || kn != nil || h != nil || he != nil {
				t.Errorf("an unkeyed drain kept keys or headers")
			}
			continue
		}
		got := keyedViews(t, d)
		for i, m := range msgs {
			g := got[i]
			if g.keyNull != (m.meta.key == nil) || string(g.key) != string(m.meta.key) || (m.meta.key != nil && g.key == nil) {
				t.Errorf("message %d: key %q (null %v), want %q", i, g.key, g.keyNull, m.meta.key)
			}
			if len(g.hdrs) != len(m.meta.hdrs) {
				t.Errorf("message %d: %d headers, want %d", i, len(g.hdrs), len(m.meta.hdrs))
				continue
			}
			for k, h := range m.meta.hdrs {
				gh := g.hdrs[k]
				if gh.Key != h.Key || string(gh.Value) != string(h.Value) || (gh.Value == nil) != (h.Value == nil) {
					t.Errorf("message %d header %d: %s=%q (nil %v), want %s=%q (nil %v)", i, k, gh.Key, gh.Value, gh.Value == nil, h.Key, h.Value, h.Value == nil)
				}
			}
		}
		d.reset()
		if k, ke, _, _, _ := d.KeyViews(); k != nil || ke != nil {
			t.Errorf("after reset: keys %q ends %v", k, ke)
		}
	}
}
