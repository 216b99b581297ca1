package results

import (
	"encoding/json"
	"fmt"
	"path/filepath"
)

// CheckComplete reports why a run read with ReadRun is not a finished run
// fit to merge (Incomplete), naming the run.
func CheckComplete(r Run) error {
	if why := Incomplete(r); why != "" {
		return fmt.Errorf("run %s is incomplete: %s; resume the run first, or force", r.Dir, why)
	}
	return nil
}

// Incomplete says why a run read with ReadRun is not finished, naming its
// journal, or "" when it is: a torn last journal line (the ladder was
// killed mid-write), an empty journal, or — when the manifest's spec lists
// its cells and repetitions, as the ladder's does — a (cell, rep) of the
// spec with no journaled row. Failed rows count as finished: a failure is
// an outcome.
func Incomplete(r Run) string {
	journal := filepath.Join(r.Dir, JournalFile)
	if r.Dropped > 0 {
		return journal + " ends in a torn line (the ladder was killed)"
	}
	if len(r.Rows) == 0 {
		return journal + " has no rows"
	}
	cells, reps := specCells(r.Manifest.Spec)
	if len(cells) == 0 || reps <= 0 {
		return ""
	}
	done := Finished(r.Rows)
	missing, total := 0, len(cells)*reps
	var first CellRep
	for _, c := range cells {
		for rep := range reps {
			if !done[CellRep{c, rep}] {
				if missing == 0 {
					first = CellRep{c, rep}
				}
				missing++
			}
		}
	}
	if missing > 0 {
		return fmt.Sprintf("%s lacks %d of %d cell repetitions of its spec (first: %s rep %d)", journal, missing, total, first.Cell, first.Rep)
	}
	return ""
}

// specCells reads the cell list and repetition count the ladder stores in
// the manifest ({"spec": {"repetitions": N, ...}, "cells": [...]}); zero
// values when the spec does not have them.
func specCells(raw json.RawMessage) ([]string, int) {
	var st struct {
		Spec struct {
			Repetitions int `json:"repetitions"`
		} `json:"spec"`
		Cells []string `json:"cells"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &st) != nil {
		return nil, 0
	}
	return st.Cells, st.Spec.Repetitions
}
