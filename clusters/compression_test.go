package clusters_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/clusters/clusterstest"
)

// TestStoredCompressionReadsBackTheProducersCodec: a corpus loaded with each
// codec is read back as stored with that codec, and an unknown codec is
// refused before anything is produced.
func TestStoredCompressionReadsBackTheProducersCodec(t *testing.T) {
	c := clusters.Cluster{Bootstrap: clusterstest.StartSelfT(t, 1, 3).Bootstrap()}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	msg := func(dst []byte, i int) []byte {
		return append(dst, strings.Repeat("compressible payload ", 8)...)
	}
	for _, codec := range cell.Compressions() {
		topic := "codec-" + codec
		if _, err := clusters.Load(ctx, c, topic, 3, 300, msg, clusters.WithCompression(codec)); err != nil {
			t.Fatalf("%s: %v", codec, err)
		}
		got, err := clusters.StoredCompression(ctx, c, topic, 3)
		if err != nil || got != codec {
			t.Errorf("StoredCompression(%s) = %q, %v; want %q", topic, got, err, codec)
		}
	}
	if _, err := clusters.Load(ctx, c, "codec-brotli", 3, 3, msg, clusters.WithCompression("brotli")); err == nil || !strings.Contains(err.Error(), `unknown compression "brotli"`) {
		t.Errorf("brotli: %v", err)
	}
	if _, err := clusters.StoredCompression(ctx, c, "no-such-topic", 3); err == nil {
		t.Error("StoredCompression of a missing topic: no error")
	}
}
