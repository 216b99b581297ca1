package source_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
	"github.com/fastpathlab/fplab/source"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// saslProps are a SASL_PLAINTEXT cluster's client properties for user.
func saslProps(user, pass string) map[string]string {
	return map[string]string{
		"security.protocol": "SASL_PLAINTEXT", "sasl.mechanisms": "PLAIN",
		"sasl.username": user, "sasl.password": pass,
	}
}

// TestSASLAndAuthorization runs every path against a SASL_PLAINTEXT
// cluster with ACLs (kfake in this process: the shared embedded cluster
// has neither). A user allowed to read the topic reads it whole (franz
// included: it takes the SASL PLAIN properties); a user without rights on
// the topic (denied at open), one who may describe but not read it (denied
// at the first fetch) and a wrong password each fail with one error line,
// within the reader's timeout; a user with rights on the topic and none on
// any group reads it whole on every path (the librdkafka paths' synthetic
// group.id is refused its coordinator and the read goes on; real Kafka's
// StandardAuthorizer in TestKafkaReadWithoutGroupRights). kfake drops the connection on a
// wrong password instead of answering SASL_AUTHENTICATION_FAILED, so that
// case can only show up as a transport failure here.
func TestSASLAndAuthorization(t *testing.T) {
	const topic, records = "secure", 200
	allow := func(res kmsg.ACLResourceType, name string, pat kmsg.ACLResourcePatternType, ops ...kmsg.ACLOperation) []kfake.ACL {
		var acls []kfake.ACL
		for _, op := range ops {
			acls = append(acls, kfake.ACL{Resource: res, Name: name, Pattern: pat, Operation: op, Allow: true})
		}
		return acls
	}
	readTopic := allow(kmsg.ACLResourceTypeTopic, topic, kmsg.ACLResourcePatternTypeLiteral, kmsg.ACLOperationRead, kmsg.ACLOperationDescribe)
	// metadata and offsets, but no fetch
	describeTopic := allow(kmsg.ACLResourceTypeTopic, topic, kmsg.ACLResourcePatternTypeLiteral, kmsg.ACLOperationDescribe)
	// the librdkafka paths' group.id is fplab-<path>-<time>
	readGroup := allow(kmsg.ACLResourceTypeGroup, "fplab-", kmsg.ACLResourcePatternTypePrefixed, kmsg.ACLOperationRead, kmsg.ACLOperationDescribe)
	c := clusterstest.InProcess(t,
		kfake.EnableSASL(),
		kfake.Superuser("PLAIN", "admin", "admin-secret"),
		kfake.EnableACLs(),
		kfake.User("PLAIN", "reader", "reader-secret", append(readTopic, readGroup...)...),
		kfake.User("PLAIN", "stranger", "stranger-secret", readGroup...),
		kfake.User("PLAIN", "groupless", "groupless-secret", readTopic...),
		kfake.User("PLAIN", "describer", "describer-secret", append(describeTopic, readGroup...)...),
		kfake.SeedTopics(testParts, topic),
	)
	admin := clusters.Cluster{Bootstrap: c.ListenAddrs(), Props: saslProps("admin", "admin-secret")}
	tp := loadTopic(t, workloads.FormatJSON, on(admin, topic), withSeed(5), withRecords(records))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	cfg := func(p consume.Path, props map[string]string) source.Config {
		rc := tp.config(p, 64, memory.NewGoAllocator())
		rc.Props, rc.Timeout = props, 3*time.Second
		return rc
	}
	// readAll opens and drains a reader: the rows, or the first error.
	readAll := func(cfg source.Config) (int64, error) {
		r, err := source.Open(ctx, cfg)
		if err != nil {
			return 0, err
		}
		defer r.Close()
		var rows int64
		for {
			b, err := r.Next(ctx)
			if errors.Is(err, io.EOF) {
				return rows, nil
			}
			if err != nil {
				return rows, err
			}
			rows += b.Rec.NumRows()
			b.Rec.Release()
		}
	}
	for _, p := range consume.Paths() {
		t.Run(string(p), func(t *testing.T) {
			if n, err := readAll(cfg(p, saslProps("reader", "reader-secret"))); err != nil || n != records {
				t.Fatalf("reader: %d rows, %v; want %d", n, err, records)
			}
			for _, tc := range []struct {
				name, user, pass, want string
				franzWant              string // when franz words it otherwise
			}{
				{"no topic rights", "stranger", "stranger-secret", "uthorization", ""},
				{"no read rights", "describer", "describer-secret", "uthorization", ""},
				{"wrong password", "reader", "not-the-secret", "metadata from ", `franz: list offsets of "secure": `},
				{"no group rights", "groupless", "groupless-secret", "", ""},
			} {
				if p == consume.PathFranz && tc.franzWant != "" {
					tc.want = tc.franzWant
				}
				c := cfg(p, saslProps(tc.user, tc.pass))
				c.Timeout = 1500 * time.Millisecond
				if tc.user == "groupless" {
					// No path needs a group to read from given offsets:
					// franz-go reads without one, and the librdkafka
					// paths tolerate the refused coordinator lookup of
					// their synthetic group.id (rdkConsumer.tolerated).
					if n, err := readAll(c); err != nil || n != records {
						t.Errorf("%s: %d rows, %v; want %d", tc.name, n, err, records)
					}
					continue
				}
				begin := time.Now()
				_, err := readAll(c)
				d := time.Since(begin)
				if err == nil || !strings.Contains(err.Error(), tc.want) ||
					strings.Contains(err.Error(), "\n") || strings.Contains(err.Error(), tc.pass) {
					t.Errorf("%s: %v; want one line with %q, no password", tc.name, err, tc.want)
				}
				// no hang (a loaded machine stretches the clients' timeouts
				// and close, so this bounds a hang, not a duration)
				if d > c.Timeout+20*time.Second {
					t.Errorf("%s: failed after %v (timeout %v)", tc.name, d, c.Timeout)
				}
				t.Logf("%s after %v: %v", tc.name, d.Round(time.Millisecond), err)
			}
		})
	}
}
