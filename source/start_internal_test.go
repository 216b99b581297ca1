package source

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fastpathlab/fplab/source/consume"
)

// fakeFetcher answers resolveStart with canned offsets and records what it
// was asked.
type fakeFetcher struct {
	times, commits []int64
	err            error
	asked          []string
}

func (f *fakeFetcher) forTime(ms int64) ([]int64, error) {
	f.asked = append(f.asked, "time")
	return f.times, f.err
}

func (f *fakeFetcher) committed(group string) ([]int64, error) {
	f.asked = append(f.asked, "committed "+group)
	return f.commits, f.err
}

// TestResolveStart runs the start rule over two partitions with watermarks
// [0, 100) and [10, 50): every mode, the timestamp found and not found,
// committed offsets in range (the high watermark included), absent, below
// the low and above the high watermark under each reset, and the one-line
// errors of reset none. Each mode asks only for what it needs.
func TestResolveStart(t *testing.T) {
	lo, hi := []int64{0, 10}, []int64{100, 50}
	ts := time.UnixMilli(1_000_000)
	cases := []struct {
		name           string
		at             StartMode
		reset          Reset
		times, commits []int64
		want           []int64
		stop           []int64 // hi when nil
		asked          string
		err            []string // substrings of the one error line
	}{
		{name: "earliest", want: lo},
		{name: "latest", at: StartLatest, want: hi},
		{name: "timestamp found", at: StartTimestamp, times: []int64{40, 10}, want: []int64{40, 10}, asked: "time"},
		{name: "timestamp not found", at: StartTimestamp, times: []int64{-1, 30}, want: []int64{100, 30}, asked: "time"},
		{name: "timestamp none anywhere", at: StartTimestamp, times: []int64{-1, -1}, want: hi, asked: "time"},
		{name: "committed in range", at: StartCommitted, commits: []int64{0, 50}, want: []int64{0, 50}, asked: "committed g"},
		{name: "committed mid range", at: StartCommitted, reset: ResetLatest, commits: []int64{7, 11}, want: []int64{7, 11}, asked: "committed g"},
		{name: "absent earliest", at: StartCommitted, reset: ResetEarliest, commits: []int64{-1, 20}, want: []int64{0, 20}, asked: "committed g"},
		{name: "absent latest", at: StartCommitted, reset: ResetLatest, commits: []int64{-1, -1}, want: hi, asked: "committed g"},
		{name: "absent none", at: StartCommitted, commits: []int64{20, -1}, asked: "committed g",
			err: []string{"t/1", `group "g"`, "no committed offset", "reset is none"}},
		{name: "below earliest", at: StartCommitted, reset: ResetEarliest, commits: []int64{3, 9}, want: []int64{3, 10}, asked: "committed g"},
		{name: "below latest", at: StartCommitted, reset: ResetLatest, commits: []int64{3, 9}, want: []int64{3, 50}, asked: "committed g"},
		{name: "below none", at: StartCommitted, commits: []int64{3, 9}, asked: "committed g",
			err: []string{"t/1", `group "g"`, "offset 9", "out of range [10, 50]"}},
		// at or past the stop: the partition is done, whatever the reset
		{name: "above earliest", at: StartCommitted, reset: ResetEarliest, commits: []int64{101, 20}, want: []int64{100, 20}, asked: "committed g"},
		{name: "above latest", at: StartCommitted, reset: ResetLatest, commits: []int64{101, 51}, want: hi, asked: "committed g"},
		{name: "above none", at: StartCommitted, commits: []int64{101, 20}, want: []int64{100, 20}, asked: "committed g"},
		{name: "at a stop below hi", at: StartCommitted, stop: []int64{60, 50}, commits: []int64{60, 20}, want: []int64{60, 20}, asked: "committed g"},
		{name: "past a stop below hi", at: StartCommitted, stop: []int64{60, 50}, commits: []int64{70, 20}, want: []int64{60, 20}, asked: "committed g"},
	}
	for _, tc := range cases {
		cfg := &Config{Topic: "t", StartAt: tc.at, Reset: tc.reset}
		switch tc.at {
		case StartTimestamp:
			cfg.StartTime = ts
		case StartCommitted:
			cfg.Group = "g"
		}
		f := &fakeFetcher{times: tc.times, commits: tc.commits}
		stop := hi
		if tc.stop != nil {
			stop = tc.stop
		}
		got, err := resolveStart(cfg, lo, hi, stop, f)
		if asked := strings.Join(f.asked, ","); asked != tc.asked {
			t.Errorf("%s: asked %q, want %q", tc.name, asked, tc.asked)
		}
		if tc.err != nil {
			if err == nil || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: %v %v, want one error line", tc.name, got, err)
				continue
			}
			for _, s := range tc.err {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("%s: %v, want %q in it", tc.name, err, s)
				}
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v %v, want %v", tc.name, got, err, tc.want)
		}
	}
}

// TestResolveStartFetchFails: a fetch error ends the resolve, wrapped
// as it came; the start never aliases the watermarks.
func TestResolveStartFetchFails(t *testing.T) {
	boom := errors.New("boom")
	lo, hi := []int64{0}, []int64{9}
	for _, at := range []StartMode{StartTimestamp, StartCommitted} {
		cfg := &Config{StartAt: at, StartTime: time.UnixMilli(1), Group: "g"}
		if _, err := resolveStart(cfg, lo, hi, hi, &fakeFetcher{err: boom}); !errors.Is(err, boom) {
			t.Errorf("%s: %v, want boom", at, err)
		}
	}
	got, _ := resolveStart(&Config{}, lo, hi, hi, nil)
	got[0] = 5
	if lo[0] != 0 {
		t.Errorf("the start aliases the low watermarks")
	}
}

// TestClientAndGroupIDs: the client id is <prefix>-<subtask>, the prefix
// ClientID, else Group, else fplab-<path>; librdkafka's group.id is Group,
// else a synthetic fplab-<path>-<time>.
func TestClientAndGroupIDs(t *testing.T) {
	for _, tc := range []struct {
		cfg            Config
		client, group  string
		syntheticGroup bool
	}{
		{cfg: Config{Path: consume.PathFast}, client: "fplab-fast-0", group: "fplab-fast-", syntheticGroup: true},
		{cfg: Config{Path: consume.PathRowwise, Group: "orders"}, client: "orders-0", group: "orders"},
		{cfg: Config{Path: consume.PathShallow, Group: "orders", ClientID: "job"}, client: "job-0", group: "orders"},
		{cfg: Config{Path: consume.PathShallow, ClientID: "job"}, client: "job-0", group: "fplab-shallow-", syntheticGroup: true},
		{cfg: Config{Path: consume.PathFast, Group: "orders", Subtask: 2}, client: "orders-2", group: "orders"},
	} {
		m := librdkafkaConfig(&tc.cfg)
		if got := tc.cfg.clientID(); got != tc.client || m["client.id"] != tc.client {
			t.Errorf("%+v: client id %q, client.id %q, want %q", tc.cfg, got, m["client.id"], tc.client)
		}
		g := m["group.id"]
		if tc.syntheticGroup && (!strings.HasPrefix(g, tc.group) || len(g) == len(tc.group)) || !tc.syntheticGroup && g != tc.group {
			t.Errorf("%+v: group.id %q, want %q", tc.cfg, g, tc.group)
		}
	}
}
