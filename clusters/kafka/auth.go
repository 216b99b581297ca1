package kafka

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// aclTimeout bounds AllowRead when its ctx has no deadline.
const aclTimeout = 30 * time.Second

// ClientProps returns the librdkafka-style client properties with which
// user connects to the cluster (the bootstrap list is Bootstrap):
// security.protocol=SASL_PLAINTEXT, sasl.mechanism=PLAIN, sasl.username and
// sasl.password. They fit clusters.Cluster.Props. Without Options.Auth it
// returns an empty map (PLAINTEXT needs none); with it, nil for a user
// Auth does not list. The map holds a password: print it redacted
// (clusters.Cluster's String does).
func (c *Cluster) ClientProps(user string) map[string]string {
	a := c.opt.Auth
	if a == nil {
		return map[string]string{}
	}
	pass, ok := a.Users[user]
	if !ok {
		return nil
	}
	return map[string]string{
		"security.protocol": "SASL_PLAINTEXT",
		"sasl.mechanism":    "PLAIN",
		"sasl.username":     user,
		"sasl.password":     pass,
	}
}

// AllowRead creates, as the super user, the ACLs that let user consume
// topic: READ and DESCRIBE on the topic (literal name) and on every
// consumer group ("*"), so both assigned partitions and group consumption
// with commits work. It returns once every running node's authorizer lists
// them (ACLs reach the brokers through the metadata log, a moment after
// the controller has accepted them), bounded by ctx (30s when ctx has no
// deadline). The cluster must have Options.Auth and user must be one of
// its users; a user with no ACL at all is refused every topic.
func (c *Cluster) AllowRead(ctx context.Context, user, topic string) error {
	return c.allow(ctx, user, topic, "read", func(principal string) *kadm.ACLBuilder {
		return kadm.NewACLs().Allow(principal).Topics(topic).Groups("*").
			Operations(kadm.OpRead, kadm.OpDescribe)
	})
}

// AllowWrite is AllowRead for producing: WRITE and DESCRIBE on the topic
// (an idempotent producer needs no cluster ACL since Kafka 3.0, KIP-679).
func (c *Cluster) AllowWrite(ctx context.Context, user, topic string) error {
	return c.allow(ctx, user, topic, "write", func(principal string) *kadm.ACLBuilder {
		return kadm.NewACLs().Allow(principal).Topics(topic).
			Operations(kadm.OpWrite, kadm.OpDescribe)
	})
}

// AllowTopicRead is AllowRead without any group: READ and DESCRIBE on the
// topic only, the rights a reader needs that neither joins a group nor
// reads or commits a group's offsets.
func (c *Cluster) AllowTopicRead(ctx context.Context, user, topic string) error {
	return c.allow(ctx, user, topic, "read", func(principal string) *kadm.ACLBuilder {
		return kadm.NewACLs().Allow(principal).Topics(topic).Operations(kadm.OpRead, kadm.OpDescribe)
	})
}

// RevokeGroups deletes the group ACLs AllowRead gave user (READ and
// DESCRIBE on every group) and waits until every running node has
// dropped them: a commit or an offset fetch of any group is then refused.
func (c *Cluster) RevokeGroups(ctx context.Context, user string) error {
	a := c.opt.Auth
	if a == nil {
		return fmt.Errorf("revoke groups: the cluster has no Auth, so no authorizer")
	}
	if _, ok := a.Users[user]; !ok {
		return fmt.Errorf("revoke groups: %q is not a user of the cluster", user)
	}
	running := c.runningNodes()
	if running == nil {
		return fmt.Errorf("revoke groups: cluster is stopped")
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, aclTimeout)
		defer cancel()
	}
	cl, err := c.superClient()
	if err != nil {
		return err
	}
	defer cl.Close()
	principal := "User:" + user
	b := kadm.NewACLs().Allow(principal).AllowHosts().Groups("*").Operations(kadm.OpRead, kadm.OpDescribe)
	if _, err := kadm.NewClient(cl).DeleteACLs(ctx, b); err != nil {
		return fmt.Errorf("revoke groups of %s: %w", user, err)
	}
	gone := map[aclKey]bool{
		{kmsg.ACLResourceTypeGroup, "*", kmsg.ACLOperationRead}:     true,
		{kmsg.ACLResourceTypeGroup, "*", kmsg.ACLOperationDescribe}: true,
	}
	for _, id := range running {
		if err := waitACLs(ctx, cl.Broker(id), principal, gone, false); err != nil {
			return fmt.Errorf("revoke groups of %s: node %d: %w", user, id, err)
		}
	}
	return nil
}

