// Package handlers is schedlab's HTTP layer: the HTML pages and the JSON API,
// all routes in routes.go. Handlers parse the request, call the store, the
// runner or a strategy, and render; they hold no scheduling logic. An
// experiment is made by the experiment service (package service): POST
// /api/experiments and the sweep form parse a definition (the form fills
// sweep.Definition from its fields with sweep.ParseValues, no JSON
// in between) and call service.Start; the form's live count, estimate
// and JSON come from POST /experiments/preview, which reads the fields
// the same way. No handler function is over 60 lines.
//
// Handlers reach the store and the runner through interfaces (Store,
// Runner): each page file declares the methods it calls (issue 44 item
// 3, after Nomad's narrow State interfaces), so the tests of pages that
// need no SQL run over an in-memory fake (fake_test.go), held to the
// store by TestFakeStoreAnswersAsTheStore; the tests over SQLite are the
// integration suite.
//
// Errors: every error carries an errs.Kind, which errorHandler maps to a
// status code (statusOf) and renders as JSON {error, field, problems} for
// /api/ paths and JSON-accepting clients, as an HTML page otherwise. Forms
// that fail are shown again with every problem beside its field (issue
// 42): a refused upload keeps the Name as typed (a browser keeps no file
// input's choice), a file of a known binary format is named for what it
// is (binaryFormats), the generate form reports the preset's rules across
// parameters with the parameters' own limits.
//
// Pages are rendered into a buffer first, so a template error never sends
// half a page; chart data and reports are compressed once, in the pages
// cache (pagecache.go). An experiment's page reads its runs through a
// snapshot kept until its runs change (expsnap.go).
//
// Every request passes, in this order, the middleware of security.go:
// secureHeaders (CSP, no framing), limitBody (--max-upload-mb for uploads
// and bundle imports, 1 MiB for the rest), crossOrigin (Go's
// http.CrossOriginProtection), identify (token or session, with --auth)
// and guard (a page's change carries its form's CSRF token; an API change
// is JSON, multipart for the upload or application/gzip for a bundle
// import, 415 otherwise; with --auth a change needs a user).
//
// Experiment bundles (bundle.go): the download streams bundle.Export to the
// response, so a refusal before its first byte is an ordinary error answer
// and a failure after it aborts the connection; an import is spooled to a
// temporary file, never read from the network inside the store's
// transaction, and refused when this build lacks the experiment's strategy.
//
// Ownership (--auth): workloads and runs record their owner; only the
// owner or an admin may cancel, re-run or delete a run (403); lists show the
// user's own items; a run's page and report are readable by anyone with
// the link.
package handlers
