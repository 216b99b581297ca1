package ladder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/fastpathlab/fplab/cell"
	"github.com/fastpathlab/fplab/internal/oneline"
	"github.com/fastpathlab/fplab/results/headline"
	"github.com/fastpathlab/fplab/workloads"
)

// LoadSpec reads, parses and validates the spec at path. Every error is one
// line naming the file, the line and the field, e.g.
//
//	specs/x.yaml:7: batch: want a list of positive integers, got "abc"
//
// as a *SpecError (the CLI prefixes it with "fplab ladder: ").
//
// A spec that loads without error expands to at least one cell.
func LoadSpec(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		reason := err
		var pe *fs.PathError
		if errors.As(err, &pe) {
			reason = pe.Err
		}
		return nil, &SpecError{File: path, Msg: "cannot read the spec: " + oneline.Err(reason), Err: err}
	}
	return ParseSpec(path, data)
}

// ParseSpec parses spec YAML; name is used in error messages and as the
// default spec name. Besides the syntax of every field it checks every
// limit the lab knows (limits.go): value bounds, values that name the same
// cell twice, failures that cannot be placed, schedules too large to lay
// out and axis combinations that cannot run.
func ParseSpec(name string, data []byte) (*Spec, error) {
	p := &specParser{file: name, lines: map[string]int{}}
	s, err := p.parse(data)
	if err != nil {
		return nil, err
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(name), filepath.Ext(name))
	}
	if err := checkSpec(s); err != nil {
		var se *SpecError
		if !errors.As(err, &se) {
			se = &SpecError{Msg: err.Error(), Err: err}
		}
		se.File, se.Line = name, p.line(se.Field)
		return nil, se
	}
	return s, nil
}

type specParser struct {
	file     string
	rootLine int
	lines    map[string]int // field -> line of its key
}

// line is the line of field's key, or of the spec's first field when the
// field is absent (an error about a default).
func (p *specParser) line(field string) int {
	if l, ok := p.lines[field]; ok {
		return l
	}
	return p.rootLine
}

func (p *specParser) errAt(n *yaml.Node, field, format string, args ...any) error {
	return &SpecError{File: p.file, Line: n.Line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// uniqueKeys refuses a key given twice in any mapping of the spec (the
// top level, cluster_props, calibrate, each exclusion, ...): YAML leaves a
// duplicate to the reader, and taking one silently would run another spec
// than the one written. path is the mapping's place ("" at the top).
func (p *specParser) uniqueKeys(path string, n *yaml.Node) error {
	switch n.Kind {
	case yaml.MappingNode:
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			field := k.Value
			if path != "" {
				field = path + "." + k.Value
			}
			if seen[k.Value] {
				what := "key"
				if path == "" {
					what = "field"
				}
				return p.errAt(k, field, "%s given twice", what)
			}
			seen[k.Value] = true
			if err := p.uniqueKeys(field, v); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, it := range n.Content {
			if err := p.uniqueKeys(fmt.Sprintf("%s[%d]", path, i), it); err != nil {
				return err
			}
		}
	}
	return nil
}

// got renders a node for "got ..." in error messages.
func got(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		return strconv.Quote(n.Value)
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	case yaml.AliasNode:
		return "an alias"
	}
	return "nothing"
}

func (p *specParser) parse(data []byte) (*Spec, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlError(p.file, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, &SpecError{File: p.file, Msg: "empty spec"}
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, p.errAt(root, "spec", "want a mapping of fields, got %s", got(root))
	}
	p.rootLine = root.Line
	if err := p.uniqueKeys("", root); err != nil {
		return nil, err
	}
	s := &Spec{Partitions: defaultPartitions, Schema: defaultSchema, Cluster: []string{cell.ClusterEmbedded}}
	seen := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if _, dup := seen[k.Value]; dup {
			return nil, p.errAt(k, k.Value, "field given twice")
		}
		seen[k.Value] = k
		p.lines[k.Value] = k.Line
		if err := p.field(s, k, v); err != nil {
			return nil, err
		}
	}
	for _, f := range []string{"path", "format", "batch", "brokers", "alloc", "crc", "repetitions", "timeout", "seed"} {
		if seen[f] == nil {
			return nil, p.errAt(root, f, "missing (required field)")
		}
	}
	// Only bounded cells read a corpus: a spec of live cells only has none.
	if s.hasBounded() && seen["records"] == nil {
		return nil, p.errAt(root, "records", "missing (required field)")
	}
	if err := p.liveSettings(s, seen); err != nil {
		return nil, err
	}
	if slices.Contains(s.Cluster, cell.ClusterExternal) && len(s.Bootstrap) == 0 {
		return nil, p.errAt(seen["cluster"], "bootstrap", "cluster external needs a bootstrap list")
	}
	return s, nil
}

