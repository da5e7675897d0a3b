// Package handlers is schedlab's HTTP layer: the HTML pages and the JSON API,
// all routes in routes.go. Handlers parse the request, call the store, the
// runner or a strategy, and render; they hold no scheduling logic.
//
// Errors: every error carries an errs.Kind, which errorHandler maps to a
// status code (Invalid 400, NotFound 404, Conflict 409, TooLarge 413,
// Canceled 409, anything else 500) and renders as JSON {error, field} for
// /api/ paths and JSON-accepting clients, as an HTML page otherwise. Forms
// that fail are shown again with the message above them.
//
// Pages are rendered into a buffer first, so a template error never sends
// half a page.
package handlers
