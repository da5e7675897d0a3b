// Package e2e drives the whole application in a real browser: Debian's
// headless chromium through chromedp, against a server on a loopback port
// with a fresh SQLite file. Outside CI the test skips, saying why, when no
// chromium is installed; with SCHEDLAB_REQUIRE_BROWSER=1 (set by .ci/run) a
// missing browser fails it instead.
package e2e
