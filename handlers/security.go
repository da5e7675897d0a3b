package handlers

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"schedlab/bundle"
	"schedlab/errs"
	"schedlab/store"
	"schedlab/views"
)

// accountsStore is what logins, sessions and API tokens need (*store.Store).
type accountsStore interface {
	Authenticate(ctx context.Context, name, password string) (*store.User, error)
	CreateSession(ctx context.Context, userID string) (string, error)
	DeleteSession(ctx context.Context, value string) error
	SessionUser(ctx context.Context, value string) (*store.User, error)
	TokenUser(ctx context.Context, token string) (*store.User, error)
}

// Cookie names.
const (
	sessionCookie = "schedlab_session"
	csrfCookie    = "schedlab_csrf"
)

// maxFormBody is the largest body of every request but an upload: forms
// and JSON requests are a few KiB; 1 MiB leaves room for long parameter
// lists and refuses a flood before it is read.
const maxFormBody = 1 << 20

// userKey is the echo context key of the logged-in *store.User.
const userKey = "schedlab.user"

// randomToken returns n random bytes as base64url.
func randomToken(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// secureHeaders sets the response headers every answer carries.
//
//   - Content-Security-Policy: scripts only from this server's files
//     (/static, /charts.js): pages hold no inline script (charts fetch
//     their data, static/app.js draws them); no plugins; no framing
//     (frame-ancestors 'none': the run page's Delete button cannot be
//     clicked through a transparent frame); forms post only here. Inline
//     style attributes stay allowed ('unsafe-inline' for styles): they
//     carry layout only (a progress bar's width, a chart's height) and
//     cannot run code.
//   - X-Content-Type-Options: nosniff, so an uploaded workload served back
//     as JSON is never run as a script; X-Frame-Options: DENY for browsers
//     that predate frame-ancestors; Referrer-Policy: same-origin, so a
//     run's unguessable link does not leak to other sites.
func secureHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; "+
			"style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; "+
			"base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		return next(c)
	}
}

// unsafeMethod reports whether a request may change state (RFC 9110 §9.2.1).
func unsafeMethod(m string) bool {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return false
	}
	return true
}

// isUpload reports whether a request is a workload upload or an
// experiment bundle import, whose body may be as large as --max-upload-mb.
func isUpload(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	switch r.URL.Path {
	case "/workloads", "/api/workloads", "/experiments/import", bundleImportPath:
		return true
	}
	return false
}

// bundleImportPath takes a bundle file as its body, application/gzip:
// like JSON, a type no cross-origin form can send without a preflight.
const bundleImportPath = "/api/experiments/import"

// limitBody caps every request body before anything reads it: uploads at
// maxUpload, everything else at maxFormBody. A declared length over the
// cap is refused at once (413), before the body is read.
func (s *Server) limitBody(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		limit, field := int64(maxFormBody), "body"
		if isUpload(r) {
			limit, field = s.maxUpload, "file"
		}
		if r.ContentLength > limit {
			return tooLarge(field, limit)
		}
		if r.Body != nil {
			r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
		}
		return next(c)
	}
}

func tooLarge(field string, limit int64) error {
	what := "request body"
	if field == "file" {
		what = "upload"
	}
	if limit >= 1<<20 {
		return errs.New(errs.TooLarge, field, "%s is larger than the limit of %d MiB", what, limit>>20)
	}
	return errs.New(errs.TooLarge, field, "%s is larger than the limit of %d KiB", what, limit>>10)
}

// formErr turns an error reading a form body into the error a user reads:
// a body over its limit is 413, anything else a malformed form.
func formErr(err error) error {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		return tooLarge("body", tooBig.Limit)
	}
	return errs.Invalidf("form", "cannot read the form: %v", err)
}

// crossOrigin refuses state-changing requests that a browser sent from
// another origin (Sec-Fetch-Site, or Origin against Host: Go's
// http.CrossOriginProtection). Requests without those headers come from
// programs, not browsers, and pass; pages are protected again by their
// CSRF token, the API by its JSON content type.
func crossOrigin() echo.MiddlewareFunc {
	cop := http.NewCrossOriginProtection()
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if err := cop.Check(c.Request()); err != nil {
				return errs.New(errs.Forbidden, "origin", "cross-origin request refused: changes are accepted only from schedlab's own pages")
			}
			return next(c)
		}
	}
}

