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
// status code (Invalid 400, Unauthenticated 401, Forbidden 403, NotFound
// 404, Conflict 409, TooLarge 413, Canceled 409, anything else 500) and renders as JSON {error, field} for
// /api/ paths and JSON-accepting clients, as an HTML page otherwise. Forms
// that fail are shown again with the message above them.
//
// Pages are rendered into a buffer first, so a template error never sends
// half a page, and compressed by echo's gzip middleware; chart data and
// reports are compressed once, in the pages cache (pagecache.go).
//
// An experiment's page reads all its runs once: a snapshot (expsnap.go)
// keeps its results, declarations, workers, Cite data and each view's
// analysis and run list until the next of its runs changes, and is then
// brought up to date with the runs that changed (the store finds them by
// the experiment's version), so a page of 100,000 runs costs
// milliseconds when nothing changed and about a tenth of a second after
// a run ended (bench/README.md, "experiments"); the charts of an
// experiment that is not done are refused before anything is read.
//
// # What every request passes (security.go, in this order)
//
//   - secureHeaders: CSP with scripts from this server's files only (pages
//     hold no inline script: charts fetch their data, pagecache.go),
//     frame-ancestors 'none', nosniff, Referrer-Policy same-origin.
//   - limitBody: uploads (workloads, experiment bundles) are capped at
//     --max-upload-mb, every other body at
//     1 MiB, before anything reads them; a declared length over the cap is
//     413 at once.
//   - crossOrigin: Go's http.CrossOriginProtection refuses state-changing
//     requests a browser sends from another origin (Sec-Fetch-Site, Origin).
//   - identify: with --auth, an API token (Authorization: Bearer) or a
//     session cookie names the user; a CSRF cookie is set for the forms.
//   - guard: a page's change must carry the CSRF token of its form (double
//     submit against the HttpOnly cookie); an API change must be JSON
//     (multipart for the upload, application/gzip for a bundle import), 415
//     otherwise, so a cross-origin text/plain post is refused; with --auth
//     a change needs a user (401).
//
// Experiment bundles (bundle.go): the download streams bundle.Export (the
// store's typed snapshot in the bundle format) to the response, its headers set on the first byte, so a refusal before
// it (unknown, unfinished) is an ordinary error answer and a failure after
// it aborts the connection; an import is spooled to a temporary file (the
// API body) or read from the parsed form, never from the network inside
// the store's transaction, capped at --max-upload-mb decompressed, and
// refused when this build lacks the experiment's strategy; the importing
// user owns what it stores.
//
// Forms sent back (issue 42): a refused upload shows its form again with
// the Name as typed (a browser keeps no file input's choice); a file of a
// known binary format (PNG, JPEG, GIF, PDF, ZIP, gzip, ..., told by its
// published leading bytes, binaryFormats) whose upload failed to parse is
// named for what it is ("etc.csv: this is a PDF document, not text"),
// except gzip where the field takes .gz (an SWF trace, Upload.Accept),
// whose content the parser judged; the generate form reports every
// problem at once, the preset's rules across parameters (solvers.Checker,
// through Strategy.EstimateGenerate) beside the parameters' own limits. Run lists
// show, per strategy, kind and variant of the listed runs, the parameters
// whose values differ between them at their value, default or not
// (views.VaryingParams), beside those changed from the defaults.
//
// Ownership (--auth): workloads and runs record their owner; only the
// owner or an admin may cancel, re-run or delete a run (403); lists show the
// user's own items; a run's page and report are readable by anyone with
// the link.
package handlers
