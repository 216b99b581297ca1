// Package clusterstest gives tests an embedded Kafka cluster in a child
// process, the way the ladder runs `fplab broker`, without building the
// fplab binary: the test binary re-executes itself as the broker.
//
// Use it from any package's tests:
//
//	func TestMain(m *testing.M) {
//		clusterstest.BrokerMain() // returns unless this process is the broker
//		os.Exit(m.Run())
//	}
//
//	func TestX(t *testing.T) {
//		e := clusterstest.StartSelfT(t, 3, 6) // 3 brokers, 6 partitions
//		c := clusters.Cluster{Bootstrap: e.Bootstrap()}
//		...
//	}
//
// It sits beside the tests of clusters, ladder and source; it is never
// linked into fplab.
package clusterstest
