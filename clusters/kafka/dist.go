package kafka

import (
	"fmt"
	"os"
	"path/filepath"
)

// Version is the Apache Kafka release dist/pom.xml resolves.
const Version = "4.1.1"

// DistEnv names the environment variable that points at a distribution
// directory (one holding libs/*.jar).
const DistEnv = "FPLAB_KAFKA_DIST"

// DefaultDistDir is where `make kafka-dist` puts the distribution when
// FPLAB_KAFKA_DIST is unset: $XDG_CACHE_HOME/fplab/kafka-<Version>, or
// ~/.cache/fplab/kafka-<Version>.
func DefaultDistDir() string {
	base := os.Getenv("XDG_CACHE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			home = os.TempDir()
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "fplab", "kafka-"+Version)
}

// DistDir is the distribution directory in force: FPLAB_KAFKA_DIST when
// set, else DefaultDistDir.
func DistDir() string {
	if d := os.Getenv(DistEnv); d != "" {
		return d
	}
	return DefaultDistDir()
}

// distMarker is the file `make kafka-dist` writes after every jar is in
// place, so an interrupted download is never taken for a distribution.
const distMarker = "COMPLETE"

// CheckDist reports whether dir holds a complete distribution, with a
// one-line error saying how to make one when it does not.
func CheckDist(dir string) error {
	if _, err := os.Stat(filepath.Join(dir, distMarker)); err != nil {
		return fmt.Errorf("no Kafka %s distribution at %s (run `make kafka-dist`, or set %s)", Version, dir, DistEnv)
	}
	jars, _ := filepath.Glob(filepath.Join(dir, "libs", "kafka_2.13-*.jar"))
	tools, _ := filepath.Glob(filepath.Join(dir, "libs", "kafka-tools-*.jar"))
	if len(jars) == 0 || len(tools) == 0 {
		return fmt.Errorf("distribution at %s lacks libs/kafka_2.13-*.jar or libs/kafka-tools-*.jar (rerun `make kafka-dist`)", dir)
	}
	return nil
}

// DistAvailable reports whether a distribution is in force: tests skip
// when it is not.
func DistAvailable() bool { return CheckDist(DistDir()) == nil }

// Classpath is the java -cp value of a distribution.
func Classpath(dir string) string { return filepath.Join(dir, "libs", "*") }
