package ladder

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fastpathlab/fplab/internal/oneline"
)

// SpecError is a spec the ladder refuses, at a position: the file, the line
// of the field's key (0 when the whole file is at fault or the spec was
// built in code) and the field. Its text carries no package prefix; the CLI
// adds one. It is what LoadSpec and ParseSpec return for every syntax
// error, bad value and limit (benchfmt's SyntaxError is the model).
type SpecError struct {
	File  string
	Line  int
	Field string
	Msg   string
	// Err is the underlying error, if any (errors.Is and errors.As see it).
	Err error
}

// Pos is "file:line", or "file" when the error has no line.
func (e *SpecError) Pos() string {
	if e.Line > 0 {
		return e.File + ":" + strconv.Itoa(e.Line)
	}
	return e.File
}

func (e *SpecError) Error() string {
	var b strings.Builder
	if pos := e.Pos(); pos != "" {
		b.WriteString(pos)
		b.WriteString(": ")
	}
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

func (e *SpecError) Unwrap() error { return e.Err }

// fieldErrorf is a SpecError about field; ParseSpec fills in the file and
// the field's line.
func fieldErrorf(field, format string, args ...any) *SpecError {
	return &SpecError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// yamlLine matches the position yaml.v3 puts at the front of its messages.
var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): `)

// yamlError turns a YAML syntax or decoding error into a SpecError at the
// line the YAML library names.
func yamlError(file string, err error) *SpecError {
	msg := strings.TrimPrefix(oneline.Err(err), "yaml: ")
	se := &SpecError{File: file, Msg: msg, Err: err}
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		se.Line, _ = strconv.Atoi(m[1])
		se.Msg = strings.TrimPrefix(msg, m[0])
	}
	return se
}
