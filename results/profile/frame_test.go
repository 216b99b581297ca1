package profile

import "testing"

func TestFrameNames(t *testing.T) {
	for _, c := range []struct {
		fn, pkg, recv, name string
	}{
		{"runtime.cgocall", "runtime", "", "cgocall"},
		{wl + "(*jsonCodec).parse", "github.com/fastpathlab/fplab/workloads", "jsonCodec", "parse"},
		{wl + "(*Corpus).Hashes.func1", "github.com/fastpathlab/fplab/workloads", "Corpus", "Hashes"},
		{wl + "BatchChecksum.func2.1", "github.com/fastpathlab/fplab/workloads", "", "BatchChecksum"},
		{wl + "rawColumnar.AppendBulk", "github.com/fastpathlab/fplab/workloads", "rawColumnar", "AppendBulk"},
		{arr + "(*NumericBuilder[go.shape.int64]).Append", "github.com/apache/arrow-go/v18/arrow/array", "NumericBuilder", "Append"},
		{"slices.SortFunc[go.shape.[]github.com/x/y.T,go.shape.int]", "slices", "", "SortFunc"},
		{"gopkg.in/yaml%2ev3.(*parser).parse", "gopkg.in/yaml%2ev3", "parser", "parse"},
		{"internal/runtime/syscall.Syscall6", "internal/runtime/syscall", "", "Syscall6"},
		{"rd_kafka_consume_batch_queue", "", "", "rd_kafka_consume_batch_queue"},
		{"", "", "", ""},
	} {
		f := Frame{Func: c.fn}
		if f.Pkg() != c.pkg || f.Recv() != c.recv || f.Name() != c.name {
			t.Errorf("%q: pkg %q recv %q name %q, want %q %q %q", c.fn, f.Pkg(), f.Recv(), f.Name(), c.pkg, c.recv, c.name)
		}
		if f.IsGo() != (c.pkg != "") {
			t.Errorf("%q: IsGo %v", c.fn, f.IsGo())
		}
	}
}
