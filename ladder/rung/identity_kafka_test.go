package rung_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/kafka"
	"github.com/fastpathlab/fplab/clusters/kafka/kafkatest"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// TestKafkaClientIDOnTheBroker: each Go path names itself to the broker
// as Flink's KafkaSource names subtask i's consumer, <client.id.prefix>-<i>
// (source.Config.ClientID, else the group, else fplab-<path>). Real
// Kafka's request log (kafka.request.logger at DEBUG: a line per request
// with its header) must show the path's Fetch requests under that client
// id, and no other client id may fetch the topic: a path that left
// client.id unset (librdkafka's "rdkafka", franz-go's "kgo") fails it.
func TestKafkaClientIDOnTheBroker(t *testing.T) {
	cl := kafkatest.Start(t, kafka.Options{Brokers: 1, Partitions: 3, RequestLog: true})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	codec, topic := identityTopic(t, ctx, clusters.Cluster{Bootstrap: cl.Bootstrap()}, "clientid")
	want := map[string]bool{}
	for i, p := range consume.Paths() {
		cfg := source.Config{Path: p, Bootstrap: cl.Bootstrap(), Topic: topic, Partitions: 3, Batch: 512,
			Codec: codec, Mem: memory.NewGoAllocator(), Timeout: 30 * time.Second, ClientID: "fplab-cid-" + string(p)}
		if i%2 == 1 {
			// the prefix falls back to the group when no client id is set
			cfg.ClientID, cfg.Group, cfg.StartAt = "", "fplab-cid-"+string(p), source.StartEarliest
		}
		want["fplab-cid-"+string(p)+"-0"] = false
		if n := readToEnd(t, ctx, cfg); n != identityRecords {
			t.Fatalf("%s read %d records, want %d", p, n, identityRecords)
		}
	}
	fetchers := fetchClientIDs(t, cl.BrokerLogs()[0])
	t.Logf("client ids of the Fetch requests: %v", fetchers)
	for id := range fetchers {
		if _, ok := want[id]; !ok {
			t.Errorf("client id %q fetched from the broker; want only %v", id, want)
		}
		want[id] = true
	}
	for id, seen := range want {
		if !seen {
			t.Errorf("no Fetch request with client id %q in the broker's request log", id)
		}
	}
}

// readToEnd reads cfg's topic to its end and returns the rows read.
func readToEnd(t *testing.T, ctx context.Context, cfg source.Config) int64 {
	t.Helper()
	r, err := source.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("%s: %v", cfg.Path, err)
	}
	defer r.Close()
	var n int64
	for {
		b, err := r.Next(ctx)
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			t.Fatalf("%s: %v", cfg.Path, err)
		}
		n += b.Rec.NumRows()
		b.Rec.Release()
	}
}