func (p *specParser) field(s *Spec, k, v *yaml.Node) error {
	var err error
	switch f := k.Value; f {
	case "name":
		s.Name, err = p.str(f, v)
	case cell.Batch:
		s.Batch, err = p.intList(f, v, maxBatch, "every path refuses a larger batch, source/config.go")
	case cell.Brokers:
		s.Brokers, err = p.intList(f, v, 0, "")
	case "covering":
		s.Covering, err = p.boolean(f, v)
	case "exclude":
		s.Exclude, err = p.exclusions(f, v)
	case "calibrate":
		s.Calibrate, err = p.axisMap(f, v)
	case "records":
		// maxRecords unless every cell is on real Kafka (Spec.maxRecords)
		s.Records, err = p.upTo(f, v, 1, maxKafkaRecords, "the hash cache and the load's time on real Kafka, ladder/limits.go")
	case "repetitions":
		s.Repetitions, err = p.upTo(f, v, 1, maxRounds, "rounds are laid out in memory before the run starts")
	case "warmup":
		s.Warmup, err = p.upTo(f, v, 0, maxRounds, "rounds are laid out in memory before the run starts")
	case "timeout":
		s.Timeout, err = p.duration(f, v, false)
	case "seed":
		s.Seed, err = p.seed(f, v)
	case "partitions":
		s.Partitions, err = p.upTo(f, v, 1, maxPartitions, "the loader and every reader refuse more")
	case "schema":
		s.Schema, err = p.enum(f, v, workloads.SchemaNames())
	case "checkpoint":
		s.Checkpoint, err = p.durations(f, v)
	case cell.Wake:
		s.Wake, err = p.durations(f, v)
	case cell.Pause:
		s.Pause, err = p.durations(f, v)
	case cell.Discover:
		s.Discover, err = p.durations(f, v)
	case cell.Drain:
		s.Drain, err = p.enumList(f, v, []string{cell.DrainCallback, cell.DrainBatchQueue, cell.DrainAhead})
	case cell.PartFetch:
		s.PartFetch, err = p.intOrList(f, v, maxPartFetch, "librdkafka's bound on max.partition.fetch.bytes")
	case cell.QueueMin:
		s.QueueMin, err = p.intOrList(f, v, maxQueueMin, "librdkafka's bound on queued.min.messages")
	case cell.FetchWait:
		s.FetchWait, err = p.durations(f, v)
	case cell.RdkStats:
		s.RdkStats, err = p.durations(f, v)
	case "failures":
		s.Failures, err = p.upTo(f, v, 0, maxFailures, "the checkpoint supervisor's bound")
	case cell.Rate:
		s.Rate, err = p.intOrList(f, v, maxRate, "a rate no host could produce, clusters.MaxPacedRate")
	case cell.Linger:
		s.Linger, err = p.lingers(f, v)
	case "duration":
		s.Duration, err = p.duration(f, v, false)
	case "live_warmup":
		s.LiveWarmup, err = p.nonNegDuration(f, v)
	case "max_rate":
		s.MaxRate, err = p.maxRateSpec(f, v)
	case "headline":
		s.Headline, err = p.headlines(f, v)
	case "bootstrap":
		s.Bootstrap, err = p.strList(f, v)
	case "cluster_props":
		s.ClusterProps, err = p.strMap(f, v)
	case "commit_offsets":
		s.CommitOffsets, err = p.onOffs(f, v)
	case "rescale":
		s.Rescale, err = p.rescales(f, v)
	case "profile":
		s.Profile, err = p.onOffs(f, v)
	case "micro":
		s.Micro, err = p.enumList(f, v, cell.Micros())
	case "decode_mem":
		s.DecodeMem, err = p.enumList(f, v, cell.DecodeMems())
	case "broker_kill":
		s.BrokerKill, err = p.axisMap(f, v)
	default:
		dst := s.closedAxis(f)
		if dst == nil {
			return p.errAt(k, f, "unknown field (see docs/spec.md)")
		}
		*dst, err = p.enumList(f, v, cell.Values(f))
	}
	return err
}

func (p *specParser) scalar(f string, v *yaml.Node, want string) (string, error) {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		return "", p.errAt(v, f, "want %s, got %s", want, got(v))
	}
	return v.Value, nil
}

