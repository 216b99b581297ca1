package source

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// Open validates cfg and opens the reader for its path. The returned
// reader has assigned its partitions; reading starts at the first Next.
func Open(ctx context.Context, cfg Config) (consume.Reader, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	c := &cfg
	switch cfg.Path {
	case consume.PathFast:
		return openFast(c)
	case consume.PathShallow:
		return openPoll(c, &shallowDecoder{col: c.Codec.NewColumnar(c.Mem), keys: keyColumns(c)})
	case consume.PathRowwise:
		return openPoll(c, &rowwiseDecoder{codec: c.Codec, rb: workloads.NewRowBuilder(c.Codec.Schema(), c.Mem), keys: keyColumns(c)})
	case consume.PathFranz:
		return openFranz(ctx, c)
	}
	return nil, fmt.Errorf("source: unknown path %q", cfg.Path)
}

// keyColumns is the builder of a keyed read's key and headers columns,
// nil when cfg does not ask for them.
func keyColumns(cfg *Config) *workloads.KeyColumns {
	if !cfg.Keys {
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
