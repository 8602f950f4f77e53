package surface

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/glassworks/glass/receipt"
)

// ErrInvalid is wrapped by every error of a surface file of the wrong
// shape, so callers can tell it from a file that cannot be read.
var ErrInvalid = errors.New("invalid surface")

// InvalidError lists every problem of a surface file, each with the
// JSONPath of the offending value ("$.actions[2].risk: want one of read,
// write, dangerous, got \"low\""). errors.Is(err, ErrInvalid) holds.
type InvalidError struct {
	Problems receipt.Problems
}

func (e *InvalidError) Error() string { return "invalid surface: " + e.Problems.String() }

// Is makes errors.Is(err, ErrInvalid) hold.
func (e *InvalidError) Is(target error) bool { return target == ErrInvalid }

// Decode parses a surface file strictly: unknown fields, duplicate keys,
// missing fields, values of the wrong type or outside the contract's
// enums, and two entries of one name are errors, all of them listed with
// their JSONPath. Entries are sorted by name, whatever their order in the
// file.
func Decode(b []byte) (*Surface, error) {
	root, err := parseTree(b)
	if err != nil {
		return nil, &InvalidError{Problems: receipt.Problems{problemOf(err)}}
	}
	d := &decoder{}
	s := d.surface(root)
	if len(d.problems) > 0 {
		return nil, &InvalidError{Problems: d.problems}
	}
	return s, nil
}

// problemOf splits "path: message" as parseTree writes its errors.
func problemOf(err error) receipt.Problem {
	path, msg, ok := strings.Cut(err.Error(), ": ")
	if !ok {
		return receipt.Problem{Path: "$", Message: err.Error()}
	}
	return receipt.Problem{Path: path, Message: msg}
}

type decoder struct{ problems receipt.Problems }

