package kafka

import (
	"fmt"
	"os"
	"path/filepath"
)

// RefJarEnv names the environment variable that points at the Java
// references' jar (java/: fplab.SteadyConsumer for path=java and
// fplab.FlinkBounded for path=flink; docs/kafka.md, "Java references").
const RefJarEnv = "FPLAB_JAVA_REFS"

// DefaultRefJar is where `make java-refs` puts the jar when FPLAB_JAVA_REFS
// is unset: beside the Kafka distribution,
// $XDG_CACHE_HOME/fplab/java-refs/fplab-java.jar (or ~/.cache/...).
func DefaultRefJar() string {
	return filepath.Join(filepath.Dir(DefaultDistDir()), "java-refs", "fplab-java.jar")
}

// RefJar is the jar in force: FPLAB_JAVA_REFS when set, else DefaultRefJar.
func RefJar() string {
	if p := os.Getenv(RefJarEnv); p != "" {
		return p
	}
	return DefaultRefJar()
}

// CheckRefJar reports whether jar is a regular file, with a one-line error
// saying how to build it when it is not.
func CheckRefJar(jar string) error {
	st, err := os.Stat(jar)
	if err != nil || !st.Mode().IsRegular() {
		return fmt.Errorf("no Java reference jar at %s (run `make java-refs`, or set %s)", jar, RefJarEnv)
	}
	return nil
}

// RefFlinkFormats are the formats fplab.FlinkBounded decodes with a stock
// Flink deserializer (path=flink); a cell of another format is refused
// before it runs.
var RefFlinkFormats = []string{"raw", "json", "avro", "protobuf", "csv"}
