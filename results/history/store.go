package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/results"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	_ "modernc.org/sqlite"             // the "sqlite" database/sql driver
)

// DefaultPath is the embedded store a checkout keeps its runs in when no
// URL is given.
const DefaultPath = results.DefaultHistory

// busyTimeout is how long an embedded store's writer waits for another
// writer's transaction before it gives up. Adding a run of a few thousand
// rows takes well under a second here; a minute leaves room for a loaded
// host and a large run without a writer waiting forever.
const busyTimeout = time.Minute

// Store is an open history store.
type Store struct {
	db *sql.DB
	// postgres is set for a PostgreSQL store: its placeholders are $n, not ?.
	postgres bool
	// where names the store in errors (a path, or a URL without its password).
	where string
}

// Open opens the store at target and brings its schema up to date: a
// postgres:// (or postgresql://) URL is a PostgreSQL database; anything
// else is the path of an embedded SQLite file (created with its directory
// when missing), optionally written sqlite:PATH. A store whose schema is
// newer than this package's is refused and not touched.
func Open(ctx context.Context, target string) (*Store, error) {
	s, err := open(target)
	if err != nil {
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		s.db.Close()
		return nil, err
	}
	return s, nil
}

func open(target string) (*Store, error) {
	if target == "" {
		return nil, errors.New("no store given: a SQLite path or a postgres:// URL")
	}
	if strings.HasPrefix(target, "postgres://") || strings.HasPrefix(target, "postgresql://") {
		u, err := url.Parse(target)
		if err != nil {
			return nil, fmt.Errorf("store URL: %w", err)
		}
		db, err := sql.Open("pgx", target)
		if err != nil {
			return nil, fmt.Errorf("store %s: %w", u.Redacted(), err)
		}
		return &Store{db: db, postgres: true, where: u.Redacted()}, nil
	}
	path := strings.TrimPrefix(target, "sqlite:")
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("store %s: %w", path, err)
		}
	}
	// WAL lets readers go on beside a writer; _txlock=immediate takes the
	// write lock when a transaction begins, so two writers queue on the
	// busy timeout instead of one failing at its first write.
	dsn := "file:" + path + "?_txlock=immediate" +
		"&_pragma=busy_timeout(" + strconv.FormatInt(busyTimeout.Milliseconds(), 10) + ")" +
		"&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	return &Store{db: db, where: path}, nil
}

// Where names the store: its path, or its URL without the password.
func (s *Store) Where() string { return s.where }

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// q rewrites a query written with ? placeholders for the store's engine.
func (s *Store) q(query string) string {
	if !s.postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
