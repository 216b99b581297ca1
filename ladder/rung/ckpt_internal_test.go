package rung

import (
	"strings"
	"testing"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/ladder/rungargs"
)

// TestCheckSubtasks: a cell whose reader processes did not run the
// subtasks its rescale claims fails, naming the process.
func TestCheckSubtasks(t *testing.T) {
	rs := &rungargs.Cell{Cell: cell.Cell{Rescale: cell.Rescale{From: 3, To: 2}}}
	plain := &rungargs.Cell{}
	for _, tc := range []struct {
		c    *rungargs.Cell
		got  []int
		want string
	}{
		{rs, []int{3, 2, 2}, ""},
		{rs, []int{3, 3}, "reader process 1 ran 3 subtasks, want 2"},
		{rs, []int{0}, "reader process 0 ran 0 subtasks, want 3"},
		{plain, []int{0, 0}, ""},
		{plain, []int{0, 2}, "reader process 1 ran 2 subtasks, want 0"},
	} {
		err := checkSubtasks(tc.c, tc.got)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s %v: %v, want %q", tc.c.Value(cell.RescaleKey), tc.got, err, tc.want)
		}
	}
}
