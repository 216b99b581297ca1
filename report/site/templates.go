package site

import "html/template"

const head = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{template "title" .}}</title>
<link rel="stylesheet" href="{{template "root" .}}site.css">
</head>
<body>`

const runCell = `{{define "run"}}{{if .Href}}<a href="{{.Href}}">{{.ID}}</a>{{else}}{{.ID}}{{end}} <code>{{.Commit}}</code>{{end}}`

const changeTable = `{{define "changes"}}<table class="changes">
<tr><th>cell</th><th>unit</th><th>host</th><th>from</th><th>to</th><th>change</th><th>p</th><th>floor</th><th></th></tr>
{{range .}}<tr><td class="cell"><a href="{{.CellHref}}">{{.Cell}}</a></td><td>{{.Unit}}</td><td>{{.Host}}</td>
<td>{{template "run" .From}}</td><td>{{template "run" .To}}</td>
<td class="num {{.Verdict}}">{{.Change}}</td><td class="num">{{.P}}</td><td class="num">{{.Floor}}</td><td class="{{.Verdict}}">{{.Verdict}}</td></tr>
{{end}}</table>{{end}}`

var indexTmpl = template.Must(template.New("index").Parse(head + runCell + changeTable + `
{{define "title"}}Fastpath Lab: history{{end}}{{define "root"}}{{end}}
<h1>Fastpath Lab: runs over time</h1>
<p>Generated {{.Generated}} from the history store (<code>fplab history site</code>).
A change point is where a cell's figure moved, at p &lt; 0.001 and past the A/A floor of the runs either side (docs/history.md).</p>
<h2>Latest change points</h2>
{{if .Changes}}{{template "changes" .Changes}}{{else}}<p>None.</p>{{end}}
<h2>Hosts</h2>
<table><tr><th>host</th><th>arch</th><th>runs</th><th>fingerprint</th></tr>
{{range .Hosts}}<tr><td>{{.Hostname}}</td><td>{{.Arch}}</td><td class="num">{{.Runs}}</td><td><code>{{.Key}}</code></td></tr>
{{end}}</table>
<h2>Runs</h2>
<table><tr><th>run</th><th>host</th><th>started</th><th>reps</th><th>failed</th><th></th></tr>
{{range .Runs}}<tr><td>{{template "run" .Run}}</td><td>{{.Host}} ({{.Arch}})</td><td>{{.Started}}</td><td class="num">{{.Reps}}</td><td class="num">{{.Failed}}</td>
<td>{{if .Dirty}}dirty tree{{end}}{{if .Emulated}} emulated{{end}}</td></tr>
{{end}}</table>
<h2>Cells</h2>
<table><tr><th>cell</th><th>units</th><th>change points</th></tr>
{{range .Cells}}<tr><td class="cell"><a href="{{.Href}}">{{.Name}}</a></td><td class="num">{{.Units}}</td><td class="num">{{.Changes}}</td></tr>
{{end}}</table>
<script src="site.js"></script>
</body></html>
`))

var cellTmpl = template.Must(template.New("cell").Parse(head + runCell + changeTable + `
{{define "title"}}{{.Cell}}{{end}}{{define "root"}}../{{end}}
<nav><a href="../index.html">history</a></nav>
<h1 class="cell">{{.Cell}}</h1>
<p>Generated {{.Generated}}. Each chart: the median of every run of this cell on one unit, a line per host, in commit order; a dashed line marks a change point.</p>
{{range .Units}}
<h2 id="{{.Unit}}">{{.Unit}}</h2>
<p class="legend">{{range $i, $h := .Hosts}}<span class="host-{{$i}}">&#9632; {{$h}}</span>{{end}}</p>
<div class="chart" data-series="{{.Series}}"></div>
{{if .Changes}}{{template "changes" .Changes}}{{end}}
<details><summary>{{len .Points}} runs</summary>
<table><tr><th>host</th><th>run</th><th>median</th><th>±</th><th>n</th><th>A/A floor</th></tr>
{{range .Points}}<tr><td>{{.Host}}</td><td>{{template "run" .Run}}{{if .Dirty}} (dirty){{end}}</td><td class="num">{{.Median}}</td><td class="num">{{.CI}}</td><td class="num">{{.N}}</td><td class="num">{{.Floor}}</td></tr>
{{end}}</table></details>
{{end}}
<script src="../site.js"></script>
</body></html>
`))
