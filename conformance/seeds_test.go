package conformance_test

import (
	"regexp"
	"strings"
	"unicode"
)

// A seed paragraph: the unit the coverage table of CONTRACT.md maps to
// rules. Seed 000 is plain text: blocks between blank lines, a one-line
// block without final punctuation is a heading, and a block made only of
// list items or table rows gives one paragraph per line. Seed 004 is
// Markdown whose blank lines were lost: "#" lines are headings, a fenced
// block is one paragraph, each "- " item is one, and prose starts a new
// paragraph where a line opens with a capital after a line that ended a
// sentence.
type paragraph struct {
	section string // the heading the paragraph stands under
	text    string // whitespace collapsed to single spaces
}

var (
	listItem   = regexp.MustCompile(`^(\d+\. |• )`)
	whitespace = regexp.MustCompile(`\s+`)
)

func normalize(s string) string { return strings.TrimSpace(whitespace.ReplaceAllString(s, " ")) }

func isPlainHeading(line string) bool {
	line = strings.TrimSpace(line)
	return line != "" && !strings.Contains(line, "\t") && !listItem.MatchString(line) &&
		!strings.ContainsAny(line[len(line)-1:], ".:?!;\"”")
}

func plainParagraphs(text string) []paragraph {
	var out []paragraph
	section := ""
	for _, block := range regexp.MustCompile(`\n\s*\n`).Split(text, -1) {
		block = strings.Trim(block, "\n")
		if strings.TrimSpace(block) == "" {
			continue
		}
		lines := strings.Split(block, "\n")
		if len(lines) == 1 && isPlainHeading(lines[0]) {
			section = strings.TrimSpace(lines[0])
			continue
		}
		perLine := true
		for _, l := range lines {
			if !listItem.MatchString(l) && !strings.Contains(l, "\t") {
				perLine = false
			}
		}
		if perLine {
			for _, l := range lines {
				out = append(out, paragraph{section, normalize(l)})
			}
			continue
		}
		out = append(out, paragraph{section, normalize(block)})
	}
	return out
}

func markdownParagraphs(text string) []paragraph {
	var out []paragraph
	section := ""
	var cur []string
	fenced := false
	flush := func() {
		if len(cur) > 0 {
			out = append(out, paragraph{section, normalize(strings.Join(cur, "\n"))})
		}
		cur = nil
	}
	for _, line := range strings.Split(text, "\n") {
		switch {
		case fenced:
			if strings.HasPrefix(line, "```") {
				fenced = false
				flush()
				continue
			}
			cur = append(cur, line)
		case strings.HasPrefix(line, "```"):
			flush()
			fenced = true
		case strings.TrimSpace(line) == "":
			flush()
		case strings.HasPrefix(line, "#"):
			flush()
			section = strings.TrimSpace(strings.TrimLeft(line, "#"))
		case strings.HasPrefix(line, "- "):
			flush()
			cur = []string{line}
		case len(cur) > 0 && !startsParagraph(cur, line):
			cur = append(cur, line)
		default:
			flush()
			cur = []string{line}
		}
	}
	flush()
	return out
}

// startsParagraph tells a new prose paragraph from a wrapped line: the
// line before ended a sentence and this one opens with a capital; after a
// list item, any line that opens with a capital.
func startsParagraph(cur []string, line string) bool {
	first, _ := firstRune(line)
	if !unicode.IsUpper(first) {
		return false
	}
	if strings.HasPrefix(cur[0], "- ") {
		return true
	}
	prev := strings.TrimSpace(cur[len(cur)-1])
	return strings.HasSuffix(prev, ".") || strings.HasSuffix(prev, ":")
}

func firstRune(s string) (rune, bool) {
	for _, r := range s {
		return r, true
	}
	return 0, false
}

func seedParagraphs(name, text string) []paragraph {
	if strings.HasPrefix(name, "004") {
		return markdownParagraphs(text)
	}
	return plainParagraphs(text)
}
