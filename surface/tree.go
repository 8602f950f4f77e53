package surface

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// node is one JSON value read token by token, so that the decoder sees
// what encoding/json hides: the order of an object's keys and keys that
// appear twice.
type node struct {
	kind  byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	keys  []string
	obj   map[string]*node
	arr   []*node
	str   string
	num   json.Number
	boolv bool
}

// maxDepth bounds nesting, so a hostile file cannot exhaust the stack.
const maxDepth = 64

// parseTree reads one JSON document. A duplicate key, trailing data or
// nesting deeper than maxDepth is an error naming its JSONPath.
func parseTree(b []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	n, err := parseValue(dec, "$", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("$: more than one JSON value")
	}
	return n, nil
}

func parseValue(dec *json.Decoder, path string, depth int) (*node, error) {
	tok, err := dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("%s: not valid JSON: %v", path, err)
	}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= maxDepth {
			return nil, fmt.Errorf("%s: nested deeper than %d levels", path, maxDepth)
		}
		if t == '{' {
			n := &node{kind: 'o', obj: map[string]*node{}}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("%s: not valid JSON: %v", path, err)
				}
				k, _ := kt.(string)
				kp := keyPath(path, k)
				if _, dup := n.obj[k]; dup {
					return nil, fmt.Errorf("%s: duplicate key", kp)
				}
				v, err := parseValue(dec, kp, depth+1)
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k)
				n.obj[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("%s: not valid JSON: %v", path, err)
			}
			return n, nil
		}
		n := &node{kind: 'a'}
		for i := 0; dec.More(); i++ {
			v, err := parseValue(dec, path+"["+strconv.Itoa(i)+"]", depth+1)
			if err != nil {
				return nil, err
			}
			n.arr = append(n.arr, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, fmt.Errorf("%s: not valid JSON: %v", path, err)
		}
		return n, nil
	case string:
		return &node{kind: 's', str: t}, nil
	case json.Number:
		return &node{kind: 'n', num: t}, nil
	case bool:
		return &node{kind: 'b', boolv: t}, nil
	default:
		return &node{kind: 'z'}, nil
	}
}

// value is the node as encoding/json would decode it with UseNumber.
func (n *node) value() any {
	switch n.kind {
	case 'o':
		m := make(map[string]any, len(n.keys))
		for _, k := range n.keys {
			m[k] = n.obj[k].value()
		}
		return m
	case 'a':
		out := make([]any, len(n.arr))
		for i, v := range n.arr {
			out[i] = v.value()
		}
		return out
	case 's':
		return n.str
	case 'n':
		return n.num
	case 'b':
		return n.boolv
	}
	return nil
}

func (n *node) typeName() string {
	switch n.kind {
	case 'o':
		return "object"
	case 'a':
		return "array"
	case 's':
		return "string"
	case 'n':
		return "number"
	case 'b':
		return "boolean"
	}
	return "null"
}

// keyPath appends a key to a JSONPath as the receipt decoder writes it:
// $.page.id, or $["odd key"].
func keyPath(path, key string) string {
	if identifier(key) {
		return path + "." + key
	}
	return path + "[" + strconv.Quote(key) + "]"
}

func identifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || r == '$' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z':
		case i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return true
}