// identify finds who sends the request: an API token (Authorization:
// Bearer) or a session cookie, on a server with accounts. A wrong token is
// 401 at once (a script should learn its token is bad, not be treated as
// anonymous); a stale session cookie is dropped. It also makes sure the
// browser has a CSRF cookie and puts the Viewer in the request's context
// for the pages.
func (s *Server) identify(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		ctx := r.Context()
		var user *store.User
		if s.auth {
			if h := r.Header.Get(echo.HeaderAuthorization); h != "" {
				tok, ok := strings.CutPrefix(h, "Bearer ")
				if !ok {
					return errs.New(errs.Unauthenticated, "authorization", "expected \"Authorization: Bearer TOKEN\" (make one with `schedlab token add NAME`)")
				}
				u, err := s.store.TokenUser(ctx, strings.TrimSpace(tok))
				if errs.Is(err, errs.NotFound) {
					return errs.New(errs.Unauthenticated, "authorization", "unknown API token")
				}
				if err != nil {
					return err
				}
				user = u
			} else if ck, err := r.Cookie(sessionCookie); err == nil {
				u, err := s.store.SessionUser(ctx, ck.Value)
				switch {
				case err == nil:
					user = u
				case errs.Is(err, errs.NotFound):
					s.setCookie(c, sessionCookie, "", -1)
				default:
					return err
				}
			}
		}
		if user != nil {
			c.Set(userKey, user)
		}
		token := ""
		if ck, err := r.Cookie(csrfCookie); err == nil && len(ck.Value) >= 32 {
			token = ck.Value
		} else {
			token = randomToken(32)
			s.setCookie(c, csrfCookie, token, 0)
		}
		c.Set(csrfCookie, token)
		v := views.Viewer{Auth: s.auth, CSRF: token}
		if user != nil {
			v.ID, v.Name, v.Admin = user.ID, user.Name, user.Admin
		}
		c.SetRequest(r.WithContext(views.WithViewer(ctx, v)))
		return next(c)
	}
}

// setCookie sets an HttpOnly, SameSite=Lax cookie for the whole site;
// maxAge < 0 deletes it, 0 makes it last the browser session. Lax keeps a
// logged-in user logged in when they open a shared link from elsewhere;
// cross-site posts carry no cookie.
func (s *Server) setCookie(c echo.Context, name, value string, maxAge int) {
	ck := &http.Cookie{Name: name, Value: value, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode,
		Secure: c.Request().TLS != nil, MaxAge: maxAge}
	if maxAge > 0 {
		ck.Expires = time.Now().Add(time.Duration(maxAge) * time.Second)
	}
	c.SetCookie(ck)
}

// guard enforces, for every state-changing request, what it needs:
//   - pages (not /api/): the form's CSRF token equals the CSRF cookie
//     (double submit; the cookie is HttpOnly and another origin can read
//     neither it nor the page);
//   - the API: a JSON body (application/json), or multipart for the
//     upload; text/plain and form bodies, which a page on another origin
//     can send without asking, are refused (415);
//   - with accounts, a logged-in user or an API token (401), except to
//     log in.
func (s *Server) guard(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if !unsafeMethod(r.Method) {
			return next(c)
		}
		api := strings.HasPrefix(r.URL.Path, "/api/")
		if api {
			if err := checkContentType(r); err != nil {
				return err
			}
		} else {
			want, _ := c.Get(csrfCookie).(string)
			got := r.Header.Get("X-CSRF-Token")
			if got == "" {
				v, err := formValue(c, views.CSRFField)
				if err != nil {
					return err
				}
				got = v
			}
			if got == "" || want == "" || subtle.ConstantTimeCompare([]byte(got), []byte(want)) != 1 {
				return errs.New(errs.Forbidden, views.CSRFField, "the form's security token is missing or stale: reload the page and submit again")
			}
		}
		if s.auth && currentUser(c) == nil && r.URL.Path != "/login" {
			return errs.New(errs.Unauthenticated, "login", "log in first: this server keeps runs by account")
		}
		return next(c)
	}
}

// formValue reads one field of a url-encoded or multipart form body.
func formValue(c echo.Context, name string) (string, error) {
	r := c.Request()
	ct, _, _ := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	var err error
	if ct == echo.MIMEMultipartForm {
		err = r.ParseMultipartForm(8 << 20)
	} else {
		err = r.ParseForm()
	}
	if err != nil {
		return "", formErr(err)
	}
	return r.FormValue(name), nil
}

