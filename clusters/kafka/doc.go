// Package kafka runs real Apache Kafka clusters for the lab: 1..9 combined
// broker+controller KRaft nodes on 127.0.0.1, each a `java kafka.Kafka`
// process of its own.
//
// Where it sits in the flow
//
//	spec -> cells -> child process -> result -> journal -> tables/plots/report
//
// is beside package clusters, before the cells: the ladder starts one
// cluster per shape with `cluster: kafka` (ladder.KafkaInfra), loads the
// corpus onto it with clusters.Load, and every cell's child consumes from
// it. The same jars serve the Java reference rung (path=java,
// org.apache.kafka.tools.ConsumerPerformance); see Dist.
//
// What it owns:
//
//   - The distribution: the broker, tools and their dependencies resolved
//     from Maven Central into a cache directory by `make kafka-dist`
//     (dist/pom.xml). DistDir finds it (FPLAB_KAFKA_DIST or the default
//     cache); nothing is downloaded at run time.
//   - Provisioning: Start generates each node's server.properties and log4j2
//     configuration under Options.Dir, formats its storage with
//     kafka.tools.StorageTool, starts the nodes in their own process groups
//     on free ports, and waits until metadata lists every broker. Broker
//     logs stay in Options.Dir (broker-<i>.log).
//   - Stopping: Stop sends SIGTERM to every node's process group at once and
//     SIGKILL after a grace; no node outlives Stop, and the parent's death
//     kills the nodes too (Pdeathsig).
//   - Authentication (Options.Auth): a SASL_PLAINTEXT/PLAIN client
//     listener with the given users, the StandardAuthorizer denying what no
//     ACL allows, ClientProps for each user's client properties and
//     AllowRead to grant a user a topic; see auth.go and authProps.
//   - Fault injection: KillBroker and RestartBroker, and a tiny line
//     protocol on a unix socket (Cluster.ServeFaults; DialFaults and
//     FaultConn.Kill/Restart on the child's side) through which a
//     cell's child process asks the process owning the cluster to kill the
//     leader of a partition and later restart it.
//
// Errors are one line and carry no package prefix (the CLI adds one); a
// fault request's error comes back over the socket as the text of an
// "err" reply.
package kafka
