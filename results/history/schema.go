package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// migrations are the schema's steps, in order; the store's version is how
// many it has taken. Each step is plain SQL both engines run as it is
// (TEXT, INTEGER, DOUBLE PRECISION; booleans as 0/1 integers; times as
// RFC 3339 text). Append a step; never edit one a store may have taken.
var migrations = [][]string{
	1: {
		// A run and a cell are keyed by a 64-bit hash of their names
		// (keyOf): both engines take it as it is, it needs no round trip
		// to learn, and a sample row holds two integers instead of two
		// names (this repository's 24 runs, 29,891 values: 4.1 MB against
		// 11.1 MB with the names in every row).
		`CREATE TABLE runs (
			run_key     BIGINT PRIMARY KEY,
			run_id      TEXT NOT NULL UNIQUE,
			git_commit  TEXT NOT NULL,
			git_dirty   INTEGER NOT NULL,
			commit_time TEXT,
			host_key    TEXT NOT NULL,
			hostname    TEXT NOT NULL,
			arch        TEXT NOT NULL,
			cpu_model   TEXT NOT NULL,
			cores       INTEGER NOT NULL,
			go_version  TEXT NOT NULL,
			librdkafka  TEXT NOT NULL,
			build_flags TEXT NOT NULL,
			emulated    INTEGER NOT NULL,
			run_format  INTEGER NOT NULL,
			started     TEXT NOT NULL,
			ended       TEXT NOT NULL,
			digest      TEXT NOT NULL,
			added       TEXT NOT NULL
		)`,
		`CREATE TABLE cells (
			cell_key BIGINT PRIMARY KEY,
			name     TEXT NOT NULL UNIQUE
		)`,
		`CREATE TABLE reps (
			run_key  BIGINT NOT NULL REFERENCES runs (run_key),
			cell_key BIGINT NOT NULL REFERENCES cells (cell_key),
			rep      INTEGER NOT NULL,
			ok       INTEGER NOT NULL,
			reason   TEXT NOT NULL,
			PRIMARY KEY (run_key, cell_key, rep)
		)`,
		`CREATE TABLE samples (
			run_key  BIGINT NOT NULL,
			cell_key BIGINT NOT NULL,
			rep      INTEGER NOT NULL,
			unit     TEXT NOT NULL,
			value    DOUBLE PRECISION NOT NULL,
			PRIMARY KEY (run_key, cell_key, rep, unit),
			FOREIGN KEY (run_key, cell_key, rep) REFERENCES reps (run_key, cell_key, rep)
		)`,
		`CREATE INDEX samples_series ON samples (cell_key, unit)`,
		`CREATE TABLE floors (
			run_key    BIGINT NOT NULL REFERENCES runs (run_key),
			unit       TEXT NOT NULL,
			detectable DOUBLE PRECISION NOT NULL,
			pairs      INTEGER NOT NULL,
			short      INTEGER NOT NULL,
			biased     INTEGER NOT NULL,
			PRIMARY KEY (run_key, unit)
		)`,
	},
	2: {
		// The spec's name, so a backfill knows which (commit, spec) runs
		// the store has; runs stored before it have ''.
		`ALTER TABLE runs ADD COLUMN spec_name TEXT NOT NULL DEFAULT ''`,
	},
}

// SchemaVersion is the schema this package writes.
var SchemaVersion = len(migrations) - 1

// ErrNewerSchema is returned (wrapped) by Open for a store written by a
// newer fplab.
var ErrNewerSchema = errors.New("store schema is newer than this fplab's")

// migrate brings the schema to SchemaVersion in one transaction, or
// refuses a newer one without writing.
func (s *Store) migrate(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	defer tx.Rollback()
	if s.postgres {
		// Two fplabs opening one new database at once would both create the
		// tables; the second waits here and then finds them.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7046584)`); err != nil {
			return fmt.Errorf("store %s: lock the schema: %w", s.where, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS fplab_schema (version INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	version, present := 0, true
	switch err := tx.QueryRowContext(ctx, `SELECT version FROM fplab_schema`).Scan(&version); {
	case errors.Is(err, sql.ErrNoRows):
		present = false
	case err != nil:
		return fmt.Errorf("store %s: read the schema version: %w", s.where, err)
	}
	if version > SchemaVersion {
		return fmt.Errorf("store %s: %w (%d, this fplab knows up to %d); use a newer fplab", s.where, ErrNewerSchema, version, SchemaVersion)
	}
	if present && version == SchemaVersion {
		return nil
	}
	for v := version + 1; v <= SchemaVersion; v++ {
		for _, stmt := range migrations[v] {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("store %s: migrate to schema %d: %w", s.where, v, err)
			}
		}
	}
	stmt := `UPDATE fplab_schema SET version = ?`
	if !present {
		stmt = `INSERT INTO fplab_schema (version) VALUES (?)`
	}
	if _, err := tx.ExecContext(ctx, s.q(stmt), SchemaVersion); err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	return nil
}