// checkContentType accepts an API request without a body, a JSON body,
// or a multipart body on the upload route.
func checkContentType(r *http.Request) error {
	if r.ContentLength == 0 && len(r.TransferEncoding) == 0 {
		return nil
	}
	ct, _, err := mime.ParseMediaType(r.Header.Get(echo.HeaderContentType))
	if err == nil && (ct == echo.MIMEApplicationJSON || (ct == echo.MIMEMultipartForm && isUpload(r) && r.URL.Path != bundleImportPath) ||
		(isYAML(ct) && r.URL.Path == "/api/experiments") ||
		(ct == bundle.MediaType && r.URL.Path == bundleImportPath)) {
		return nil
	}
	want := "application/json"
	switch {
	case r.URL.Path == bundleImportPath:
		want = bundle.MediaType + " (a " + bundle.FileSuffix + " file)"
	case isUpload(r):
		want = "multipart/form-data"
	}
	return echo.NewHTTPError(http.StatusUnsupportedMediaType, "Content-Type must be "+want+", got "+quoteOrNone(r.Header.Get(echo.HeaderContentType)))
}

// isYAML reports whether a media type is YAML, which an experiment
// definition may be sent as. None of these is a type a cross-origin form
// can send without a preflight.
func isYAML(ct string) bool {
	return ct == "application/yaml" || ct == "application/x-yaml" || ct == "text/yaml"
}

func quoteOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return `"` + s + `"`
}

// currentUser returns the logged-in user, nil when anonymous or on a
// server without accounts.
func currentUser(c echo.Context) *store.User {
	u, _ := c.Get(userKey).(*store.User)
	return u
}

// ownerID is the owner recorded on what the request creates: the user's
// ID, empty without accounts.
func ownerID(c echo.Context) string {
	if u := currentUser(c); u != nil {
		return u.ID
	}
	return ""
}

// listOwner says whose items a list shows: everybody's without accounts
// (""), the user's own with them; ok is false for an anonymous visitor of a
// server with accounts, who is shown no list.
func (s *Server) listOwner(c echo.Context) (owner string, ok bool) {
	if !s.auth {
		return "", true
	}
	if u := currentUser(c); u != nil {
		return u.ID, true
	}
	return "", false
}

// mayChange checks that the request's user may cancel, re-run or delete
// something owned by owner: anybody without accounts; with accounts, its
// owner or an admin.
func (s *Server) mayChange(c echo.Context, owner, what string) error {
	if !s.auth {
		return nil
	}
	u := currentUser(c)
	switch {
	case u == nil:
		return errs.New(errs.Unauthenticated, "login", "log in first")
	case u.Admin || u.ID == owner:
		return nil
	}
	return errs.New(errs.Forbidden, "id", "%s belongs to another user: only its owner or an admin may change it", what)
}

// Pages of accounts.

func (s *Server) loginPage(c echo.Context) error {
	if !s.auth {
		return errs.New(errs.NotFound, "login", "this server has no accounts (start it with --auth)")
	}
	return s.render(c, http.StatusOK, views.Login(localPath(c.QueryParam("next")), nil))
}

func (s *Server) login(c echo.Context) error {
	if !s.auth {
		return errs.New(errs.NotFound, "login", "this server has no accounts (start it with --auth)")
	}
	next := localPath(c.FormValue("next"))
	name := c.FormValue("name")
	release, err := s.logins.admit(c.Request().Context(), accountKey(name), clientAddress(c.Request()))
	var many *tooMany
	if errors.As(err, &many) {
		c.Response().Header().Set("Retry-After", many.retryAfter())
		return s.render(c, http.StatusTooManyRequests, views.Login(next, &views.FormError{Message: many.msg}))
	}
	if err != nil {
		return err
	}
	u, err := s.store.Authenticate(c.Request().Context(), name, c.FormValue("password"))
	release(err)
	if err != nil {
		if errs.KindOf(err) != errs.Invalid {
			return err
		}
		return s.render(c, http.StatusUnauthorized, views.Login(next, &views.FormError{Message: messageOf(err)}))
	}
	value, err := s.store.CreateSession(c.Request().Context(), u.ID)
	if err != nil {
		return err
	}
	s.setCookie(c, sessionCookie, value, int(store.SessionTTL/time.Second))
	return c.Redirect(http.StatusSeeOther, next)
}

func (s *Server) logout(c echo.Context) error {
	if ck, err := c.Request().Cookie(sessionCookie); err == nil {
		if err := s.store.DeleteSession(c.Request().Context(), ck.Value); err != nil {
			return err
		}
	}
	s.setCookie(c, sessionCookie, "", -1)
	return c.Redirect(http.StatusSeeOther, "/")
}

// localPath keeps a redirect target on this site: a path starting with one
// slash, or "/".
func localPath(p string) string {
	u, err := url.Parse(p)
	if err != nil || p == "" || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") ||
		u.Scheme != "" || u.Host != "" {
		return "/"
	}
	return p
}
