package drain

import (
	"testing"
)

// TestWakeEndsAnHourLongWait: on a consumer whose queue never gets an op
// (nothing assigned, its client errors taken to the main queue by
// Detach), a drain's crossing and confluent-kafka-go's Poll both wait the
// hour they are given unless the Waker ends it. A Wake before the wait
// ends the next wait at once; a Wake during it ends it. The test gives
// each until go test's -timeout.
func TestWakeEndsAnHourLongWait(t *testing.T) {
	const hour = 3_600_000
	c := consumer(t, false)
	m, err := Detach(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	w, err := NewWaker(c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Close)
	d, err := New(c, 64, false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(d.Close)

	waits := map[string]func() int{
		"drain": func() int {
			n, err := d.Run(hour, nil)
			if err != nil {
				t.Errorf("Run: %v", err)
			}
			return n
		},
		"poll": func() int {
			if ev := c.Poll(hour); ev != nil {
				t.Errorf("Poll brought %v from a queue that gets nothing", ev)
				return 1
			}
			return 0
		},
	}
	for name, wait := range waits {
		for _, before := range []bool{true, false} {
			done := make(chan int, 1)
			if before {
				w.Wake()
			}
			go func() { done <- wait() }()
			if !before {
				w.Wake()
			}
			// a wait the wake did not end holds the test until go test's
			// -timeout names it
			if n := <-done; n != 0 {
				t.Errorf("%s, wake before the wait %v: %d messages from a queue that gets nothing", name, before, n)
			}
		}
	}
	w.Close()
	w.Wake() // after Close: nothing, no crash
}
