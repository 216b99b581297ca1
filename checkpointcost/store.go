package checkpointcost

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// snapshot is what one checkpoint stores: the reader's split state and the
// sink's pending (pre-committed, not yet committed) transactions.
type snapshot struct {
	Version int     `json:"version"`
	ID      int     `json:"id"`
	Split   []int64 `json:"split"`
	Pending []txn   `json:"pending"`
}

const snapshotVersion = 1

func ckptFile(store string, id int) string {
	return filepath.Join(store, fmt.Sprintf("ckpt-%010d.json", id))
}

// ckptID parses "ckpt-<id>.json" (a ".tmp" name is not a checkpoint).
func ckptID(name string) (int, bool) {
	s, ok := strings.CutPrefix(name, "ckpt-")
	if !ok {
		return 0, false
	}
	s, ok = strings.CutSuffix(s, ".json")
	if !ok {
		return 0, false
	}
	id, err := strconv.Atoi(s)
	return id, err == nil && id > 0
}

// writeSnapshot serialises s and writes it durably; it returns the state
// size in bytes.
func writeSnapshot(fsys fileSystem, store string, s *snapshot) (int, error) {
	data, err := json.Marshal(s)
	if err != nil {
		return 0, fmt.Errorf("encode checkpoint %d: %w", s.ID, err)
	}
	if err := writeDurable(fsys, ckptFile(store, s.ID), data); err != nil {
		return 0, fmt.Errorf("write checkpoint %d: %w", s.ID, err)
	}
	return len(data), nil
}

// latestSnapshot reads the completed checkpoint with the highest id, or
// returns nil when the store holds none (or does not exist yet).
func latestSnapshot(store string) (*snapshot, error) {
	ents, err := os.ReadDir(store)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read store: %w", err)
	}
	best := 0
	for _, e := range ents {
		if id, ok := ckptID(e.Name()); ok && id > best {
			best = id
		}
	}
	if best == 0 {
		return nil, nil
	}
	data, err := os.ReadFile(ckptFile(store, best))
	if err != nil {
		return nil, fmt.Errorf("read checkpoint %d: %w", best, err)
	}
	var s snapshot
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("checkpoint %d is corrupt: %w", best, err)
	}
	if s.Version != snapshotVersion || s.ID != best {
		return nil, fmt.Errorf("checkpoint %d has version %d and id %d", best, s.Version, s.ID)
	}
	return &s, nil
}
