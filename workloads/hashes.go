package workloads

import "sync"

// Hashes holds every record hash of a corpus, precomputed so a consume path
// can verify batches in its measured loop at O(1) per lookup instead of
// regenerating records (Corpus.Hash costs a few hundred ns per record).
// It takes 8 bytes per record.
type Hashes struct {
	prefix []uint64 // prefix[i] = wrapping sum of the hashes of records [0, i)
}

// Hashes computes all record hashes using up to workers goroutines (at least
// one).
func (c *Corpus) Hashes(workers int) *Hashes {
	n := c.count
	prefix := make([]uint64, n+1)
	workers = max(1, min(workers, n))
	chunk := (n + workers - 1) / workers
	var wg sync.WaitGroup
	for from := 0; from < n; from += chunk {
		to := min(from+chunk, n)
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := c.get()
			defer c.states.Put(st)
			for i := from; i < to; i++ {
				prefix[i+1] = c.hash(i, st)
			}
		}()
	}
	wg.Wait()
	for i := 1; i <= n; i++ {
		prefix[i] += prefix[i-1]
	}
	return &Hashes{prefix: prefix}
}

// Len is the number of records.
func (h *Hashes) Len() int { return len(h.prefix) - 1 }

// Hash is Corpus.Hash(i).
func (h *Hashes) Hash(i int) uint64 { return h.prefix[i+1] - h.prefix[i] }

// Checksum is Corpus.Checksum(from, to): the BatchChecksum of a batch of
// exactly the records [from, to).
func (h *Hashes) Checksum(from, to int) uint64 { return h.prefix[to] - h.prefix[from] }