func (p *specParser) str(f string, v *yaml.Node) (string, error) {
	s, err := p.scalar(f, v, "a string")
	if err == nil && s == "" {
		err = p.errAt(v, f, "want a non-empty string")
	}
	return s, err
}

func (p *specParser) boolean(f string, v *yaml.Node) (bool, error) {
	s, err := p.scalar(f, v, "true or false")
	if err != nil {
		return false, err
	}
	switch s {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, p.errAt(v, f, "want true or false, got %q", s)
}

func (p *specParser) intValue(f string, v *yaml.Node, min int, want string) (int, error) {
	s, err := p.scalar(f, v, want)
	if err != nil {
		return 0, err
	}
	n, perr := strconv.Atoi(strings.ReplaceAll(s, "_", ""))
	if perr != nil || n < min {
		return 0, p.errAt(v, f, "want %s, got %q", want, s)
	}
	return n, nil
}

func (p *specParser) positive(f string, v *yaml.Node) (int, error) {
	return p.intValue(f, v, 1, "a positive integer")
}

// upTo parses an integer in lo..hi (lo is 0 or 1); why says where the
// upper bound comes from.
func (p *specParser) upTo(f string, v *yaml.Node, lo, hi int, why string) (int, error) {
	want := "a positive integer"
	if lo == 0 {
		want = "a non-negative integer"
	}
	n, err := p.intValue(f, v, lo, want)
	if err == nil && n > hi {
		err = p.errAt(v, f, "%d is over the bound of %d (%s)", n, hi, why)
	}
	return n, err
}

func (p *specParser) seed(f string, v *yaml.Node) (uint64, error) {
	s, err := p.scalar(f, v, "a non-negative integer")
	if err != nil {
		return 0, err
	}
	n, perr := strconv.ParseUint(s, 10, 64)
	if perr != nil {
		return 0, p.errAt(v, f, "want a non-negative integer, got %q", s)
	}
	return n, nil
}

// duration parses a Go duration ("90s", "2m"); with allowOff, "off" is 0.
func (p *specParser) duration(f string, v *yaml.Node, allowOff bool) (time.Duration, error) {
	want := "a positive duration like 90s"
	if allowOff {
		want += " or off"
	}
	s, err := p.scalar(f, v, want)
	if err != nil {
		return 0, err
	}
	if allowOff && s == "off" {
		return 0, nil
	}
	d, perr := time.ParseDuration(s)
	if perr != nil || d <= 0 {
		return 0, p.errAt(v, f, "want %s, got %q", want, s)
	}
	return d, nil
}

// nonNegDuration parses a Go duration that may be zero ("0", "0s", "2s").
func (p *specParser) nonNegDuration(f string, v *yaml.Node) (time.Duration, error) {
	const want = "a non-negative duration like 2s"
	s, err := p.scalar(f, v, want)
	if err != nil {
		return 0, err
	}
	d, perr := time.ParseDuration(s)
	if perr != nil || d < 0 {
		return 0, p.errAt(v, f, "want %s, got %q", want, s)
	}
	return d, nil
}

// lingers parses one linger ("10ms") or a list of them: positive
// durations, each a whole number of milliseconds up to maxLinger
// (checkLinger). Values equal once normalised (10ms and 0.01s) name the
// same cells and are refused.
func (p *specParser) lingers(f string, v *yaml.Node) ([]time.Duration, error) {
	const want = "durations like 10ms"
	var out []time.Duration
	each := func(it *yaml.Node) error {
		s, err := p.scalar(f, it, "a duration like 10ms")
		if err != nil {
			return err
		}
		d, perr := time.ParseDuration(s)
		if perr != nil || d <= 0 {
			return p.errAt(it, f, "want a duration like 10ms, got %q", s)
		}
		if err := checkLinger(d); err != nil {
			return p.errAt(it, f, "%s", err)
		}
		if slices.Contains(out, d) {
			return p.errAt(it, f, "value %q is %v, listed twice", it.Value, d)
		}
		out = append(out, d)
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		return out, each(v)
	}
	return out, p.list(f, v, want, each)
}

// onOffs parses on/off, or a list of them.
func (p *specParser) onOffs(f string, v *yaml.Node) ([]bool, error) {
	var vals []string
	var err error
	if v.Kind == yaml.SequenceNode {
		vals, err = p.enumList(f, v, []string{"off", "on"})
	} else {
		var one string
		one, err = p.enum(f, v, []string{"off", "on"})
		vals = []string{one}
	}
	out := make([]bool, len(vals))
	for i, s := range vals {
		out[i] = s == "on"
	}
	return out, err
}

// rescales parses one change of parallelism ("3to2", "off") or a list of
// them.
func (p *specParser) rescales(f string, v *yaml.Node) ([]cell.Rescale, error) {
	var out []cell.Rescale
	each := func(n *yaml.Node) error {
		s, err := p.scalar(f, n, "a rescale like 3to2, or off")
		if err != nil {
			return err
		}
		r, err := cell.ParseRescale(s)
		if err != nil {
			return p.errAt(n, f, "%v", err)
		}
		out = append(out, r)
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		return out, each(v)
	}
	return out, p.list(f, v, "rescales like 3to2, or off", each)
}

// durations parses one checkpoint or wake setting ("1s", "off") or a list
// of them (["off", "1s"]): a list makes the setting a dimension of the
// matrix.
func (p *specParser) durations(f string, v *yaml.Node) ([]time.Duration, error) {
	if v.Kind != yaml.SequenceNode {
		d, err := p.duration(f, v, true)
		return []time.Duration{d}, err
	}
	var out []time.Duration
	err := p.list(f, v, "durations or off", func(it *yaml.Node) error {
		d, err := p.duration(f, it, true)
		if err == nil && slices.Contains(out, d) {
			return p.errAt(it, f, "value %q is %v, listed twice", it.Value, d)
		}
		out = append(out, d)
		return err
	})
	return out, err
}

func (p *specParser) enum(f string, v *yaml.Node, known []string) (string, error) {
	want := "one of " + strings.Join(known, ", ")
	s, err := p.scalar(f, v, want)
	if err != nil {
		return "", err
	}
	if !slices.Contains(known, s) {
		return "", p.errAt(v, f, "unknown value %q (want %s)", s, strings.Join(known, ", "))
	}
	return s, nil
}

// list checks that v is a non-empty sequence and calls each on every item.
func (p *specParser) list(f string, v *yaml.Node, want string, each func(*yaml.Node) error) error {
	if v.Kind != yaml.SequenceNode {
		return p.errAt(v, f, "want a list of %s, got %s", want, got(v))
	}
	if len(v.Content) == 0 {
		return p.errAt(v, f, "want a non-empty list of %s", want)
	}
	seen := map[string]bool{}
	for _, it := range v.Content {
		if it.Kind == yaml.ScalarNode {
			if seen[it.Value] {
				return p.errAt(it, f, "value %q listed twice", it.Value)
			}
			seen[it.Value] = true
		}
		if err := each(it); err != nil {
			return err
		}
	}
	return nil
}

func (p *specParser) enumList(f string, v *yaml.Node, known []string) ([]string, error) {
	var out []string
	err := p.list(f, v, "values ("+strings.Join(known, ", ")+")", func(it *yaml.Node) error {
		s, err := p.enum(f, it, known)
		out = append(out, s)
		return err
	})
	return out, err
}

// intList parses a list of positive integers; with hi > 0 each must be at
// most hi (why says where the bound comes from). Values that are equal once
// normalised (1024 and 1_024) name the same cells and are refused.
func (p *specParser) intList(f string, v *yaml.Node, hi int, why string) ([]int, error) {
	const want = "a list of positive integers"
	var out []int
	err := p.list(f, v, "positive integers", p.intItem(f, want, hi, why, &out))
	return out, err
}

// intOrList is intList that also takes one integer alone (rate: 20000).
func (p *specParser) intOrList(f string, v *yaml.Node, hi int, why string) ([]int, error) {
	if v.Kind == yaml.SequenceNode {
		return p.intList(f, v, hi, why)
	}
	var out []int
	err := p.intItem(f, "a positive integer or a list of them", hi, why, &out)(v)
	return out, err
}

// intItem parses one item of an integer list into *out (see intList);
// want is what an error says was expected.
func (p *specParser) intItem(f, want string, hi int, why string, out *[]int) func(*yaml.Node) error {
	return func(it *yaml.Node) error {
		if it.Kind != yaml.ScalarNode {
			return p.errAt(it, f, "want %s, got %s", want, got(it))
		}
		n, err := strconv.Atoi(strings.ReplaceAll(it.Value, "_", ""))
		if err != nil || n <= 0 {
			return p.errAt(it, f, "want %s, got %q", want, it.Value)
		}
		if hi > 0 && n > hi {
			return p.errAt(it, f, "%d is over the bound of %d (%s)", n, hi, why)
		}
		if slices.Contains(*out, n) {
			return p.errAt(it, f, "value %q is %d, listed twice", it.Value, n)
		}
		*out = append(*out, n)
		return nil
	}
}

func (p *specParser) strList(f string, v *yaml.Node) ([]string, error) {
	var out []string
	err := p.list(f, v, "strings", func(it *yaml.Node) error {
		s, err := p.str(f, it)
		out = append(out, s)
		return err
	})
	return out, err
}

// headlines reads the headline list: each entry a comparison that parses
// (results/headline's grammar), refused at its own line otherwise. That
// the spec runs what each names is checked once its cells are known
// (checkHeadline).
func (p *specParser) headlines(f string, v *yaml.Node) ([]string, error) {
	var out []string
	err := p.list(f, v, "strings", func(it *yaml.Node) error {
		s, err := p.str(f, it)
		if err != nil {
			return err
		}
		if _, err := headline.Parse(s); err != nil {
			return p.errAt(it, f, "%s", oneline.Err(err))
		}
		out = append(out, s)
		return nil
	})
	return out, err
}

func (p *specParser) strMap(f string, v *yaml.Node) (map[string]string, error) {
	if v.Kind != yaml.MappingNode {
		return nil, p.errAt(v, f, "want a mapping of key: value, got %s", got(v))
	}
	out := map[string]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		s, err := p.scalar(f+"."+k.Value, val, "a scalar value")
		if err != nil {
			return nil, err
		}
		out[k.Value] = s
	}
	return out, nil
}

