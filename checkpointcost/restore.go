package checkpointcost

import "fmt"

// Restored is where a reader starts: the last completed checkpoint, or the
// beginning of the range when there is none.
type Restored struct {
	// ID is the restored checkpoint's id; 0 means no checkpoint existed.
	ID int
	// Start is the split state to open the source with (source.Config.Start).
	Start []int64
	// Committed counts the restored checkpoint's pending transactions that
	// this call committed (0 when an earlier reader or Restore already had).
	Committed int
}

// Restore prepares a reader's start from the checkpoint store: it loads
// the last completed checkpoint, commits the sink transactions that
// checkpoint pre-committed (idempotently: ones already committed are left
// alone), and aborts every staged transaction the checkpoint does not
// cover, since those records will be read again. start is the beginning of
// the bounded range, one offset per partition; it is the reader's start
// when the store holds no checkpoint.
func Restore(store, output string, start []int64) (Restored, error) {
	if store == "" || output == "" {
		return Restored{}, fmt.Errorf("restore needs a store and an output directory")
	}
	if start == nil {
		return Restored{}, fmt.Errorf("restore needs the range's start offsets")
	}
	s, err := latestSnapshot(store)
	if err != nil {
		return Restored{}, err
	}
	fsys := osFS{}
	if s == nil {
		if err := abortStaged(fsys, output); err != nil {
			return Restored{}, err
		}
		return Restored{Start: append([]int64(nil), start...)}, nil
	}
	if len(start) != len(s.Split) {
		return Restored{}, fmt.Errorf("checkpoint %d has %d partitions, the range %d", s.ID, len(s.Split), len(start))
	}
	r := Restored{ID: s.ID, Start: s.Split}
	for _, t := range s.Pending {
		now, err := commitTxn(fsys, output, t)
		if err != nil {
			return Restored{}, err
		}
		if now {
			r.Committed++
		}
	}
	if err := abortStaged(fsys, output); err != nil {
		return Restored{}, err
	}
	return r, nil
}
