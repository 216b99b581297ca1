package checkpointcost

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestDoneCarriesMemory: a reader's done event carries what its Memory
// hook measured, and the result keeps the largest of each figure over the
// readers that finished; a reader without the hook reports none.
func TestDoneCarriesMemory(t *testing.T) {
	var res Result
	for i, m := range []Memory{{Peak: 400, Harness: 50, Path: 300, Arrow: 20}, {Peak: 300, Harness: 70, Path: 200, Arrow: 30}, {}} {
		var buf bytes.Buffer
		ew := &eventWriter{w: &buf}
		if err := ew.emit(&Event{Ev: EvDone, T: 1, Rec: 5, PeakBytes: m.Peak, HarnessBytes: m.Harness, PathBytes: m.Path, ArrowBytes: m.Arrow}); err != nil {
			t.Fatal(err)
		}
		var ev Event
		if err := json.Unmarshal(buf.Bytes(), &ev); err != nil {
			t.Fatal(err)
		}
		inc := &incarnation{index: i}
		if err := inc.handle(&ev, &res); err != nil {
			t.Fatal(err)
		}
	}
	if want := (Memory{Peak: 400, Harness: 70, Path: 300, Arrow: 30}); res.Memory != want {
		t.Errorf("result memory %+v, want %+v", res.Memory, want)
	}
}
