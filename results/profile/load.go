package profile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/google/pprof/profile"
)

// Load reads a pprof profile file (gzipped protobuf as runtime/pprof
// writes it, or uncompressed). Errors are one line naming the file.
func Load(path string) (*profile.Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("profile: %s: no such file", path)
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("profile: %s: %s", path, firstLine(err.Error()))
	}
	p, err := profile.ParseData(data)
	if err != nil {
		return nil, fmt.Errorf("profile: %s: not a profile: %s", path, strings.TrimPrefix(firstLine(err.Error()), "parsing profile: "))
	}
	return p, nil
}

// firstLine keeps the first line of a message.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
