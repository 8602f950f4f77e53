package scrub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// traceLike is about size bytes of text shaped like a Playwright trace: JSON
// lines whose strings hold escaped HTML (DOM snapshots), URLs with
// percent-encoding and request bodies that are JSON again, in English and
// in other scripts, with one spelling of the value near the end.
func traceLike(size int, value string) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		html := fmt.Sprintf(`<div class="row" data-id="t%d"><input value="task &amp; more %d" placeholder="Écrire…"><a href="/items?q=a%%20b&amp;page=%d">Ünïcødé 日本語 %d</a></div>`, i, i, i, i)
		body, _ := json.Marshal(map[string]any{"id": i, "args": map[string]string{"title": "buy milk", "note": "line\nbreak \"quoted\" \\ back"}})
		line, _ := json.Marshal(map[string]any{
			"type": "frame-snapshot", "callId": fmt.Sprintf("call@%d", i), "html": html,
			"url":      "http://127.0.0.1:8080/api?token=" + url.QueryEscape(fmt.Sprintf("abc %d/ü", i)),
			"postData": string(body),
		})
		b.Write(line)
		b.WriteByte('\n')
	}
	b.WriteString(`{"postData":"{\"pw\":\"` + value + `\"}"}` + "\n")
	return b.Bytes()
}

func benchmarkScan(b *testing.B, size int) {
	const secret = "s3cret pw&ü\"x"
	s := New(secret, "hunter2-Ωmega", "correct horse battery staple")
	text := traceLike(size, `s3cret pw\u0026\u00fc\\\"x`)
	if !s.Contains(text) {
		b.Fatal("the spelling is not found")
	}
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for range b.N {
		out := s.Replace(text, "[sensitive]")
		if len(out) == len(text) {
			b.Fatal("nothing replaced")
		}
	}
}

func BenchmarkReplaceTrace1MB(b *testing.B) { benchmarkScan(b, 1<<20) }
func BenchmarkReplaceTrace8MB(b *testing.B) { benchmarkScan(b, 8<<20) }

// BenchmarkContainsHostile scans text built to make the matcher work at
// every offset: runs of backslashes and percent signs, every character of
// the value's prefix spelt again and again.
func BenchmarkContainsHostile(b *testing.B) {
	s := New(`s3cret\pw`)
	unit := `s3cre\\\\\\\\u0073%25%25%2573\\\\s3cr&#x73&amp;amp;`
	text := []byte(strings.Repeat(unit, (1<<20)/len(unit)))
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for range b.N {
		s.Contains(text)
	}
}