// fetchClientIDs are the client ids of the Fetch requests (API key 1) in
// a broker's request log: Kafka logs each completed request as
// `Completed request:{"requestHeader":{"requestApiKey":1,...,"clientId":"..."},...}`.
func fetchClientIDs(t *testing.T, log string) map[string]bool {
	t.Helper()
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ids := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	lines := 0
	for sc.Scan() {
		l := sc.Text()
		if !strings.Contains(l, "Completed request:") {
			continue
		}
		lines++
		if !strings.Contains(l, `"requestApiKey":1,`) {
			continue
		}
		_, rest, ok := strings.Cut(l, `"clientId":"`)
		if !ok {
			t.Fatalf("a Fetch request without a client id in the request log: %.300s", l)
		}
		id, _, _ := strings.Cut(rest, `"`)
		ids[id] = true
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines == 0 {
		t.Fatalf("no request in %s: is the request log on?", log)
	}
	return ids
}

// TestKafkaReadWithoutGroupRights: a user with READ and DESCRIBE on the
// topic and no right on any group reads it whole with every Go path when
// no group is given, on real Kafka with the StandardAuthorizer (the
// upstream gate: no group is needed in the earliest, latest, specific
// offsets and timestamp modes). The librdkafka paths still carry a
// synthetic group.id (source.Config's groupID says why) and look up its
// coordinator in the background; the broker refuses that lookup, and the
// read must not depend on it. A committed start as the same user must fail
// with one line naming the refused group.
func TestKafkaReadWithoutGroupRights(t *testing.T) {
	cl := kafkatest.Start(t, kafka.Options{Brokers: 1, Partitions: 3, Auth: &kafka.Auth{
		Users: map[string]string{"admin": "admin-secret", "groupless": "groupless-secret"}, SuperUser: "admin"}})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	codec, topic := identityTopic(t, ctx, clusters.Cluster{Bootstrap: cl.Bootstrap(), Props: cl.ClientProps("admin")}, "groupless")
	if err := cl.AllowTopicRead(ctx, "groupless", topic); err != nil {
		t.Fatal(err)
	}
	for _, p := range consume.Paths() {
		cfg := source.Config{Path: p, Bootstrap: cl.Bootstrap(), Props: cl.ClientProps("groupless"), Topic: topic,
			Partitions: 3, Batch: 512, Codec: codec, Mem: memory.NewGoAllocator(), Timeout: 30 * time.Second}
		if n := readToEnd(t, ctx, cfg); n != identityRecords {
			t.Fatalf("%s read %d records, want %d", p, n, identityRecords)
		}
		// the librdkafka paths wait out the timeout for a coordinator
		// the broker will not name them, then say why
		cfg.StartAt, cfg.Group, cfg.Timeout = source.StartCommitted, "fplab-groupless", 5*time.Second
		r, err := source.Open(ctx, cfg)
		if err == nil {
			r.Close()
			t.Fatalf("%s: a committed start without group rights opened", p)
		}
		t.Logf("%s, committed start without group rights: %v", p, err)
		if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(strings.ToLower(msg), "authoriz") {
			t.Errorf("%s: committed start without group rights: %q, want one line naming the authorization failure", p, msg)
		}
	}
}

// TestKafkaCommitRefusedMidRead: a reader's group rights revoked mid-read
// on real Kafka (the StandardAuthorizer), as the upstream gate asks of
// commits on checkpoints. The commit before lands on the broker; the
// commit after fails with one line naming the refusal, within its
// context; the read goes on to its end with every record (the read never
// depends on its group), as Flink's KafkaSource reports a failed commit
// and keeps reading. The checkpointcost harness's side (a failed commit
// counted, the checkpoint kept) is TestRunReaderCommitsOffsetsOfCompletedCheckpoints.
func TestKafkaCommitRefusedMidRead(t *testing.T) {
	cl := kafkatest.Start(t, kafka.Options{Brokers: 1, Partitions: 3, Auth: &kafka.Auth{
		Users: map[string]string{"admin": "admin-secret", "reader": "reader-secret"}, SuperUser: "admin"}})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	admin := clusters.Cluster{Bootstrap: cl.Bootstrap(), Props: cl.ClientProps("admin")}
	codec, topic := identityTopic(t, ctx, admin, "revoked")
	for _, p := range consume.Paths() {
		if err := cl.AllowRead(ctx, "reader", topic); err != nil {
			t.Fatal(err)
		}
		group := "fplab-revoked-" + string(p)
		// a fresh cluster's coordinator may still be loading the group's
		// offsets partition (COORDINATOR_LOAD_IN_PROGRESS, which
		// librdkafka's commit returns as is); kadm's commit waits it out
		if err := clusters.CommitOffsets(ctx, admin, group, topic, make([]int64, 3)); err != nil {
			t.Fatal(err)
		}
		cfg := source.Config{Path: p, Bootstrap: cl.Bootstrap(), Props: cl.ClientProps("reader"), Topic: topic,
			Partitions: 3, Batch: 256, Codec: codec, Mem: memory.NewGoAllocator(), Timeout: 30 * time.Second, Group: group}
		r, err := source.Open(ctx, cfg)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		b, err := r.Next(ctx)
		if err != nil {
			r.Close()
			t.Fatalf("%s: %v", p, err)
		}
		rows, split := b.Rec.NumRows(), slices.Clone(b.Split)
		b.Rec.Release()
		cm := r.(consume.Committer)
		if err := cm.CommitOffsets(ctx, split); err != nil {
			r.Close()
			t.Fatalf("%s: commit with group rights: %v", p, err)
		}
		got, err := clusters.CommittedOffsets(ctx, admin, group, topic, 3)
		if err != nil || !slices.Equal(got, split) {
			t.Errorf("%s: the broker holds %v (%v), want the committed %v", p, got, err, split)
		}
		if err := cl.RevokeGroups(ctx, "reader"); err != nil {
			t.Fatal(err)
		}
		cctx, ccancel := context.WithTimeout(ctx, 20*time.Second)
		err = cm.CommitOffsets(cctx, split)
		ccancel()
		t.Logf("%s: commit after the revoke: %v", p, err)
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(strings.ToLower(err.Error()), "authoriz") {
			t.Errorf("%s: commit after the revoke: %v; want one line naming the authorization failure", p, err)
		}
		for {
			b, err := r.Next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				r.Close()
				t.Fatalf("%s: the read after a refused commit: %v", p, err)
			}
			rows += b.Rec.NumRows()
			b.Rec.Release()
		}
		r.Close()
		if rows != identityRecords {
			t.Errorf("%s: %d rows, want %d", p, rows, identityRecords)
		}
	}
}

// identityRecords is the size of the identity tests' topics.
const identityRecords = 3000

// identityTopic loads a json corpus of identityRecords records into a
// topic of 3 partitions named after suffix, as cl's client, and returns
// its codec and name.
func identityTopic(t *testing.T, ctx context.Context, cl clusters.Cluster, suffix string) (workloads.Codec, string) {
	t.Helper()
	schema, _ := workloads.SchemaByName("bid")
	codec, err := workloads.NewCodec(workloads.FormatJSON, schema)
	if err != nil {
		t.Fatal(err)
	}
	corpus := workloads.NewCorpus(schema, codec, 1, identityRecords)
	topic := corpus.ID() + "-" + suffix
	if _, err := clusters.Load(ctx, cl, topic, 3, identityRecords, corpus.Message); err != nil {
		t.Fatal(err)
	}
	return codec, topic
}
