package checkpointcost

import (
	"path/filepath"

	"github.com/fastpathlab/fplab/internal/atomicfile"
)

// fileSystem is the seam every write of the store and the sink goes
// through, so tests can make a store unwritable even when they run as root
// (where a read-only mode bit does not stop writes).
type fileSystem = atomicfile.FS

type file = atomicfile.File

type osFS = atomicfile.OS

// writeDurable replaces name with data so that a reader sees either the old
// file or the whole new one, and the new one survives a crash once it
// returns (atomicfile's rule).
func writeDurable(fsys fileSystem, name string, data []byte) error {
	if err := fsys.MkdirAll(filepath.Dir(name)); err != nil {
		return err
	}
	return atomicfile.WriteFS(fsys, name, data)
}
