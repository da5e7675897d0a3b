package views

import "context"

// Viewer is who looks at a page, as the handlers found out: whether the
// server has accounts, the logged-in user (empty when none), and the CSRF
// token every state-changing form must carry. Handlers put it in the
// request's context; pages read it with viewerOf.
type Viewer struct {
	Auth  bool   // the server runs with --auth
	ID    string // the logged-in user's ID, "" when anonymous
	Name  string // the logged-in user, "" when anonymous
	Admin bool
	CSRF  string // the value of the _csrf form field
}

type viewerKey struct{}

// WithViewer returns ctx carrying v.
func WithViewer(ctx context.Context, v Viewer) context.Context {
	return context.WithValue(ctx, viewerKey{}, v)
}

// viewerOf returns the Viewer of ctx (the zero Viewer when none).
func viewerOf(ctx context.Context) Viewer {
	v, _ := ctx.Value(viewerKey{}).(Viewer)
	return v
}

// CSRFField is the name of the hidden form field holding the CSRF token.
const CSRFField = "_csrf"

// mayStart says whether the page's viewer may start runs and store
// workloads: always on a server without accounts, logged in with them.
func mayStart(ctx context.Context) bool {
	v := viewerOf(ctx)
	return !v.Auth || v.ID != ""
}

// mayChange says whether the page's viewer may cancel, re-run or delete
// something owned by owner: always without accounts; with them, its owner
// or an admin. The server checks again; this only hides the buttons.
func mayChange(ctx context.Context, owner string) bool {
	v := viewerOf(ctx)
	return !v.Auth || (v.ID != "" && (v.Admin || v.ID == owner))
}

// ParamPrefix starts the form field of every parameter: "p.gamma". The
// forms' own fields (strategy, variant, workload_id, seed, ...) have no
// prefix, so a parameter may have any name without colliding with them.
const ParamPrefix = "p."

// ParamField is the form field of parameter name.
func ParamField(name string) string { return ParamPrefix + name }

// problemOf is the message of the problem about field, "" when none.
func problemOf(list []FormError, field string) string {
	for _, e := range list {
		if e.Field == field {
			return e.Message
		}
	}
	return ""
}
