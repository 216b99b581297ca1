package source

import (
	"context"
	"fmt"

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
		return openPoll(c, &shallowDecoder{col: c.Codec.NewColumnar(c.Mem)})
	case consume.PathRowwise:
		return openPoll(c, &rowwiseDecoder{codec: c.Codec, rb: workloads.NewRowBuilder(c.Codec.Schema(), c.Mem)})
	case consume.PathFranz:
		return openFranz(ctx, c)
	}
	return nil, fmt.Errorf("source: unknown path %q", cfg.Path)
}