// allow creates the ACLs acls builds for user's principal and waits until
// every running node lists them.
func (c *Cluster) allow(ctx context.Context, user, topic, verb string, acls func(principal string) *kadm.ACLBuilder) error {
	a := c.opt.Auth
	switch {
	case a == nil:
		return fmt.Errorf("allow %s: the cluster has no Auth, so no authorizer", verb)
	case topic == "":
		return fmt.Errorf("allow %s: no topic", verb)
	}
	if _, ok := a.Users[user]; !ok {
		return fmt.Errorf("allow %s: %q is not a user of the cluster", verb, user)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, aclTimeout)
		defer cancel()
	}
	running := c.runningNodes()
	if running == nil {
		return fmt.Errorf("allow %s: cluster is stopped", verb)
	}

	cl, err := c.superClient()
	if err != nil {
		return err
	}
	defer cl.Close()
	principal := "User:" + user
	res, err := kadm.NewClient(cl).CreateACLs(ctx, acls(principal))
	if err != nil {
		return fmt.Errorf("allow %s to %s %s: %w", user, verb, topic, err)
	}
	want := make(map[aclKey]bool, len(res))
	for _, r := range res {
		if r.Err != nil {
			return fmt.Errorf("allow %s to %s %s: %v %s %s: %w %s", user, verb, topic, r.Type, r.Name, r.Operation, r.Err, r.ErrMessage)
		}
		want[aclKey{r.Type, r.Name, r.Operation}] = true
	}
	for _, id := range running {
		if err := waitACLs(ctx, cl.Broker(id), principal, want, true); err != nil {
			return fmt.Errorf("allow %s to %s %s: node %d: %w", user, verb, topic, id, err)
		}
	}
	return nil
}

// runningNodes are the ids of the nodes running now; nil once the cluster
// is stopped.
func (c *Cluster) runningNodes() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return nil
	}
	running := []int{}
	for _, n := range c.nodes {
		if n.running() {
			running = append(running, n.id)
		}
	}
	return running
}

// aclKey is what AllowRead checks of each ACL it created (all are ALLOW
// for one principal from any host, literal pattern).
type aclKey struct {
	typ  kmsg.ACLResourceType
	name string
	op   kmsg.ACLOperation
}

// waitACLs polls one broker's DescribeACLs until it lists every wanted
// ALLOW ACL of principal (present), or none of them (!present), or ctx
// ends.
func waitACLs(ctx context.Context, br *kgo.Broker, principal string, want map[aclKey]bool, present bool) error {
	last := "no answer yet"
	for {
		req := kmsg.NewPtrDescribeACLsRequest()
		req.ResourceType = kmsg.ACLResourceTypeAny
		req.ResourcePatternType = kmsg.ACLResourcePatternTypeLiteral
		req.Principal = &principal
		req.Operation = kmsg.ACLOperationAny
		req.PermissionType = kmsg.ACLPermissionTypeAllow
		qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		resp, err := br.Request(qctx, req)
		cancel()
		if err == nil {
			r := resp.(*kmsg.DescribeACLsResponse)
			if err = kerr.ErrorForCode(r.ErrorCode); err == nil {
				seen := 0
				for _, res := range r.Resources {
					for _, acl := range res.ACLs {
						if acl.Host == "*" && want[aclKey{res.ResourceType, res.ResourceName, acl.Operation}] {
							seen++
						}
					}
				}
				if (present && seen == len(want)) || (!present && seen == 0) {
					return nil
				}
				last = fmt.Sprintf("it lists %d of the %d ACLs", seen, len(want))
			}
		}
		if err != nil {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("ACLs not in force before the deadline (%s)", last)
		case <-time.After(pollEvery):
		}
	}
}