// axisMap parses a partial axis map such as {path: fast, batch: 8192}: keys
// must be axis names, values known values of that axis.
func (p *specParser) axisMap(f string, v *yaml.Node) (map[string]string, error) {
	return p.axisMapOf(f, v, false)
}

// axisMapOf is axisMap; with negation a value may be written "!v" (any
// value but v), which exclusions allow.
func (p *specParser) axisMapOf(f string, v *yaml.Node, negation bool) (map[string]string, error) {
	if v.Kind != yaml.MappingNode || len(v.Content) == 0 {
		return nil, p.errAt(v, f, "want a mapping of axis: value, got %s", got(v))
	}
	out := map[string]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if !slices.Contains(cell.Axes(), k.Value) && !slices.Contains(rdkKeys, k.Value) {
			return nil, p.errAt(k, f, "unknown axis %q (want %s)", k.Value, strings.Join(append(cell.Axes(), rdkKeys...), ", "))
		}
		if _, dup := out[k.Value]; dup {
			return nil, p.errAt(k, f, "axis %q given twice", k.Value)
		}
		not := ""
		if negation && val.Kind == yaml.ScalarNode && strings.HasPrefix(val.Value, "!") {
			not = "!"
			cp := *val
			cp.Value = strings.TrimPrefix(val.Value, "!")
			val = &cp
		}
		s, err := p.axisValue(f+"."+k.Value, k.Value, val)
		if err != nil {
			return nil, err
		}
		out[k.Value] = not + s
	}
	return out, nil
}

