package workloads

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/fastpathlab/fplab/internal/golden"
)

func TestCorpusDeterministic(t *testing.T) {
	for _, cb := range combos(t) {
		t.Run(cb.name(), func(t *testing.T) {
			a := NewCorpus(cb.schema, cb.codec, 42, 300)
			b := NewCorpus(cb.schema, cb.codec, 42, 300)
			other := NewCorpus(cb.schema, cb.codec, 43, 300)
			same := 0
			// Walk b backwards: record i must not depend on what came before.
			for i := a.Count() - 1; i >= 0; i-- {
				ma := a.Message(nil, i)
				if got := b.Message(nil, i); !bytes.Equal(ma, got) {
					t.Fatalf("record %d differs between two corpora with seed 42", i)
				}
				if a.Hash(i) != b.Hash(i) {
					t.Fatalf("record %d hash differs between two corpora with seed 42", i)
				}
				if bytes.Equal(ma, other.Message(nil, i)) {
					same++
				}
			}
			if same > a.Count()/10 {
				t.Errorf("seeds 42 and 43 give %d identical records of %d", same, a.Count())
			}
			if a.Checksum(0, a.Count()) == other.Checksum(0, other.Count()) {
				t.Error("seeds 42 and 43 give the same checksum")
			}
		})
	}
}

// TestCorpusParallel makes records from many goroutines at once (run with
// -race) and checks they match a sequential pass.
func TestCorpusParallel(t *testing.T) {
	c := mustCodec(t, FormatAvro, "bid-wide")
	cp := NewCorpus(c.Schema(), c, 9, 2000)
	want := make([][]byte, cp.Count())
	for i := range want {
		want[i] = cp.Message(nil, i)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var buf []byte
			var r Row
			for i := w; i < cp.Count(); i += 4 {
				buf = cp.Message(buf[:0], i)
				cp.Row(i, &r)
				if !bytes.Equal(buf, want[i]) || !bytes.Equal(c.Encode(nil, &r), want[i]) {
					errs <- fmt.Sprintf("record %d differs when made in parallel", i)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestCorpusRowOwnsStrings checks Row's strings survive later generation
// (Message and Hash reuse buffers internally).
func TestCorpusRowOwnsStrings(t *testing.T) {
	c := mustCodec(t, FormatJSON, "bid-wide")
	cp := NewCorpus(c.Schema(), c, 1, 100)
	var r0 Row
	cp.Row(0, &r0)
	keep := fmt.Sprintf("%+v", r0)
	for i := 0; i < 100; i++ {
		cp.Message(nil, i)
		cp.Hash(i)
	}
	if got := fmt.Sprintf("%+v", r0); got != keep {
		t.Errorf("Row 0 changed after generating others:\n%s\n%s", got, keep)
	}
}

func TestCorpusID(t *testing.T) {
	topic := regexp.MustCompile(`^[a-zA-Z0-9._-]{1,249}$`)
	seen := map[string]bool{}
	for _, cb := range combos(t) {
		id := NewCorpus(cb.schema, cb.codec, 42, 2000000).ID()
		if !topic.MatchString(id) || seen[id] {
			t.Errorf("ID %q is not a unique Kafka topic name", id)
		}
		seen[id] = true
	}
	c := mustCodec(t, FormatJSON, "bid")
	if id := NewCorpus(c.Schema(), c, 42, 2000000).ID(); id != "bid-json-s42-n2000000" {
		t.Errorf("ID = %q", id)
	}
}

func TestCorpusMismatchedSchemaPanics(t *testing.T) {
	c := mustCodec(t, FormatJSON, "bid")
	defer func() {
		if recover() == nil {
			t.Error("NewCorpus with another schema than the codec's did not panic")
		}
	}()
	NewCorpus(builtin.bidWide, c, 1, 1)
}

// TestCorpusGolden pins the corpus bytes and hashes: a change to the
// generator, an encoder or the hash shows up here. Run with -update after a
// deliberate change (go test ./workloads -update).
func TestCorpusGolden(t *testing.T) {
	var out strings.Builder
	fmt.Fprintf(&out, "# id  sha256(messages 0..999)  Checksum(0,1000)  mean size\n")
	for _, cb := range combos(t) {
		cp := NewCorpus(cb.schema, cb.codec, 42, 1000)
		h := sha256.New()
		size := 0
		for i := 0; i < cp.Count(); i++ {
			m := cp.Message(nil, i)
			size += len(m)
			h.Write(m)
		}
		fmt.Fprintf(&out, "%s %x %016x %.1f\n", cp.ID(), h.Sum(nil)[:8], cp.Checksum(0, cp.Count()), float64(size)/float64(cp.Count()))
	}
	golden.Check(t, "corpus.golden", []byte(out.String()))
}

func TestHashes(t *testing.T) {
	for _, f := range []Format{FormatCSV, FormatRaw} {
		c := mustCodec(t, f, "bid")
		cp := NewCorpus(c.Schema(), c, 8, 1001)
		for _, workers := range []int{1, 3, 0} {
			hs := cp.Hashes(workers)
			if hs.Len() != cp.Count() {
				t.Fatalf("Len = %d", hs.Len())
			}
			for i := 0; i < cp.Count(); i += 97 {
				if hs.Hash(i) != cp.Hash(i) {
					t.Fatalf("%s workers=%d: Hash(%d) differs", f, workers, i)
				}
			}
			for _, r := range [][2]int{{0, 1001}, {5, 6}, {100, 900}, {7, 7}} {
				if hs.Checksum(r[0], r[1]) != cp.Checksum(r[0], r[1]) {
					t.Errorf("%s workers=%d: Checksum%v differs", f, workers, r)
				}
			}
		}
	}
	c := mustCodec(t, FormatJSON, "bid")
	if hs := NewCorpus(c.Schema(), c, 8, 0).Hashes(4); hs.Len() != 0 || hs.Checksum(0, 0) != 0 {
		t.Error("empty corpus Hashes")
	}
}
