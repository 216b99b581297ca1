package jvmref

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/fastpathlab/fplab/ladder/rung"
)

// The live protocol (Opts.Live, --live): the program prints, on stdout,
//
//	FPLAB-READY
//
// once it can receive (kafka-clients: partitions assigned at offset 0 and
// the first poll returned; Flink: the job RUNNING and every source
// subtask's deserializer opened), then one line per hand-over of a range of
// one partition's offsets,
//
//	FPLAB-R <recv_epoch_ns> <partition> <first_offset> <last_offset>
//
// (the offsets both included; lines of one poll share their time), and once
// it has read the expected count its result line (ParseResult) and
//
//	FPLAB-LIVE cpu_ns=<C> sums=<count>:<crc32c>,...
//
// C is the JVM's process CPU from FPLAB-READY to the last record; sums has
// one count:checksum per partition in partition order, the checksum
// rung.SumValue chained over the partition's values in offset order (an
// unsigned decimal).

// Line prefixes of the live protocol.
const (
	readyLine  = "FPLAB-READY"
	rangePre   = "FPLAB-R"
	livePrefix = "FPLAB-LIVE"
)

// ParseRange reads one FPLAB-R line: the hand-over time and its range. A
// line with another prefix, another field count, a number that is not a
// decimal integer, a negative partition or offset, a time not after the
// epoch, or a range that ends before it starts is an error quoting the
// line.
func ParseRange(line string) (time.Time, rung.LiveRange, error) {
	bad := func(format string, a ...any) (time.Time, rung.LiveRange, error) {
		return time.Time{}, rung.LiveRange{}, fmt.Errorf("live range line %q: %s", line, fmt.Sprintf(format, a...))
	}
	f := strings.Fields(line)
	if len(f) == 0 || f[0] != rangePre {
		return bad("does not start with %s", rangePre)
	}
	if len(f) != 5 {
		return bad("%d fields, want %s <recv_epoch_ns> <partition> <first_offset> <last_offset>", len(f), rangePre)
	}
	var n [4]int64
	for i, name := range []string{"recv_epoch_ns", "partition", "first_offset", "last_offset"} {
		v, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil || v < 0 {
			return bad("%s %q is not a non-negative decimal integer", name, f[i+1])
		}
		n[i] = v
	}
	switch {
	case n[0] == 0:
		return bad("recv_epoch_ns is 0")
	case n[1] > 1<<31-1:
		return bad("partition %d is out of range", n[1])
	case n[2] > n[3]:
		return bad("the range ends (%d) before it starts (%d)", n[3], n[2])
	}
	return time.Unix(0, n[0]), rung.LiveRange{Partition: int32(n[1]), First: n[2], Last: n[3]}, nil
}

// LiveResult is the program's FPLAB-LIVE line.
type LiveResult struct {
	CPU  time.Duration // the JVM's process CPU from ready to the last record
	Sums []rung.PartitionSum
}

// ParseLive reads the one FPLAB-LIVE line of a live program's stdout (the
// lines other than its FPLAB-R lines) for partitions partitions. No such
// line, two of them, or a malformed one is an error naming what is wrong.
func ParseLive(stdout string, partitions int) (LiveResult, error) {
	line, n := prefixedLine(stdout, livePrefix)
	switch n {
	case 0:
		return LiveResult{}, fmt.Errorf("java reference printed no %q line", livePrefix)
	case 1:
	default:
		return LiveResult{}, fmt.Errorf("java reference printed %d %q lines, want one", n, livePrefix)
	}
	bad := func(format string, a ...any) (LiveResult, error) {
		return LiveResult{}, fmt.Errorf("live result line %q: %s", line, fmt.Sprintf(format, a...))
	}
	f := strings.Fields(line)
	if len(f) != 3 {
		return bad("%d fields, want %s cpu_ns=C sums=COUNT:CRC,...", len(f), livePrefix)
	}
	cpu, ok := strings.CutPrefix(f[1], "cpu_ns=")
	if !ok {
		return bad("second field %q is not cpu_ns=", f[1])
	}
	c, err := strconv.ParseInt(cpu, 10, 64)
	if err != nil || c < 0 {
		return bad("cpu_ns %q is not a non-negative integer", cpu)
	}
	sums, ok := strings.CutPrefix(f[2], "sums=")
	if !ok {
		return bad("third field %q is not sums=", f[2])
	}
	r := LiveResult{CPU: time.Duration(c)}
	for p, s := range strings.Split(sums, ",") {
		cs, crcs, ok := strings.Cut(s, ":")
		count, err1 := strconv.ParseInt(cs, 10, 64)
		crc, err2 := strconv.ParseUint(crcs, 10, 32)
		if !ok || err1 != nil || err2 != nil || count < 0 {
			return bad("partition %d's sum %q is not COUNT:CRC (decimal)", p, s)
		}
		r.Sums = append(r.Sums, rung.PartitionSum{Count: count, CRC: uint32(crc)})
	}
	if len(r.Sums) != partitions {
		return bad("%d partitions' sums, the topic has %d", len(r.Sums), partitions)
	}
	return r, nil
}
