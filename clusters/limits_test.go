package clusters

import "testing"

func TestValidate(t *testing.T) {
	cases := []struct {
		brokers, partitions int
		want                string
	}{
		{1, 1, ""},
		{9, 1024, ""},
		{3, 6, ""},
		{0, 6, "brokers must be 1..9, got 0"},
		{10, 6, "brokers must be 1..9, got 10"},
		{-1, 6, "brokers must be 1..9, got -1"},
		{3, 0, "partitions must be 1..1024, got 0"},
		{3, 1025, "partitions must be 1..1024, got 1025"},
		{0, 0, "brokers must be 1..9, got 0"},
	}
	for _, c := range cases {
		err := validate(bounded{brokersLimit, c.brokers}, bounded{partitionsLimit, c.partitions})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("validate(%d, %d) = %q, want %q", c.brokers, c.partitions, got, c.want)
		}
	}
}

func TestExpectedCount(t *testing.T) {
	// 20 records over 6 partitions: partitions 0 and 1 get 4, the rest 3.
	want := []int64{4, 4, 3, 3, 3, 3}
	var sum int64
	for p, w := range want {
		if got := expectedCount(20, 6, p); got != w {
			t.Errorf("expectedCount(20, 6, %d) = %d, want %d", p, got, w)
		}
		sum += expectedCount(20, 6, p)
	}
	if sum != 20 {
		t.Errorf("counts sum to %d, want 20", sum)
	}
}

func TestParseBootstrapLine(t *testing.T) {
	addrs, ok, err := parseBootstrapLine("bootstrap: 127.0.0.1:1,127.0.0.1:2\n")
	if err != nil || !ok || len(addrs) != 2 || addrs[1] != "127.0.0.1:2" {
		t.Fatalf("got %v %v %v", addrs, ok, err)
	}
	if _, ok, _ := parseBootstrapLine("some log line"); ok {
		t.Error("a log line was taken for the bootstrap line")
	}
	if _, ok, err := parseBootstrapLine("bootstrap: nonsense"); !ok || err == nil {
		t.Errorf("malformed bootstrap line: ok=%v err=%v, want ok and an error", ok, err)
	}
}
