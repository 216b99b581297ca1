package workloads

// Skipping (and validating) JSON values of keys that are not columns.

// jsonMaxDepth bounds nesting inside skipped values.
const jsonMaxDepth = 64

// skipJSONValue validates and skips any JSON value at b[i:].
func skipJSONValue(b []byte, i, depth int, sc *scratch) (int, error) {
	if i >= len(b) {
		return 0, errTruncated
	}
	switch c := b[i]; {
	case c == '"':
		mark := len(sc.buf)
		_, j, err := scanJSONString(b, i+1, sc)
		sc.buf = sc.buf[:mark]
		return j, err
	case c == '-' || (c >= '0' && c <= '9'):
		return skipJSONNumber(b, i)
	case c == '{' || c == '[':
		if depth >= jsonMaxDepth {
			return 0, errJSONDepth
		}
		return skipJSONContainer(b, i, depth, sc)
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if len(b)-i >= len(lit) && string(b[i:i+len(lit)]) == lit {
			return i + len(lit), nil
		}
	}
	return 0, errJSONSyntax
}

func skipJSONContainer(b []byte, i, depth int, sc *scratch) (int, error) {
	object := b[i] == '{'
	end := byte(']')
	if object {
		end = '}'
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == end {
		return i + 1, nil
	}
	for {
		var err error
		if object {
			if i >= len(b) || b[i] != '"' {
				return 0, errJSONSyntax
			}
			if i, err = skipJSONValue(b, i, depth+1, sc); err != nil {
				return 0, err
			}
			i = skipWS(b, i)
			if i >= len(b) || b[i] != ':' {
				return 0, errJSONSyntax
			}
			i = skipWS(b, i+1)
		}
		if i, err = skipJSONValue(b, i, depth+1, sc); err != nil {
			return 0, err
		}
		i = skipWS(b, i)
		if i >= len(b) {
			return 0, errTruncated
		}
		if b[i] == end {
			return i + 1, nil
		}
		if b[i] != ',' {
			return 0, errJSONSyntax
		}
		i = skipWS(b, i+1)
	}
}

// skipJSONNumber validates the JSON number grammar at b[i:].
func skipJSONNumber(b []byte, i int) (int, error) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = skipDigits(b, i)
	default:
		return 0, errJSONNumber
	}
	if i < len(b) && b[i] == '.' {
		j := skipDigits(b, i+1)
		if j == i+1 {
			return 0, errJSONNumber
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := skipDigits(b, i)
		if j == i {
			return 0, errJSONNumber
		}
		i = j
	}
	return i, nil
}

func skipDigits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}
