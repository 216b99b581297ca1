package ladder

import "fmt"

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
