package history

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/fastpathlab/fplab/results"
)

// Run is a stored run, without its rows.
type Run struct {
	ID     string
	Commit string
	Dirty  bool
	// CommitTime is zero when it was not known at Add.
	CommitTime       time.Time
	HostKey, Arch    string
	Hostname         string
	Emulated         bool
	Started, Ended   time.Time
	Reps, Failed     int
	Samples          int
	BuildFlags       string
	GoVersion, Rdkfk string
}

// Runs lists the stored runs in the order they started.
func (s *Store) Runs(ctx context.Context) ([]Run, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.run_id, r.git_commit, r.git_dirty, r.commit_time,
		r.host_key, r.arch, r.hostname, r.emulated, r.started, r.ended, r.build_flags, r.go_version, r.librdkafka,
		(SELECT COUNT(*) FROM reps p WHERE p.run_key = r.run_key),
		(SELECT COUNT(*) FROM reps p WHERE p.run_key = r.run_key AND p.ok = 0),
		(SELECT COUNT(*) FROM samples v WHERE v.run_key = r.run_key)
		FROM runs r ORDER BY r.started, r.run_id`)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		var r Run
		var dirty, emulated int
		var commitTime sql.NullString
		var started, ended string
		if err := rows.Scan(&r.ID, &r.Commit, &dirty, &commitTime, &r.HostKey, &r.Arch, &r.Hostname,
			&emulated, &started, &ended, &r.BuildFlags, &r.GoVersion, &r.Rdkfk, &r.Reps, &r.Failed, &r.Samples); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		r.Dirty, r.Emulated = dirty != 0, emulated != 0
		if commitTime.Valid {
			r.CommitTime, _ = time.Parse(time.RFC3339, commitTime.String)
		}
		r.Started, _ = time.Parse(time.RFC3339Nano, started)
		r.Ended, _ = time.Parse(time.RFC3339Nano, ended)
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	return out, nil
}

// Point is one run's repetitions of a cell on a unit, with the run's floor
// for that unit (Floor.Known false when the run had no A/A pair on it).
type Point struct {
	Run    Run
	Values []float64
	Floor  results.Floor
}

// Series is one (cell, unit, host) series: a point per stored run that
// measured cell on unit on the host with key hostKey, in commit order
// (commit time where known, then start time). An emulated run is left out:
// its timings mean nothing.
func (s *Store) Series(ctx context.Context, cell, unit, hostKey string) ([]Point, error) {
	runs, err := s.Runs(ctx)
	if err != nil {
		return nil, err
	}
	byID := map[string]*Point{}
	var order []*Point
	for _, r := range runs {
		if r.HostKey == hostKey && !r.Emulated {
			p := &Point{Run: r, Floor: results.Floor{Unit: unit}}
			byID[r.ID] = p
			order = append(order, p)
		}
	}
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT r.run_id, v.value FROM samples v
		JOIN runs r ON r.run_key = v.run_key
		WHERE v.cell_key = ? AND v.unit = ? ORDER BY r.run_id, v.rep`), keyOf(cell), unit)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var v float64
		if err := rows.Scan(&id, &v); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		if p := byID[id]; p != nil {
			p.Values = append(p.Values, v)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	if err := s.floors(ctx, unit, byID); err != nil {
		return nil, err
	}
	var out []Point
	for _, p := range order {
		if len(p.Values) > 0 {
			out = append(out, *p)
		}
	}
	sortCommitOrder(out)
	return out, nil
}

func (s *Store) floors(ctx context.Context, unit string, byID map[string]*Point) error {
	rows, err := s.db.QueryContext(ctx, s.q(`SELECT r.run_id, f.detectable, f.pairs, f.short, f.biased FROM floors f
		JOIN runs r ON r.run_key = f.run_key WHERE f.unit = ?`), unit)
	if err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var f results.Floor
		var biased int
		if err := rows.Scan(&id, &f.Detectable, &f.Pairs, &f.Short, &biased); err != nil {
			return fmt.Errorf("store %s: %w", s.where, err)
		}
		if p := byID[id]; p != nil {
			f.Unit, f.Biased = unit, biased != 0
			p.Floor = f
		}
	}
	return rows.Err()
}
