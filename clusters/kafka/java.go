package kafka

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// FindJava returns the java binary to run: $JAVA_HOME/bin/java when
// JAVA_HOME is set, else java on PATH.
func FindJava() (string, error) {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "java")
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("JAVA_HOME=%s has no bin/java", home)
		}
		return p, nil
	}
	p, err := exec.LookPath("java")
	if err != nil {
		return "", fmt.Errorf("java not found on PATH (install a JDK 17+ or set JAVA_HOME)")
	}
	return p, nil
}
