package rung_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/clusters"
	"github.com/fastpathlab/fplab/ladder/rung/rungtest"
	"github.com/fastpathlab/fplab/ladder/rungargs"
	"github.com/fastpathlab/fplab/results"
	"github.com/fastpathlab/fplab/source/consume"
	"github.com/fastpathlab/fplab/workloads"
)

// shapedTopics loads, once per shape, the corpus of testCell (keyed for
// keys=on) laid out by the shape's layout into a topic of its own, as the
// ladder does.
var shapedTopics sync.Map // topic -> error

func shapedTopic(t *testing.T, c rungargs.Cell) string {
	t.Helper()
	sh := workloads.ShapeOf(c.Cell)
	s, _ := workloads.SchemaByName(c.Schema)
	codec, _ := workloads.NewCodec(workloads.Format(c.Format), s)
	corpus := workloads.NewCorpus(s, codec, c.Seed, c.Records, workloads.CorpusOptsOf(c.Cell)...)
	topic := fmt.Sprintf("%s-n%g-txn%v-e%d-u%v", corpus.ID(), sh.Nulls, sh.Txn, sh.Empty, sh.Uneven)
	tc := cell.TopicCase(c.Case)
	if tc == cell.CaseDeleted || tc == cell.CaseAppended {
		topic += "-" + tc
	}
	v, _ := shapedTopics.LoadOrStore(topic, new(sync.Once))
	once := v.(*sync.Once)
	var err error
	once.Do(func() {
		l, lerr := workloads.NewLayout(c.Seed, c.Records, c.Partitions, sh)
		if lerr != nil {
			err = lerr
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		cl := clusters.Cluster{Bootstrap: c.Bootstrap}
		if _, err = clusters.Load(ctx, cl, topic, c.Partitions, c.Records, corpus.Message,
			clusters.WithLayout(l), clusters.WithKeys(corpus)); err != nil {
			return
		}
		if tc == cell.CaseDeleted {
			err = clusters.DeleteRecords(ctx, cl, topic, l.DeletedBelow())
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return topic
}

// TestParityCasesOnEveryPath runs every parity case the embedded cluster
// can hold on every path: the reads finish at their stop with exactly the
// committed records, the failures fail with their one line.
func TestParityCasesOnEveryPath(t *testing.T) {
	type shapeCase struct {
		name string
		mod  func(*cell.Cell)
	}
	shapes := []shapeCase{
		{"nulls", func(c *cell.Cell) { c.Nulls = 0.01 }},
		{"txn", func(c *cell.Cell) { c.Txn = true }},
		{"txn+nulls", func(c *cell.Cell) { c.Txn, c.Nulls = true, 0.1 }},
	}
	for _, k := range cell.Cases() {
		if k == cell.CaseNone || k == cell.CaseDenied {
			continue
		}
		shapes = append(shapes, shapeCase{k, func(c *cell.Cell) { c.Case = k }})
	}
	for _, sh := range shapes {
		for _, p := range consume.Paths() {
			t.Run(sh.name+"/"+string(p), func(t *testing.T) {
				c := testCell(t)
				c.Path = string(p)
				sh.mod(&c.Cell)
				c.Topic = shapedTopic(t, c)
				c.Timeout = 30 * time.Second
				t0 := time.Now()
				r := rungtest.MustRun(t, c)
				if time.Since(t0) > c.Timeout {
					t.Fatalf("took %v, over the cell's timeout", time.Since(t0))
				}
				if r.Name != c.Name() {
					t.Fatalf("name %q, want %q\n%s", r.Name, c.Name(), r.Out)
				}
				if cell.FailureCase(c.Case) {
					if !strings.Contains(r.Out, results.ConfigSurfaced+": ") || !r.Has(results.UnitFailMs) {
						t.Errorf("a failure case without its surfaced line or fail-ms:\n%s", r.Out)
					}
				}
			})
		}
	}
}

// TestShapeClaimsAreChecked: a cell that claims the wrong topic shape fails
// its verification instead of reporting a number.
func TestShapeClaimsAreChecked(t *testing.T) {
	for _, tc := range []struct {
		name       string
		topic, cel func(*cell.Cell)
		want       string
	}{
		{"txn topic read as clean", func(c *cell.Cell) { c.Txn = true }, func(c *cell.Cell) {}, "batch "},
		{"clean topic read as nulls", func(c *cell.Cell) {}, func(c *cell.Cell) { c.Nulls = 0.01 }, "batch "},
		{"nulls topic read as clean", func(c *cell.Cell) { c.Nulls = 0.01 }, func(c *cell.Cell) {}, "batch "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := testCell(t)
			tc.topic(&c.Cell)
			c.Topic = shapedTopic(t, c)
			c.Cell.Nulls, c.Cell.Txn = 0, false
			tc.cel(&c.Cell)
			r, err := rungtest.Run(t, c)
			// A verification failure names the batch it found wrong.
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want a verification failure", err)
			}
			if r.Out != "" {
				t.Errorf("a failed cell printed %q", r.Out)
			}
		})
	}
}
