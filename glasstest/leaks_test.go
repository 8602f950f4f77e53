package glasstest_test

import (
	"bytes"
	"os"
	"path/filepath"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/glassworks/glass/glasstest"
	"github.com/glassworks/glass/internal/scrub"
)

// The sensitive values of the leak faults (fixtures/faults/leaks-*.html):
// what every encoder escapes — a space, !, &, a quote, a letter with a
// diacritic, an astral character — letters with diacritics in NFC, and
// compatibility characters.
const (
	leakSecret   = `s3cret pw!&ü"x😀`
	nfcSecret    = "Grüße-ñandú-Åsa"
	compatSecret = "Ａsa ﬁnè²"
)

// The spellings the leak pages write, worked out by hand from their
// scripts, so that the specs do not only trust the package they test.
const (
	// leaks-json-escaped.html: every other character a \u escape.
	jsonEscapedLeak = `\u00733\u0063r\u0065t\u0020p\u0077!\u0026ü\u0022x\ud83d\ude00`
	// leaks-html-entities.html: every character a reference.
	htmlEntitiesLeak = `&#115;&#x33;&#X63;&#114&#101;&#x74;&#X20;&#112&#119;&#x21;&#X26;&#252&quot;&#x78;&#X1F600;`
	// leaks-on-screen.html: CSS generated content, as the style sheet
	// holds it and as a trace's JSON does.
	cssLeak     = `\73 \33 \63 \72 \65 \74 \20 \70 \77 \21 \26 \fc \22 \78 \1f600 `
	cssLeakJSON = `\\73 \\33 \\63 \\72 \\65 \\74 \\20 \\70 \\77 \\21 \\26 \\fc \\22 \\78 \\1f600 `
)

// percentLeaks are leakSecret as leaks-percent-encoded.html sends it.
var percentLeaks = []string{
	"s3cret%20pw!%26%C3%BC%22x%F0%9F%98%80",                   // encodeURIComponent
	"s3cret+pw%21%26%C3%BC%22x%F0%9F%98%80",                   // url.QueryEscape
	"s3cret%20pw%21&%C3%BC%22x%F0%9F%98%80",                   // url.PathEscape
	"s3cret%20pw!%26%c3%bc%22x%f0%9f%98%80",                   // lower-case hex
	"s3cret%2520pw!%2526%25C3%25BC%2522x%25F0%259F%2598%2580", // twice
	"s3cret%20pw", // any of them, cut short
}

// normalisedLeaks are nfcSecret and compatSecret as leaks-normalised.html
// echoes them.
var normalisedLeaks = []string{
	"Gru\u0308ße-n\u0303andu\u0301-A\u030asa",      // NFD
	"Gru%CC%88%C3%9Fe-n%CC%83andu%CC%81-A%CC%8Asa", // NFD, percent-encoded
	"Asa finè2",       // NFKC
	"Asa fine\u03002", // NFKD
	"Asa fine%CC%802", // NFKD, percent-encoded
}

// leakArgs passes the sensitive value "pw" to the leak pages.
var leakArgs = map[string]any{"password": glasstest.SensitiveRef("pw")}

// expectEvidenceFreeOf saves the page's evidence as a failing spec's
// cleanup does and asserts that no file — receipts.json, snapshots.json,
// confirmations.json, every entry of trace.zip — holds any of values in
// any spelling the scrub package finds, nor any of the spellings written
// out literally; that the trace was kept, scrubbed; and that no
// screenshot was taken. It returns the files and the trace's entries by
// name, for the specs to check that the page's writing was recorded.
func expectEvidenceFreeOf(p *glasstest.Page, values []string, literal ...string) map[string][]byte {
	GinkgoHelper()
	set := scrub.New(values...)
	dir := GinkgoT().TempDir()
	// The trace as recorded is stopped into a temporary directory of its
	// own, which must be gone once the scrubbed copy is written.
	tmp := GinkgoT().TempDir()
	GinkgoT().Setenv("TMPDIR", tmp)
	a, err := p.SaveArtifacts(dir)
	Expect(err).NotTo(HaveOccurred())
	Eventually(func() ([]os.DirEntry, error) { return os.ReadDir(tmp) }).Should(BeEmpty(), "the trace as recorded is removed")
	Expect(a.Screenshot).To(BeEmpty(), "a page whose calls used a sensitive value has no screenshot")
	Expect(a.Errors).To(ConsistOf(HavePrefix(glasstest.ScreenshotFile+": not taken: a call of the page used a sensitive value")), "only the screenshot is missing")
	Expect(a.Trace).To(BeAnExistingFile(), "the trace is kept, scrubbed")

	written := map[string][]byte{}
	kept, err := os.ReadDir(a.Dir)
	Expect(err).NotTo(HaveOccurred())
	for _, e := range kept {
		b, err := os.ReadFile(filepath.Join(a.Dir, e.Name()))
		Expect(err).NotTo(HaveOccurred())
		written[e.Name()] = b
	}
	Expect(written).NotTo(HaveKey(glasstest.ScreenshotFile))
	for name, b := range zipEntries(a.Trace) {
		written[glasstest.TraceFile+": "+name] = b
	}
	for name, b := range written {
		if i, j := set.Index(b); i >= 0 {
			Fail(name + " holds a sensitive value, spelt " + string(b[i:j]))
		}
		for _, l := range literal {
			Expect(bytes.Contains(b, []byte(l))).To(BeFalse(), "%s holds %q", name, l)
		}
	}
	return written
}
