package history

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
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
	// Spec is the name of the spec the run ran.
	Spec string
}

// Runs lists the stored runs in the order they started.
func (s *Store) Runs(ctx context.Context) ([]Run, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.run_id, r.git_commit, r.git_dirty, r.commit_time,
		r.host_key, r.arch, r.hostname, r.emulated, r.started, r.ended, r.build_flags, r.go_version, r.librdkafka, r.spec_name,
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
			&emulated, &started, &ended, &r.BuildFlags, &r.GoVersion, &r.Rdkfk, &r.Spec, &r.Reps, &r.Failed, &r.Samples); err != nil {
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
	all, err := s.series(ctx, hostKey, cell, unit)
	if err != nil || len(all) == 0 {
		return nil, err
	}
	return all[0].Points, nil
}

// AllSeries is every (cell, unit) series on the host, in cell and unit
// order.
func (s *Store) AllSeries(ctx context.Context, hostKey string) ([]Series, error) {
	return s.series(ctx, hostKey, "", "")
}

// Host is a host the store holds runs of.
type Host struct {
	Key      string
	Hostname string
	Arch     string
	Runs     int
}

// Hosts lists the hosts of the stored runs, by key.
func (s *Store) Hosts(ctx context.Context) ([]Host, error) {
	runs, err := s.Runs(ctx)
	if err != nil {
		return nil, err
	}
	counts := map[string]int{}
	var out []Host
	for _, r := range runs {
		if counts[r.HostKey] == 0 {
			out = append(out, Host{Key: r.HostKey, Hostname: r.Hostname, Arch: r.Arch})
		}
		counts[r.HostKey]++
	}
	for i := range out {
		out[i].Runs = counts[out[i].Key]
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out, nil
}

// series is every (cell, unit) series on the host, in cell and unit
// order, or the one of cell on unit when both are given: the runs read
// once, the values and the floors in one query each.
func (s *Store) series(ctx context.Context, hostKey, cell, unit string) ([]Series, error) {
	runs, err := s.Runs(ctx)
	if err != nil {
		return nil, err
	}
	onHost := map[string]Run{}
	for _, r := range runs {
		if r.HostKey == hostKey && !r.Emulated {
			onHost[r.ID] = r
		}
	}
	query := `SELECT c.name, v.unit, r.run_id, v.value FROM samples v
		JOIN runs r ON r.run_key = v.run_key JOIN cells c ON c.cell_key = v.cell_key`
	var args []any
	if cell != "" {
		query += ` WHERE v.cell_key = ? AND v.unit = ?`
		args = append(args, keyOf(cell), unit)
	}
	query += ` ORDER BY c.name, v.unit, r.run_id, v.rep`
	rows, err := s.db.QueryContext(ctx, s.q(query), args...)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	var out []Series
	var cur *Series
	at := map[string]int{} // run id -> index of its point in cur
	for rows.Next() {
		var name, u, id string
		var v float64
		if err := rows.Scan(&name, &u, &id, &v); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		r, ok := onHost[id]
		if !ok {
			continue
		}
		if cur == nil || cur.Cell != name || cur.Unit != u {
			out = append(out, Series{Cell: name, Unit: u})
			cur, at = &out[len(out)-1], map[string]int{}
		}
		i, ok := at[id]
		if !ok {
			i = len(cur.Points)
			at[id] = i
			cur.Points = append(cur.Points, Point{Run: r, Floor: results.Floor{Unit: u}})
		}
		cur.Points[i].Values = append(cur.Points[i].Values, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	floors, err := s.floors(ctx)
	if err != nil {
		return nil, err
	}
	// The engines may collate names differently; the order is Go's.
	sort.Slice(out, func(i, j int) bool {
		if out[i].Cell != out[j].Cell {
			return out[i].Cell < out[j].Cell
		}
		return out[i].Unit < out[j].Unit
	})
	for i := range out {
		for j := range out[i].Points {
			p := &out[i].Points[j]
			if f, ok := floors[[2]string{p.Run.ID, out[i].Unit}]; ok {
				p.Floor = f
			}
		}
		sortCommitOrder(out[i].Points)
	}
	return out, nil
}

// Series is one (cell, unit) series on one host, a point per run in
// commit order.
type Series struct {
	Cell, Unit string
	Points     []Point
}

// floors are every stored floor, by run id and unit.
func (s *Store) floors(ctx context.Context) (map[[2]string]results.Floor, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT r.run_id, f.unit, f.detectable, f.pairs, f.short, f.biased FROM floors f
		JOIN runs r ON r.run_key = f.run_key`)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.where, err)
	}
	defer rows.Close()
	out := map[[2]string]results.Floor{}
	for rows.Next() {
		var id string
		var f results.Floor
		var biased int
		if err := rows.Scan(&id, &f.Unit, &f.Detectable, &f.Pairs, &f.Short, &biased); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.where, err)
		}
		f.Biased = biased != 0
		out[[2]string{id, f.Unit}] = f
	}
	return out, rows.Err()
}

// Has reports whether the store holds a run of spec at commit from a
// clean tree: what a backfill skips.
func (s *Store) Has(ctx context.Context, commit, spec string) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM runs WHERE git_commit = ? AND spec_name = ? AND git_dirty = 0`), commit, spec).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("store %s: %w", s.where, err)
	}
	return n > 0, nil
}
