package workloads

import "testing"

// TestDeletedBelow: the deleted records end half way through every
// partition, rounded down, whatever the shape: inside the partition for
// one with records (so a read from offset 0 starts below the log start),
// at 0 for an empty one; and the result is a fresh slice each call.
func TestDeletedBelow(t *testing.T) {
	for _, sh := range []Shape{{}, {Txn: true, Nulls: 0.1}, {Uneven: true, Empty: 1}} {
		for _, count := range []int{0, 1, 7, 2301} {
			l, err := NewLayout(42, count, 4, sh)
			if err != nil {
				t.Fatal(err)
			}
			got := l.DeletedBelow()
			if len(got) != 4 {
				t.Fatalf("%+v n=%d: %d partitions, want 4", sh, count, len(got))
			}
			for p, off := range got {
				end := l.End(p)
				if off != end/2 {
					t.Errorf("%+v n=%d: partition %d deleted below %d, want %d (end %d)", sh, count, p, off, end/2, end)
				}
				if end > 1 && (off <= 0 || off >= end) {
					t.Errorf("%+v n=%d: partition %d deleted below %d, not inside [1, %d)", sh, count, p, off, end)
				}
			}
			got[0] = -1
			if again := l.DeletedBelow(); again[0] != l.End(0)/2 {
				t.Errorf("%+v n=%d: DeletedBelow shares its slice across calls", sh, count)
			}
		}
	}
}
