package ladder

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fastpathlab/fplab/cell"
)

// A resumed run is the same run: the options that change what a row
// measures (the CPU pinning, profiling) are the ones the run started
// with, recorded in its manifest, whatever the resuming command line says.
// A resume that names none of them takes them from the manifest; one that
// names one with another value is refused, since its rows would no longer
// be what the manifest and the report claim for every row.

// resumeOptions returns opt with the run's recorded options in force, or
// an error naming the first option given again with another value.
func resumeOptions(st storedSpec, opt Options) (Options, error) {
	given := pinningOf(opt)
	switch {
	case !given.On:
		opt.BrokerCPUs, opt.CellCPUs = st.Pinning.BrokerCPUs, st.Pinning.CellCPUs
	case given.BrokerCPUs != st.Pinning.BrokerCPUs:
		return opt, changedOption("--broker-cpus", given.BrokerCPUs, st.Pinning.BrokerCPUs)
	case given.CellCPUs != st.Pinning.CellCPUs:
		return opt, changedOption("--cell-cpus", given.CellCPUs, st.Pinning.CellCPUs)
	}
	if st.Profile != nil {
		if opt.Profile && !*st.Profile {
			return opt, changedOption("--profile", "on", "off")
		}
		opt.Profile = *st.Profile
	}
	return opt, nil
}

func changedOption(flag, given, recorded string) error {
	show := func(v string) string {
		if v == "" {
			return "none"
		}
		return fmt.Sprintf("%q", v)
	}
	return fmt.Errorf("resume: %s %s differs from the run's %s; a resumed run keeps the options it started with (give none, or the same)",
		flag, show(given), show(recorded))
}

// restoreSecrets puts the secret cluster props a run directory does not
// keep (the manifest holds cell.Redacted in their place) back from given,
// which the user handed again (fplab ladder --resume DIR --secrets FILE).
// Every redacted secret must be given, and nothing else: a key that is not
// a redacted secret of the run is refused, so a typo cannot pass for a
// secret. Errors name keys, never values.
func restoreSecrets(props, given map[string]string) (map[string]string, error) {
	out := make(map[string]string, len(props))
	var missing []string
	for k, v := range props {
		if v == cell.Redacted && cell.IsSecretKey(k) {
			g, ok := given[k]
			if !ok {
				missing = append(missing, k)
				continue
			}
			v = g
		}
		out[k] = v
	}
	for k := range given {
		if props[k] != cell.Redacted || !cell.IsSecretKey(k) {
			return nil, fmt.Errorf("resume: the secrets handed again name %s, which is not a secret cluster prop this run directory left out", k)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("resume: the run directory keeps no secret, and its cluster needs %s: hand them again with --secrets FILE (key=value lines; - reads stdin)", strings.Join(missing, ", "))
	}
	if len(out) == 0 {
		return props, nil
	}
	return out, nil
}
