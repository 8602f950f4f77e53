package report

import (
	"html/template"
	"io"
	"strings"

	"github.com/glassworks/glass/receipt"
)

var htmlReport = template.Must(template.New("report").Funcs(template.FuncMap{
	"clean": receipt.PrintableText,
	"class": func(f Finding) string { return strings.ToLower(strings.ReplaceAll(f.Label(), " ", "-")) },
}).Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Glass conformance report</title>
<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem auto; max-width: 68rem; padding: 0 1rem; color: #1d1d1f; }
h1 { font-size: 1.5rem; margin-bottom: .2rem; }
.meta { color: #555; margin: 0 0 1rem; }
.summary { padding: .6rem .9rem; border-radius: 6px; font-weight: 600; }
.summary.ok { background: #e6f4ea; color: #1e6b34; }
.summary.bad { background: #fce8e6; color: #a50e0e; }
h2 { font-size: 1.1rem; margin-top: 1.8rem; border-bottom: 1px solid #ddd; padding-bottom: .2rem; }
table { border-collapse: collapse; width: 100%; }
td { vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid #eee; }
td.v { width: 7rem; }
.badge { display: inline-block; padding: .05rem .45rem; border-radius: 4px; font-size: .8rem; font-weight: 700; }
.pass { background: #e6f4ea; color: #1e6b34; }
.fail, .stale { background: #fce8e6; color: #a50e0e; }
.xfail { background: #fef7e0; color: #8a5a00; }
.not-probed { background: #eceff1; color: #455a64; }
code { font: 13px ui-monospace, SFMono-Regular, Menlo, monospace; }
.must { color: #555; margin-top: .2rem; }
.msg { margin-top: .2rem; }
details { margin-top: .3rem; }
pre { background: #f6f8fa; padding: .6rem; overflow: auto; max-height: 28rem; white-space: pre-wrap; word-break: break-word; font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; }
ul.notes { color: #555; }
</style>
</head>
<body>
<h1>Glass conformance report</h1>
<p class="meta"><code>{{clean .R.URL}}</code>{{if .R.Runtime}} · runtime <code>{{clean .R.Runtime}}</code>{{end}}{{if .R.Protocol}} · protocol <code>{{clean .R.Protocol}}</code>{{end}} · transports {{range $i, $t := .R.Transports}}{{if $i}}, {{end}}<code>{{$t}}</code>{{end}}</p>
<p class="summary {{if .R.Conforms}}ok{{else}}bad{{end}}">{{if .R.Conforms}}Conforms{{else}}Violations found{{end}} — {{.R.Summary}}</p>
{{if .R.Notes}}<ul class="notes">{{range .R.Notes}}<li>{{clean .}}</li>{{end}}</ul>{{end}}
{{with .R.StrictFindings}}<h2>Findings (run --strict fails on them)</h2>
<ul class="findings">{{range .}}<li>{{clean .}}</li>{{end}}</ul>{{end}}
{{range .Groups}}
<h2>{{.Title}}</h2>
<table>
{{range .Findings}}<tr>
<td class="v"><span class="badge {{class .}}">{{.Label}}</span></td>
<td><code>{{$.R.Name .}}</code>
{{if .Message}}<div class="msg">{{clean .Message}}</div>{{end}}
<div class="must">MUST: {{.Rule.Must}}</div>
{{range .Evidence}}<details><summary>{{clean .Label}}</summary><pre>{{clean .Text}}</pre></details>{{end}}
</td>
</tr>{{end}}
</table>
{{end}}
</body>
</html>
`))

// WriteHTML writes the report as one self-contained HTML page (inline CSS,
// no scripts, no external assets): every rule grouped by phase with its
// verdict, MUST sentence, message and evidence. html/template escapes all
// text, so page-provided text cannot inject markup.
func (r *Report) WriteHTML(w io.Writer) error {
	return htmlReport.Execute(w, struct {
		R      *Report
		Groups []phaseGroup
	}{R: r, Groups: r.byPhase()})
}
