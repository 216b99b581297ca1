package results

import (
	"slices"
	"testing"
)

// TestRankValues: numbers first and numerically (SI and IEC prefixes as
// benchproc reads them), then the rest alphabetically, a cell without the
// axis ("") first among them; listed values before everything, in order.
func TestRankValues(t *testing.T) {
	vals := []string{"8192", "", "fast", "1024", "2Ki", "1.5", "shallow", "256", "b", "a", "1k"}
	ranks := rankValues(vals, nil)
	got := slices.Clone(vals)
	slices.SortFunc(got, func(a, b string) int { return ranks[a] - ranks[b] })
	want := []string{"1.5", "256", "1k", "1024", "2Ki", "8192", "", "a", "b", "fast", "shallow"}
	if !slices.Equal(got, want) {
		t.Errorf("rankValues order %q\nwant               %q", got, want)
	}
	ranks = rankValues(vals, []string{"shallow", "8192"})
	if ranks["shallow"] != 0 || ranks["8192"] != 1 || ranks["1.5"] != 2 {
		t.Errorf("listed values not first: %v", ranks)
	}
}

// TestAnalyzeOnce: the analysis's parts are those of its one index, and a
// bad budget is refused naming the option.
func TestAnalyzeOnce(t *testing.T) {
	rows := []Row{
		kneeRow("path=fast/format=json/batch=1024/brokers=3/alloc=go/crc=off", 0, 1e6, 20),
		kneeRow("path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off", 0, 3e6, 50),
		kneeRow("path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off/aa=a", 0, 3e6, 50),
		kneeRow("path=fast/format=json/batch=8192/brokers=3/alloc=go/crc=off/aa=b", 0, 3.1e6, 50),
	}
	a, err := Analyze(rows, AnalysisOptions{BudgetMs: 30})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Sweep.Cells()) != 2 || len(a.AA.Cells()) != 2 || a.Sweep.Cells()[0] != a.All.Cell(a.Sweep.Cells()[0].Name) {
		t.Errorf("sweep %d cells, aa %d: want 2 and 2, sharing All's cells", len(a.Sweep.Cells()), len(a.AA.Cells()))
	}
	if a.BudgetMs != 30 || len(a.Knee) != 1 || a.Knee[0].Batch != 1024 {
		t.Errorf("knee %+v under %v ms, want batch 1024 under 30", a.Knee, a.BudgetMs)
	}
	if a.TablesErr != nil || len(a.Tables) == 0 {
		t.Errorf("tables %d, err %v", len(a.Tables), a.TablesErr)
	}
	for _, tb := range a.Tables {
		if tb.Axis == "aa" {
			t.Errorf("table %s: the A/A cells are no point of the sweep", tb.Title())
		}
	}
	if len(a.Noise) != 1 || len(a.Noise[0].Units) != 2 || a.Noise[0].Units[0].Err != nil {
		t.Errorf("noise %+v, want one pair with rec/s and ckpt-p99-ms", a.Noise)
	}
	if _, err := Analyze(rows, AnalysisOptions{BudgetMs: -1}); err == nil || err.Error() != "AnalysisOptions.BudgetMs is -1, want 0 (default 100) to 60000" {
		t.Errorf("bad budget: %v", err)
	}
}
