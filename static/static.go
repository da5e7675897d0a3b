// Package static holds the browser assets schedlab serves under /static:
// the stylesheet, the page script and the vendored ECharts build. They are
// embedded so the binary works offline; README.md records where each
// third-party file came from, its version and its sha256.
package static

import "embed"

// FS holds every *.js, *.css and *.svg file of this directory, at its base name
// (e.g. "echarts.min.js").
//
//go:embed *.js *.css *.svg
var FS embed.FS
