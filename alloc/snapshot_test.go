package alloc

import "testing"

func TestSnapshotSub(t *testing.T) {
	a := Snapshot{Allocator: "x", HeapBytes: 10, SystemBytes: 20, RSSBytes: 30, Threads: 4,
		Detail: map[string]int64{"a": 5, "b": 1}}
	b := Snapshot{Allocator: "x", HeapBytes: 15, SystemBytes: 20, RSSBytes: 40, Threads: 6,
		Detail: map[string]int64{"a": 8, "c": 9}}
	d := b.Sub(a)
	if d.HeapBytes != 5 || d.SystemBytes != 0 || d.RSSBytes != 10 || d.Threads != 2 {
		t.Fatalf("Sub = %+v", d)
	}
	if len(d.Detail) != 1 || d.Detail["a"] != 3 {
		t.Fatalf("Sub detail = %v, want only a=3", d.Detail)
	}
	b.Threads, a.Threads = -1, -1
	if got := b.Sub(a).Threads; got != -1 {
		t.Fatalf("Sub of uncounted threads = %d, want -1", got)
	}
	if keys := b.DetailKeys(); len(keys) != 2 || keys[0] != "a" || keys[1] != "c" {
		t.Fatalf("DetailKeys = %v", keys)
	}
}

func TestParseStatm(t *testing.T) {
	got, err := parseStatm("1234 56 7 8 0 9 0\n", 4096)
	if err != nil || got != 56*4096 {
		t.Fatalf("parseStatm = %d, %v", got, err)
	}
	for _, bad := range []string{"", "12", "12 x 3", "12 -4 3"} {
		if _, err := parseStatm(bad, 4096); err == nil {
			t.Errorf("parseStatm(%q) succeeded; want error", bad)
		}
	}
}