func (d *decoder) add(path, format string, args ...any) {
	d.problems = append(d.problems, receipt.Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

// fields checks an object's keys: every required key is there, every key
// is known. It returns false when n is not an object.
func (d *decoder) fields(path string, n *node, required, optional []string) bool {
	if n.kind != 'o' {
		d.add(path, "want object, got %s", n.typeName())
		return false
	}
	for _, k := range required {
		if _, ok := n.obj[k]; !ok {
			d.add(keyPath(path, k), "missing")
		}
	}
	for _, k := range n.keys {
		if !slices.Contains(required, k) && !slices.Contains(optional, k) {
			d.add(keyPath(path, k), "unknown field (want one of %s)", strings.Join(append(slices.Clone(required), optional...), ", "))
		}
	}
	return true
}

func (d *decoder) str(path string, n *node) string {
	if n == nil {
		return ""
	}
	if n.kind != 's' {
		d.add(path, "want string, got %s", n.typeName())
		return ""
	}
	return n.str
}

func (d *decoder) boolean(path string, n *node) bool {
	if n == nil {
		return false
	}
	if n.kind != 'b' {
		d.add(path, "want boolean, got %s", n.typeName())
		return false
	}
	return n.boolv
}

func (d *decoder) strList(path string, n *node) []string {
	if n == nil {
		return nil
	}
	if n.kind != 'a' {
		d.add(path, "want array, got %s", n.typeName())
		return nil
	}
	out := make([]string, 0, len(n.arr))
	for i, it := range n.arr {
		out = append(out, d.str(fmt.Sprintf("%s[%d]", path, i), it))
	}
	return out
}

func enum[T ~string](d *decoder, path string, n *node, all []T) T {
	s := d.str(path, n)
	if n == nil || n.kind != 's' {
		return ""
	}
	if !slices.Contains(all, T(s)) {
		want := make([]string, len(all))
		for i, v := range all {
			want[i] = string(v)
		}
		d.add(path, "want one of %s, got %q", strings.Join(want, ", "), s)
		return ""
	}
	return T(s)
}

func (d *decoder) surface(n *node) *Surface {
	s := &Surface{}
	if !d.fields("$", n, []string{"format", "protocol", "page", "actions"}, []string{"omitted"}) {
		return s
	}
	if f := n.obj["format"]; f != nil {
		s.Format = d.str("$.format", f)
		if f.kind == 's' && s.Format != Format {
			d.add("$.format", "want %q, got %q", Format, s.Format)
		}
	}
	s.Protocol = d.str("$.protocol", n.obj["protocol"])
	if p := n.obj["page"]; p != nil && d.fields("$.page", p, []string{"id", "title"}, []string{"host", "path"}) {
		s.Page = Page{
			ID:    d.str("$.page.id", p.obj["id"]),
			Title: d.str("$.page.title", p.obj["title"]),
			Host:  d.str("$.page.host", p.obj["host"]),
			Path:  d.str("$.page.path", p.obj["path"]),
		}
	}
	if o := n.obj["omitted"]; o != nil {
		s.Omitted = d.count("$.omitted", o)
	}
	s.Actions = []Action{}
	if a := n.obj["actions"]; a != nil {
		if a.kind != 'a' {
			d.add("$.actions", "want array, got %s", a.typeName())
		} else {
			seen := map[string]string{}
			for i, it := range a.arr {
				path := fmt.Sprintf("$.actions[%d]", i)
				e, ok := d.action(path, it)
				if !ok {
					continue
				}
				if first, dup := seen[e.Name]; dup {
					d.add(path+".name", "%q is also the name of %s", e.Name, first)
					continue
				}
				seen[e.Name] = path
				s.Actions = append(s.Actions, e)
			}
		}
	}
	slices.SortFunc(s.Actions, func(a, b Action) int { return strings.Compare(a.Name, b.Name) })
	return s
}

func (d *decoder) count(path string, n *node) int {
	if n.kind != 'n' {
		d.add(path, "want integer, got %s", n.typeName())
		return 0
	}
	v, err := n.num.Int64()
	if err != nil || v < 0 || v > 1<<31 {
		d.add(path, "want a count (an integer from 0), got %s", n.num)
		return 0
	}
	return int(v)
}

var (
	actionRequired = []string{"name", "description", "kind", "risk", "confirm"}
	actionOptional = []string{"rows", "tool", "stepOnly", "steps", "params", "sensitive", "fidelity", "expect", "idempotent"}
)

func (d *decoder) action(path string, n *node) (Action, bool) {
	var a Action
	if !d.fields(path, n, actionRequired, actionOptional) {
		return a, false
	}
	o := n.obj
	a.Name = d.str(path+".name", o["name"])
	if o["name"] != nil && o["name"].kind == 's' && a.Name == "" {
		d.add(path+".name", "empty")
	}
	a.Rows = d.str(path+".rows", o["rows"])
	a.Tool = d.str(path+".tool", o["tool"])
	a.Description = d.str(path+".description", o["description"])
	a.Kind = enum(d, path+".kind", o["kind"], receipt.Kinds)
	a.Risk = enum(d, path+".risk", o["risk"], receipt.Risks)
	a.Confirm = d.boolean(path+".confirm", o["confirm"])
	a.StepOnly = d.boolean(path+".stepOnly", o["stepOnly"])
	a.Steps = d.strList(path+".steps", o["steps"])
	if p := o["params"]; p != nil {
		if p.kind != 'o' {
			d.add(path+".params", "want object, got %s", p.typeName())
		} else {
			a.Params, _ = p.value().(map[string]any)
		}
	}
	a.Sensitive = d.strList(path+".sensitive", o["sensitive"])
	if f := o["fidelity"]; f != nil {
		a.Fidelity = enum(d, path+".fidelity", f, receipt.Fidelities)
	}
	a.Expect = d.str(path+".expect", o["expect"])
	a.Idempotent = d.boolean(path+".idempotent", o["idempotent"])
	return a, true
}
