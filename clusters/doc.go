// Package clusters provides the Kafka clusters the lab consumes from.
//
// It sits beside source/ under ladder/ in the flow
// spec -> cells -> child process -> result -> journal -> tables/plots/report:
// before the ladder runs any cell it asks clusters for a cluster, loads the
// corpus once per (format, cluster) group, and reads back the broker count
// that goes into the result's file-config lines.
//
// What it owns:
//
//   - The embedded cluster: RunEmbedded is the body of `fplab broker`, a
//     kfake cluster of 1..9 brokers on 127.0.0.1 that prints one
//     "bootstrap: host:port,..." line and serves until its context ends
//     (ContextUntilStdinEOF ties that to the parent's stdin pipe, so a dead
//     parent never leaves a broker behind). StartEmbedded runs it in its own
//     process, so the broker's CPU and GC stay out of the consumer's figures
//     and profiles; kfake in the consumer's process distorts both.
//   - External clusters: Cluster is a bootstrap list plus librdkafka-style
//     client properties (ParseProps, Redacted keeps secrets out of output).
//   - Topic setup and corpus loading: Load creates the topic and produces
//     record i to partition i % P, so (partition p, offset o) holds record
//     o*P+p; TopicReady says when an existing topic already holds exactly
//     that corpus, so callers skip Load. WithLayout loads by a
//     workloads.Layout instead: its placement, its tombstones as null
//     values and, for a transactional Shape, its transactions, committed
//     or aborted, in a transactional producer; Load then checks that each
//     partition ends at the layout's end offset (control records
//     included), and TopicHolds is TopicReady for such a topic.
//   - Paced production for live cells: CreateTopic makes a fresh empty
//     topic (DeleteTopic removes one) and ProducePaced writes records at a
//     fixed rate, as OpenMessaging Benchmark's producers do, without
//     coordinated omission: record i has an intended send time
//     T0 + i/Rate, which is also its timestamp, and is handed to the
//     client then or, when the producer is behind, as soon as it can be,
//     never rescheduled; PacedStats says how far behind it fell
//     (MaxBehind) and what rate it achieved. Records are placed as Load
//     places them, and generated before T0 so that the generator never
//     limits the rate.
//   - Changing a loaded topic under a reader: DeleteRecords moves log
//     starts forward (LogStart reads them back), Append adds plain records
//     after the end.
//   - Read-back: BrokerCount and PartitionCount from cluster metadata, always
//     bounded in time, with one-line errors for an unreachable bootstrap.
//   - Liveness, so a dead broker is named instead of waited on: Probe checks
//     that every bootstrap broker answers; Load and ProducePaced watch
//     their brokers and stop within about a second of a death; all return a
//     *BrokerDownError, which tells "the infrastructure died" from "a cell
//     failed on its own". Embedded.Exited reports the broker process's
//     death, Embedded.Kill causes one for fault tests.
//
// Of the project it imports only cell (codec names, the secret-key rule,
// props and bootstrap parsing) and workloads
// (Layout); the corpus itself enters as a message func. Tests and other
// packages' tests get an embedded broker in a child process through the
// clusterstest subpackage.
package clusters
