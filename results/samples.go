package results

// CellSamples is one cell of a run as Index counts it: its dimensions,
// per metric unit the samples of its successful repetitions in journal
// order, and its rows.
type CellSamples struct {
	Name string
	// Dims is the cell name split by cell.Dims.
	Dims map[string]string
	// Samples holds one value per successful repetition and unit (a unit
	// printed twice in one row counts once, its first value).
	Samples map[string][]float64
	// Units lists the keys of Samples in the order first printed.
	Units []string
	// OK and Failed count the cell's repetitions.
	OK, Failed int
	// Rows are the cell's rows that count, in journal order.
	Rows []Row
}
