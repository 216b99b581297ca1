package kafka_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/plain"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/kafka"
	"github.com/fastpathlab/fplab/clusters/kafka/kafkatest"
)

// checkTimeout bounds each authorization check: a refusal must surface as
// an error within it, never as a consumer that waits forever.
const checkTimeout = 30 * time.Second

func authOptions(brokers int) kafka.Options {
	return kafka.Options{Brokers: brokers, Partitions: 3, Auth: &kafka.Auth{
		Users: map[string]string{
			"admin":  "admin-secret",
			"reader": "reader-secret",
			"denied": "denied-secret",
		},
		SuperUser: "admin",
	}}
}

// saslClient is a franz-go client on c as user with password pass.
func saslClient(t *testing.T, c *kafka.Cluster, user, pass string, opts ...kgo.Opt) *kgo.Client {
	t.Helper()
	opts = append([]kgo.Opt{
		kgo.SeedBrokers(c.Bootstrap()...),
		kgo.SASL(plain.Auth{User: user, Pass: pass}.AsMechanism()),
		kgo.DialTimeout(5 * time.Second),
		kgo.RequestRetries(2),
		kgo.RetryTimeout(checkTimeout),
	}, opts...)
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return cl
}

// The upstream parity case "authorization failures must surface": with
// SASL/PLAIN and the ACL authorizer, a user with a read ACL consumes the
// topic, a user without one gets TOPIC_AUTHORIZATION_FAILED, and a wrong
// password gets SASL_AUTHENTICATION_FAILED, each within checkTimeout.
func TestKafkaAuthACL(t *testing.T) {
	const (
		topic   = "secret"
		records = 30
	)
	c := kafkatest.Start(t, authOptions(1))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // fail-safe only
	defer cancel()

	if !strings.Contains(c.String(), "auth=") || strings.Contains(c.String(), "secret") {
		t.Errorf("String() = %q; want the auth mode and no password", c.String())
	}
	props, err := os.ReadFile(filepath.Join(c.Dir(), "node-0", "server.properties"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"listener.security.protocol.map=SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT",
		"authorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer",
		"allow.everyone.if.no.acl.found=false",
		"super.users=User:admin;User:ANONYMOUS",
		`user_denied="denied-secret"`,
	} {
		if !strings.Contains(string(props), want) {
			t.Errorf("server.properties lacks %q", want)
		}
	}
	if p := c.ClientProps("nobody"); p != nil {
		t.Errorf("ClientProps(nobody) = %d props; want nil", len(p))
	}

	// The super user creates the topic and writes the records through the
	// lab's own loader, with the properties ClientProps gives.
	admin := clusters.Cluster{Bootstrap: c.Bootstrap(), Props: c.ClientProps("admin")}
	if _, err := clusters.Load(ctx, admin, topic, 3, records, message); err != nil {
		t.Fatalf("load as admin: %v", err)
	}
	if err := c.AllowRead(ctx, "reader", topic); err != nil {
		t.Fatal(err)
	}
	if err := c.AllowRead(ctx, "nobody", topic); err == nil {
		t.Error("AllowRead for an unknown user: want an error")
	}

	t.Run("reader consumes", func(t *testing.T) {
		cctx, cancel := context.WithTimeout(ctx, checkTimeout)
		defer cancel()
		// A consumer group, so the group ACL AllowRead creates is used too.
		cl := saslClient(t, c, "reader", "reader-secret",
			kgo.ConsumeTopics(topic), kgo.ConsumerGroup("reader-group"),
			kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
		got := map[string]bool{}
		for len(got) < records {
			fs := cl.PollFetches(cctx)
			if cctx.Err() != nil {
				t.Fatalf("reader got %d of %d records before the deadline", len(got), records)
			}
			if errs := fs.Errors(); len(errs) > 0 {
				t.Fatalf("reader: fetch error on %s/%d: %v", errs[0].Topic, errs[0].Partition, errs[0].Err)
			}
			fs.EachRecord(func(r *kgo.Record) { got[string(r.Value)] = true })
		}
		for i := range records {
			if v := string(message(nil, i)); !got[v] {
				t.Fatalf("reader did not get record %q", v)
			}
		}
	})

	t.Run("denied metadata", func(t *testing.T) {
		cctx, cancel := context.WithTimeout(ctx, checkTimeout)
		defer cancel()
		// kadm reports a refused named topic as the call's error.
		adm := kadm.NewClient(saslClient(t, c, "denied", "denied-secret"))
		if err := metadataErr(cctx, adm, topic); !errors.Is(err, kerr.TopicAuthorizationFailed) {
			t.Fatalf("metadata of %s as denied: %v; want %v", topic, err, kerr.TopicAuthorizationFailed)
		}
		// The ACL is for that topic only: reader is refused another one.
		rdr := kadm.NewClient(saslClient(t, c, "reader", "reader-secret"))
		if err := metadataErr(cctx, rdr, "other"); !errors.Is(err, kerr.TopicAuthorizationFailed) {
			t.Fatalf("metadata of another topic as reader: %v; want %v", err, kerr.TopicAuthorizationFailed)
		}
		if err := metadataErr(cctx, rdr, topic); err != nil {
			t.Fatalf("metadata of %s as reader: %v", topic, err)
		}
	})

	t.Run("denied fetch", func(t *testing.T) {
		cctx, cancel := context.WithTimeout(ctx, checkTimeout)
		defer cancel()
		cl := saslClient(t, c, "denied", "denied-secret", kgo.ConsumeTopics(topic),
			kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
		for {
			fs := cl.PollFetches(cctx)
			if cctx.Err() != nil {
				t.Fatalf("denied consumer got no authorization error before the deadline")
			}
			if n := fs.NumRecords(); n > 0 {
				t.Fatalf("denied consumer read %d records", n)
			}
			if errs := fs.Errors(); len(errs) > 0 {
				if !errors.Is(errs[0].Err, kerr.TopicAuthorizationFailed) {
					t.Fatalf("denied consumer: %v; want %v", errs[0].Err, kerr.TopicAuthorizationFailed)
				}
				return
			}
		}
	})

	t.Run("wrong password", func(t *testing.T) {
		cctx, cancel := context.WithTimeout(ctx, checkTimeout)
		defer cancel()
		cl := saslClient(t, c, "reader", "not-the-password")
		_, err := kadm.NewClient(cl).BrokerMetadata(cctx)
		if !errors.Is(err, kerr.SaslAuthenticationFailed) {
			t.Fatalf("metadata with a wrong password: %v; want %v", err, kerr.SaslAuthenticationFailed)
		}
		// The loader reports it too, as one line naming no password.
		bad := clusters.Cluster{Bootstrap: c.Bootstrap(), Props: c.ClientProps("reader")}
		bad.Props["sasl.password"] = "not-the-password"
		_, err = clusters.BrokerCount(cctx, bad)
		if err == nil || strings.Contains(err.Error(), "not-the-password") {
			t.Fatalf("BrokerCount with a wrong password: %v; want an error without the password", err)
		}
	})
}

// On 3 nodes the brokers replicate to each other over the SASL listener as
// the super user: a topic with replication factor 3 gets every replica in
// sync, and the ACL AllowRead creates is in force on every node.
func TestKafkaAuthThreeBrokers(t *testing.T) {
	const topic = "secret3"
	c := kafkatest.Start(t, authOptions(3))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // fail-safe only
	defer cancel()
	admin := clusters.Cluster{Bootstrap: c.Bootstrap(), Props: c.ClientProps("admin")}
	if n, err := clusters.BrokerCount(ctx, admin); err != nil || n != 3 {
		t.Fatalf("BrokerCount = %d, %v; want 3", n, err)
	}
	if _, err := clusters.Load(ctx, admin, topic, 3, 300, message); err != nil {
		t.Fatalf("load as admin: %v", err)
	}
	if err := c.AllowRead(ctx, "reader", topic); err != nil {
		t.Fatal(err)
	}
	if err := c.WaitInSync(ctx); err != nil {
		t.Fatal(err)
	}
	if err := replicatedThrice(ctx, saslClient(t, c, "admin", "admin-secret"), topic); err != nil {
		t.Fatal(err)
	}
	// Each node alone answers reader's metadata for the topic.
	for i, b := range c.Bootstrap() {
		cctx, cancel := context.WithTimeout(ctx, checkTimeout)
		cl, err := kgo.NewClient(kgo.SeedBrokers(b), kgo.SASL(plain.Auth{User: "reader", Pass: "reader-secret"}.AsMechanism()),
			kgo.DialTimeout(5*time.Second), kgo.RequestRetries(2))
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		req := kmsg.NewPtrMetadataRequest()
		rt := kmsg.NewMetadataRequestTopic()
		rt.Topic = kmsg.StringPtr(topic)
		req.Topics = append(req.Topics, rt)
		resp, err := cl.Broker(i).Request(cctx, req)
		cl.Close()
		cancel()
		if err != nil {
			t.Fatalf("node %d: metadata as reader: %v", i, err)
		}
		mr := resp.(*kmsg.MetadataResponse)
		if len(mr.Topics) != 1 || kerr.ErrorForCode(mr.Topics[0].ErrorCode) != nil {
			t.Fatalf("node %d: metadata of %s as reader: %+v; want the topic without error", i, topic, mr.Topics)
		}
	}
	if ok, err := clusters.TopicReady(ctx, clusters.Cluster{Bootstrap: c.Bootstrap(), Props: c.ClientProps("reader")}, topic, 3, 300); err != nil || !ok {
		t.Fatalf("TopicReady as reader = %v, %v; want true", ok, err)
	}
}

// metadataErr is the error of a metadata request for topic: the call's
// own or the topic's.
func metadataErr(ctx context.Context, adm *kadm.Client, topic string) error {
	m, err := adm.Metadata(ctx, topic)
	if err != nil {
		return err
	}
	return m.Topics[topic].Err
}

// replicatedThrice fails unless every partition of topic has 3 replicas
// (the replication factor Load asks for on 3 nodes); the cluster's
// WaitInSync has already waited for every replica to be in sync.
func replicatedThrice(ctx context.Context, cl *kgo.Client, topic string) error {
	m, err := kadm.NewClient(cl).Metadata(ctx, topic)
	if err != nil {
		return err
	}
	if err := m.Topics[topic].Err; err != nil {
		return err
	}
	for _, p := range m.Topics[topic].Partitions {
		if len(p.Replicas) != 3 || len(p.ISR) != 3 {
			return fmt.Errorf("%s partition %d: replicas %v, in sync %v; want 3 and 3", topic, p.Partition, p.Replicas, p.ISR)
		}
	}
	return nil
}

// Bad Auth input fails Start at once, as one line that quotes no password,
// before anything is started (no distribution needed).
func TestKafkaAuthBadInput(t *testing.T) {
	const pw = "pw-must-not-leak"
	cases := []struct {
		name string
		auth kafka.Auth
		want string
	}{
		{"no users", kafka.Auth{SuperUser: "admin"}, "no users"},
		{"super user not a user", kafka.Auth{Users: map[string]string{"a": pw}, SuperUser: "admin"}, `super user "admin" is not one of the users`},
		{"bad name", kafka.Auth{Users: map[string]string{"admin": pw, "x y": pw}, SuperUser: "admin"}, `name "x y"`},
		{"anonymous", kafka.Auth{Users: map[string]string{"admin": pw, "ANONYMOUS": pw}, SuperUser: "admin"}, "reserved"},
		{"quote in password", kafka.Auth{Users: map[string]string{"admin": pw + `"`}, SuperUser: "admin"}, `password of auth user "admin"`},
		{"empty password", kafka.Auth{Users: map[string]string{"admin": ""}, SuperUser: "admin"}, `password of auth user "admin"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := kafka.Start(context.Background(), kafka.Options{Dir: t.TempDir(), Auth: &tc.auth})
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("Start: %v; want one line containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), pw) {
				t.Fatalf("Start: %q quotes the password", err)
			}
		})
	}
}
