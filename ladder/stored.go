package ladder

import (
	"encoding/json"
	"errors"
	"fmt"
)

// storedSpec is what the ladder keeps in manifest.json's "spec": the spec
// itself (enough to rebuild cells and schedule for Resume), the expanded cell
// names for readers, and the noise-control settings in force.
type storedSpec struct {
	Spec        *Spec    `json:"spec"`
	Cells       []string `json:"cells"`
	Calibration string   `json:"calibration"`
	Entries     int      `json:"entries"` // child runs over all rounds
	Pinning     Pinning  `json:"pinning"`
	// Profile says whether every measured cell is profiled (--profile);
	// absent in manifests written before it was recorded.
	Profile *bool `json:"profile,omitempty"`
}

// Pinning records whether and how the broker and the cells were pinned.
type Pinning struct {
	On         bool   `json:"on"`
	Method     string `json:"method,omitempty"`
	BrokerCPUs string `json:"broker_cpus,omitempty"`
	CellCPUs   string `json:"cell_cpus,omitempty"`
}

func pinningOf(o Options) Pinning {
	p := Pinning{BrokerCPUs: o.BrokerCPUs, CellCPUs: o.CellCPUs}
	if p.BrokerCPUs != "" || p.CellCPUs != "" {
		p.On, p.Method = true, pinMethod()
	}
	return p
}

func encodeStored(s *Spec, sch *Schedule, o Options) (json.RawMessage, error) {
	prof := o.Profile
	st := storedSpec{Spec: s, Calibration: sch.Calibration.Name(), Entries: sch.Len(), Pinning: pinningOf(o), Profile: &prof}
	for _, c := range sch.Cells {
		st.Cells = append(st.Cells, c.Name())
	}
	b, err := json.Marshal(st)
	if err != nil {
		return nil, fmt.Errorf("encode spec: %w", err)
	}
	return b, nil
}

func decodeStored(raw json.RawMessage) (storedSpec, error) {
	var st storedSpec
	if err := json.Unmarshal(raw, &st); err != nil || st.Spec == nil {
		if err == nil {
			err = errors.New("no spec")
		}
		return st, fmt.Errorf("manifest spec: %w", err)
	}
	return st, nil
}
