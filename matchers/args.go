package matchers

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/glassworks/glass/receipt"
)

// arg is one argument of a matcher: a plain value compared for equality,
// or a Gomega matcher applied to the candidate.
type arg struct {
	m types.GomegaMatcher
	v any
}

func newArg(v any) arg {
	if m, ok := v.(types.GomegaMatcher); ok {
		return arg{m: m}
	}
	return arg{v: v}
}

func newArgs(vs []any) []arg {
	out := make([]arg, len(vs))
	for i, v := range vs {
		out[i] = newArg(v)
	}
	return out
}

func (a arg) isMatcher() bool { return a.m != nil }

// match reports whether x satisfies a. A plain value must be deeply equal
// to x; a matcher decides for itself.
func (a arg) match(x any) (bool, error) {
	if a.m != nil {
		return a.m.Match(x)
	}
	return reflect.DeepEqual(a.v, x), nil
}

// String renders a in a message: strings quoted, matchers by name.
func (a arg) String() string {
	if a.m != nil {
		return matcherName(a.m)
	}
	switch v := a.v.(type) {
	case string:
		return receipt.Quote(v)
	case receipt.Feedback:
		return string(v.Kind) + " " + receipt.Quote(v.Text)
	}
	return fmt.Sprintf("%v", a.v)
}

// stringArg checks that a is a string or a matcher: the arguments that
// name ids, keys, fields and texts.
func (a arg) stringArg(where string) error {
	if a.m != nil {
		return nil
	}
	if _, ok := a.v.(string); !ok {
		return fmt.Errorf("%s: want a string or a Gomega matcher, got %T", where, a.v)
	}
	return nil
}

func argList(as []arg) string {
	s := make([]string, len(as))
	for i, a := range as {
		s[i] = a.String()
	}
	return "[" + strings.Join(s, " ") + "]"
}

// matcherName renders a Gomega matcher by the name of its constructor:
// *matchers.HavePrefixMatcher becomes HavePrefix(…). Gomega matchers have
// no String method, and their fields are not meant for readers.
func matcherName(m types.GomegaMatcher) string {
	t := reflect.TypeOf(m)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	name := strings.TrimSuffix(t.Name(), "Matcher")
	if name == "" {
		name = t.String()
	}
	return name + "(…)"
}

// bullets renders failures as an indented list, one per line; a failure
// that spans lines keeps its lines indented under its bullet.
func bullets(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(format.Indent + "- ")
		b.WriteString(strings.ReplaceAll(l, "\n", "\n"+format.Indent+"  "))
	}
	return b.String()
}

// indent indents every line of a nested matcher's message under ours.
func indent(s string) string {
	return format.IndentString(s, 1)
}

// quoted is ids as %q writes a list, each quoted as receipt.Quote does:
// a page's ids and texts go into failure messages with every character
// that shows nothing escaped.
func quoted(ids []string) string {
	q := make([]string, len(ids))
	for i, id := range ids {
		q[i] = receipt.Quote(id)
	}
	return "[" + strings.Join(q, " ") + "]"
}
