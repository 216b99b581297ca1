package profile

import "strings"

// Frame is one function on a sample's stack: a line of a location (an
// inlined call is a frame of its own).
type Frame struct {
	Func string // symbol name, e.g. "github.com/x/y.(*T).M.func1"; "" when unsymbolized
	File string // source file, "" when unknown
}

// Pkg is the frame's package path ("runtime", "github.com/x/y"), or "" for
// a name that is not a Go symbol (C functions, unsymbolized addresses).
func (f Frame) Pkg() string {
	pkg, _ := splitSymbol(f.Func)
	return pkg
}

// Recv is the receiver type name of a method, without "*" and type
// arguments ("T" for "pkg.(*T[...]).M"), or "" for a function. Value
// receivers ("pkg.T.M") are told from closures ("pkg.F.func1") by the
// second element; a closure of an inlined call ("pkg.F.G.func1") reads as
// method G of F, which the rules tolerate.
func (f Frame) Recv() string {
	_, rest := splitSymbol(f.Func)
	recv, _ := splitRest(rest)
	return recv
}

// Name is the function or method name without package, receiver or
// closure suffix ("M" for "pkg.(*T).M.func1", "F" for "pkg.F").
func (f Frame) Name() string {
	_, rest := splitSymbol(f.Func)
	_, name := splitRest(rest)
	return name
}

// IsGo reports whether the frame is a Go symbol (it has a package path).
func (f Frame) IsGo() bool { return f.Pkg() != "" }

// splitSymbol splits a Go symbol into its package path and the rest. The
// linker escapes dots in the last path element (%2e), so the package ends
// at the first dot after the last slash; type arguments ("[...]") may hold
// slashes of their own and are not looked at.
func splitSymbol(sym string) (pkg, rest string) {
	head := sym
	if i := strings.IndexByte(head, '['); i >= 0 {
		head = head[:i]
	}
	slash := strings.LastIndexByte(head, '/')
	dot := strings.IndexByte(head[slash+1:], '.')
	if dot < 0 {
		return "", sym
	}
	dot += slash + 1
	return sym[:dot], sym[dot+1:]
}

// splitRest splits "(*T).M.func1", "T.M" or "F.func1" into receiver and
// name. A plain "T.M" is read as a method only when the first element is
// not a closure-like suffix; Go names methods on value receivers "T.M",
// which cannot be told apart from "F.func1" by syntax alone, so a second
// element starting with "func" or "gowrap" or holding only digits is a
// closure of F.
func splitRest(rest string) (recv, name string) {
	if strings.HasPrefix(rest, "(") {
		end := strings.IndexByte(rest, ')')
		if end < 0 {
			return "", rest
		}
		recv = strings.TrimPrefix(rest[1:end], "*")
		if i := strings.IndexByte(recv, '['); i >= 0 {
			recv = recv[:i]
		}
		name = strings.TrimPrefix(rest[end+1:], ".")
		return recv, firstElem(name)
	}
	first, second, ok := cutElem(rest)
	if !ok || isClosure(second) {
		return "", first
	}
	return first, firstElem(second)
}

// cutElem cuts s at its first dot outside square brackets.
func cutElem(s string) (before, after string, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			depth--
		case '.':
			if depth == 0 {
				return stripTypeArgs(s[:i]), s[i+1:], true
			}
		}
	}
	return stripTypeArgs(s), "", false
}

func firstElem(s string) string {
	e, _, _ := cutElem(s)
	return e
}

func stripTypeArgs(s string) string {
	if i := strings.IndexByte(s, '['); i >= 0 {
		return s[:i]
	}
	return s
}

func isClosure(elem string) bool {
	if strings.HasPrefix(elem, "func") || strings.HasPrefix(elem, "gowrap") || strings.HasPrefix(elem, "deferwrap") {
		return true
	}
	if elem == "" {
		return false
	}
	for i := 0; i < len(elem); i++ {
		if elem[i] < '0' || elem[i] > '9' {
			if elem[i] == '.' {
				return true // "1.2": nested closure numbering
			}
			return false
		}
	}
	return true
}
