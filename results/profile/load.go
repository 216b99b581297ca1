package profile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/google/pprof/profile"
)

// Load reads a pprof profile file (gzipped protobuf as runtime/pprof
// writes it, or uncompressed). Errors name the file.
func Load(path string) (*profile.Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the message names the file already
		}
		return nil, fmt.Errorf("read profile %s: %w", path, err)
	}
	p, err := profile.ParseData(data)
	if err != nil {
		return nil, fmt.Errorf("read profile %s: %w", path, err)
	}
	return p, nil
}