// rdkKeys are the librdkafka settings an axis map may name beside the
// axes, so an exclusion can keep a tuning or rdkstats to some cells.
var rdkKeys = []string{cell.Drain, cell.PartFetch, cell.QueueMin, cell.FetchWait, cell.RdkStats}

func (p *specParser) axisValue(f, axis string, v *yaml.Node) (string, error) {
	if slices.Contains(rdkKeys, axis) {
		// as a cell's name writes it: the lab's own setting and off are
		// no part ("")
		s, err := p.scalar(f, v, "a value of "+axis+" or off")
		if err != nil || s == "off" && axis != cell.Drain {
			return "", err
		}
		var c cell.Cell
		if d, derr := time.ParseDuration(s); derr == nil && (axis == cell.FetchWait || axis == cell.RdkStats) {
			s = d.String()
		}
		if err := c.Set(axis, s); err != nil {
			return "", p.errAt(v, f, "%v", err)
		}
		return c.Value(axis), nil
	}
	if known := cell.Values(axis); known != nil {
		return p.enum(f, v, known)
	}
	if axis == cell.Linger {
		// As a cell's name writes it: {linger: 0.01s} matches linger=10ms.
		d, err := p.duration(f, v, false)
		return d.String(), err
	}
	n, err := p.positive(f, v)
	return strconv.Itoa(n), err
}

func (p *specParser) exclusions(f string, v *yaml.Node) ([]map[string]string, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, p.errAt(v, f, "want a list of axis maps, got %s", got(v))
	}
	var out []map[string]string
	for _, it := range v.Content {
		m, err := p.axisMapOf(f, it, true)
		if err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, nil
}
