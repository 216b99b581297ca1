package report

import (
	"reflect"
	"testing"
)

func TestSpecOrder(t *testing.T) {
	got := specOrder([]byte(`{"name":"x","path":["fast","rowwise"],"batch":[8192,256],"alloc":7,"crc":["off","on"]}`))
	want := map[string][]string{"path": {"fast", "rowwise"}, "batch": {"8192", "256"}, "crc": {"off", "on"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("specOrder = %v, want %v", got, want)
	}
	for _, bad := range []string{"", "null", "[1,2]", "{"} {
		if got := specOrder([]byte(bad)); len(got) != 0 {
			t.Errorf("specOrder(%q) = %v, want nothing", bad, got)
		}
	}
}
