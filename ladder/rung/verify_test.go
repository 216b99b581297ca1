package rung_test

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

var topicRuns atomic.Int64

// TestCorruptRecordNamesItsPosition runs cells over a corpus whose record
// 3001 does not decode: the cell fails naming the record's partition and
// offset as a decode failure, not as a short count of verified records.
func TestCorruptRecordNamesItsPosition(t *testing.T) {
	c := testCell(t)
	s, _ := workloads.SchemaByName("bid")
	codec, _ := workloads.NewCodec(workloads.FormatJSON, s)
	corpus := workloads.NewCorpus(s, codec, c.Seed, c.Records)
	const bad = 3001
	c.Topic = fmt.Sprintf("corrupt%d-%s", topicRuns.Add(1), corpus.ID()) // -count reuses the cluster
	msg := func(dst []byte, i int) []byte {
		if i == bad {
			return append(dst, "not json"...)
		}
		return corpus.Message(dst, i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := clusters.Load(ctx, clusters.Cluster{Bootstrap: c.Bootstrap}, c.Topic, parts, records, msg); err != nil {
		t.Fatal(err)
	}
	for _, p := range []consume.Path{consume.PathFast, consume.PathRowwise} {
		c.Path = string(p)
		r, err := rungtest.Run(t, c)
		// The first failure is source's, wrapped (its own wording after
		// "the first: ").
		want, pos := "1 record(s) of the corpus do not decode; the first: ", "record at partition 1 offset 1000 does not decode"
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), pos) {
			t.Errorf("path=%s: err = %v\nwant it to contain %q and %q", p, err, want, pos)
		}
		if r.Out != "" {
			t.Errorf("path=%s: a failed cell wrote %q", p, r.Out)
		}
	}
}

// TestWrongRecordNamesItsPosition swaps record 3001 for a valid record
// with other values: the checksum mismatch names the row's position.
func TestWrongRecordNamesItsPosition(t *testing.T) {
	c := testCell(t)
	s, _ := workloads.SchemaByName("bid")
	codec, _ := workloads.NewCodec(workloads.FormatJSON, s)
	corpus := workloads.NewCorpus(s, codec, c.Seed, c.Records)
	const bad = 3001
	c.Topic = fmt.Sprintf("wrong%d-%s", topicRuns.Add(1), corpus.ID())
	msg := func(dst []byte, i int) []byte {
		if i == bad {
			i = bad + 1
		}
		return corpus.Message(dst, i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := clusters.Load(ctx, clusters.Cluster{Bootstrap: c.Bootstrap}, c.Topic, parts, records, msg); err != nil {
		t.Fatal(err)
	}
	_, err := rungtest.Run(t, c)
	want := "the record at partition 1 offset 1000 decodes to values the corpus did not write (corrupt record)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("err = %v\nwant it to contain %q", err, want)
	}
}
