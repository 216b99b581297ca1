package history

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"fmt"
)

// keyOf is the store's key for a run id or a cell name: the first 8 bytes
// of its SHA-256, as a signed integer (both engines' BIGINT).
func keyOf(name string) int64 {
	sum := sha256.Sum256([]byte(name))
	return int64(binary.BigEndian.Uint64(sum[:8]))
}

// addCell makes sure the cells table names cell under its key, and
// refuses the (astronomically unlikely) other name under the same key
// rather than file one cell's values under another's name.
func (s *Store) addCell(ctx context.Context, tx *sql.Tx, cell string) (int64, error) {
	key := keyOf(cell)
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO cells (cell_key, name) VALUES (?, ?) ON CONFLICT DO NOTHING`), key, cell); err != nil {
		return 0, fmt.Errorf("store %s: add cell %s: %w", s.where, cell, err)
	}
	var name string
	if err := tx.QueryRowContext(ctx, s.q(`SELECT name FROM cells WHERE cell_key = ?`), key).Scan(&name); err != nil {
		return 0, fmt.Errorf("store %s: add cell %s: %w", s.where, cell, err)
	}
	if name != cell {
		return 0, fmt.Errorf("store %s: cells %q and %q share the key %d", s.where, name, cell, key)
	}
	return key, nil
}
