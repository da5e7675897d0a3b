// Package e2e drives the whole application in a real browser: Debian's
// headless chromium through chromedp, against a server on a loopback port
// with a fresh SQLite file. One Chromium serves every test (TestMain starts
// it), each test in a browser context of its own, in parallel. Outside CI,
// without chromium installed, the package says so on stderr and runs no
// test ("[no tests to run]" on go test's line for it); with
// SCHEDLAB_REQUIRE_BROWSER=1 (set by .ci/run) a missing browser fails it.
package e2e
