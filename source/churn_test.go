package source_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/alloc"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// TestConsumeUnderThreadChurn is the allocator stability stress with
// librdkafka in the mix: the fast path consumes (librdkafka's broker threads
// allocating one op per message, the drain freeing them) while goroutines
// lock OS threads, allocate through C and Arrow, and exit locked so Go kills
// their threads. Upstream's mimalloc v3 crashed in exactly this situation
// (lazy heap init on a thread born outside mimalloc). Run it per variant:
// go test -tags mimalloc3 -run ThreadChurn ./source.
func TestConsumeUnderThreadChurn(t *testing.T) {
	if _, err := alloc.Proof(); err != nil {
		t.Fatal(err)
	}
	tp := loadTopic(t, workloads.FormatRaw)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	churnErr := make(chan error, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		churnErr <- alloc.ChurnThreads(ctx, 2560)
	}()
	mem := alloc.Checked()
	for i := 0; i < 3; i++ {
		for _, p := range []consume.Path{consume.PathFast, consume.PathShallow} {
			st, _ := drain(t, tp.config(p, 256, mem), tp.corpus)
			if st.Records != testRecords {
				t.Fatalf("%s under churn: %d records, want %d", p, st.Records, testRecords)
			}
		}
	}
	wg.Wait()
	if err := <-churnErr; err != nil {
		t.Fatalf("%s: thread churn: %v", alloc.Name(), err)
	}
	if n := mem.CurrentAlloc(); n != 0 {
		t.Errorf("%s: %d Arrow bytes not released", alloc.Name(), n)
	}
	t.Logf("alloc=%s %s survived 2560 churned threads while consuming", alloc.Name(), alloc.Version())
}
