package source

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
	"github.com/fastpathlab/fplab/workloads/recycle"
	"github.com/fastpathlab/fplab/workloads/stock"
)

// Open validates cfg and opens the reader for its path. The returned
// reader has assigned its partitions; reading starts at the first Next.
// It is a consume.Pauser and a consume.Committer too.
func Open(ctx context.Context, cfg Config) (consume.Reader, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	c := &cfg
	if cfg.Path == consume.PathRowwise {
		return openPoll(c, &rowwiseDecoder{codec: c.Codec, rb: workloads.NewRowBuilder(c.Codec.Schema(), c.Mem), keys: keyColumns(c)}, consume.DecoderLab)
	}
	// The columnar paths build their batches from a pool of the buffers
	// of released ones; the rowwise baseline allocates afresh, as a
	// consumer written row by row does.
	pool := recycle.New(cfg.Mem, recycle.DefaultLimits)
	c.Mem = pool
	r, err := openColumnar(ctx, c)
	if err != nil {
		pool.Close()
		return nil, err
	}
	return pooled{r, pool}, nil
}

// reader is what every path's reader is: a consume.Reader whose
// partitions can be paused (pause.go) and which commits offsets for its
// group (commit.go).
type reader interface {
	consume.Reader
	consume.Pauser
	consume.Committer
}

func openColumnar(ctx context.Context, c *Config) (reader, error) {
	switch c.Path {
	case consume.PathFast:
		return openFast(ctx, c)
	case consume.PathShallow:
		col, name, err := newColumnar(ctx, c)
		if err != nil {
			return nil, err
		}
		return openPoll(c, &shallowDecoder{col: col, keys: keyColumns(c)}, name)
	case consume.PathFranz:
		return openFranz(ctx, c)
	}
	return nil, fmt.Errorf("unknown path %q", c.Path)
}

// pooled is a columnar path's reader with its buffer pool, which it
// closes after the reader.
type pooled struct {
	reader
	pool *recycle.Allocator
}

func (p pooled) Close() error {
	err := p.reader.Close()
	p.pool.Close()
	return err
}

// newColumnar is the value decoder of the shallow, fast and franz paths:
// the codec's own, with Decoder "stock" the format's fastest stock route
// on this host (stock.Best measures them once per process: a caller that
// times its Open calls stock.Best first, outside its window), with "none"
// the twin's discard; and the name Assertions reports for it.
func newColumnar(ctx context.Context, cfg *Config) (workloads.Columnar, string, error) {
	if cfg.Decoder == consume.DecoderNone {
		return &discard{}, consume.DecoderNone, nil
	}
	if cfg.Decoder != "stock" {
		return cfg.Codec.NewColumnar(cfg.Mem), consume.DecoderLab, nil
	}
	pick, err := stock.Best(ctx, cfg.Codec.Format(), cfg.Codec.Schema().Name)
	if err != nil {
		return nil, "", fmt.Errorf("stock decoder: %w", err)
	}
	col, err := stock.NewColumnar(pick.Route, cfg.Codec.Schema(), cfg.Mem)
	if err != nil {
		return nil, "", fmt.Errorf("stock decoder: %w", err)
	}
	return col, pick.Route.Library, nil
}

// keyColumns is the builder of a keyed read's key and headers columns,
// nil when cfg does not ask for them or decodes nothing (a twin).
func keyColumns(cfg *Config) *workloads.KeyColumns {
	if !cfg.Keys || cfg.Decoder == consume.DecoderNone {
		return nil
	}
	return workloads.NewKeyColumns(cfg.Mem)
}

// keyedBatch is the batch of value columns rec, with the key and headers
// columns of keys attached when the read is keyed (keys not nil).
func keyedBatch(rec arrow.RecordBatch, keys *workloads.KeyColumns) arrow.RecordBatch {
	if keys == nil {
		return rec
	}
	return keys.Attach(rec)
}
