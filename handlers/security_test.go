package handlers

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"schedlab/solvers"
	"schedlab/solvers/eapm"
	"schedlab/store"
)

// request sends one request with the given headers and cookies and returns
// the response (body read) without following redirects.
func request(t testing.TB, method, u, ctype, body string, header map[string]string, cookies ...*http.Cookie) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	for _, c := range cookies {
		req.AddCookie(c)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

func TestPagesCarrySecurityHeadersAndNoInlineScript(t *testing.T) {
	a := newApp(t, "", 0)
	id := a.upload(t)
	run := a.startRun(t, `{"workload_id":"`+id+`","variant":"online"}`)
	request(t, http.MethodGet, a.URL+"/runs/"+run.ID, "", "", nil) // the report part is cached now
	resp, page := request(t, http.MethodGet, a.URL+"/runs/"+run.ID, "", "", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("run page: %d", resp.StatusCode)
	}
	h := resp.Header
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"frame-ancestors 'none'", "object-src 'none'", "default-src 'self'", "script-src 'self';"} {
		if !strings.Contains(csp, want) {
			t.Errorf("CSP %q lacks %s", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-inline'; style") || strings.Contains(csp, "nonce-") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("CSP lets inline or evaluated scripts run: %q", csp)
	}
	doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(page))
	doc.Find("script").Each(func(_ int, sc *goquery.Selection) {
		if _, external := sc.Attr("src"); !external {
			t.Errorf("an inline script: %.100s", sc.Text())
		}
	})
	if doc.Find("[data-chart-src]").Length() == 0 {
		t.Error("the run page draws no chart: the no-inline-script check tested nothing")
	}
	for k, want := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "same-origin"} {
		if h.Get(k) != want {
			t.Errorf("%s = %q, want %q", k, h.Get(k), want)
		}
	}
	// Errors carry the headers too.
	resp3, _ := request(t, http.MethodGet, a.URL+"/runs/nosuchrunx", "", "", nil)
	if resp3.StatusCode != http.StatusNotFound || resp3.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("404 page: %d, nosniff %q", resp3.StatusCode, resp3.Header.Get("X-Content-Type-Options"))
	}
}

func TestFormsCarryACSRFTokenAndPostsWithoutItAreRefused(t *testing.T) {
	a := newApp(t, "", 0)
	id := a.upload(t)
	run := a.startRun(t, `{"workload_id":"`+id+`","variant":"online"}`)

	// The page sets the cookie and writes the same token in every form.
	resp, page := request(t, http.MethodGet, a.URL+"/runs/"+run.ID, "", "", nil)
	var csrf *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "schedlab_csrf" {
			csrf = c
		}
	}
	if csrf == nil || !csrf.HttpOnly {
		t.Fatalf("no HttpOnly CSRF cookie set: %v", resp.Cookies())
	}
	doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(page))
	forms := doc.Find("form[method=post]")
	if forms.Length() == 0 {
		t.Fatal("the run page has no forms")
	}
	forms.Each(func(_ int, f *goquery.Selection) {
		if v, _ := f.Find("input[name=_csrf]").Attr("value"); v != csrf.Value {
			t.Errorf("form %s carries token %q, want the cookie's", f.AttrOr("action", "?"), v)
		}
	})

	del := a.URL + "/runs/" + run.ID + "/delete"
	form := "application/x-www-form-urlencoded"
	cases := []struct {
		name   string
		body   string
		header map[string]string
		cookie *http.Cookie
	}{
		{"no token", "", nil, csrf},
		{"wrong token", "_csrf=" + strings.Repeat("x", 43), nil, csrf},
		{"token without its cookie", "_csrf=" + csrf.Value, nil, nil},
		{"token from another origin", "_csrf=" + csrf.Value, map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, csrf},
	}
	for _, tc := range cases {
		var cookies []*http.Cookie
		if tc.cookie != nil {
			cookies = append(cookies, tc.cookie)
		}
		resp, b := request(t, http.MethodPost, del, form, tc.body, tc.header, cookies...)
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("%s: delete answered %d, want 403: %s", tc.name, resp.StatusCode, b)
		}
	}
	if _, err := a.store.GetRun(context.Background(), run.ID); err != nil {
		t.Fatalf("the run is gone after refused deletes: %v", err)
	}
	// The page's own form, as a browser sends it, works.
	resp, b := request(t, http.MethodPost, del, form, "_csrf="+url.QueryEscape(csrf.Value),
		map[string]string{"Origin": a.URL, "Sec-Fetch-Site": "same-origin"}, csrf)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("delete from the page: %d %s", resp.StatusCode, b)
	}
}

func TestAPIRefusesNonJSONAndCrossOriginChanges(t *testing.T) {
	a := newApp(t, "", 0)
	id := a.upload(t)
	body := `{"workload_id":"` + id + `","variant":"online"}`
	cases := []struct {
		name, ctype string
		header      map[string]string
		status      int
	}{
		{"text/plain (a cross-origin form can send it)", "text/plain", nil, http.StatusUnsupportedMediaType},
		{"form encoded", "application/x-www-form-urlencoded", nil, http.StatusUnsupportedMediaType},
		{"no content type", "", nil, http.StatusUnsupportedMediaType},
		{"JSON from another origin", "application/json", map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
	}
	for _, tc := range cases {
		resp, b := request(t, http.MethodPost, a.URL+"/api/runs", tc.ctype, body, tc.header)
		if resp.StatusCode != tc.status {
			t.Errorf("%s: %d, want %d: %s", tc.name, resp.StatusCode, tc.status, b)
		}
	}
	if n := a.countRuns(t); n != 0 {
		t.Errorf("%d runs stored by refused requests", n)
	}
	resp, b := request(t, http.MethodPost, a.URL+"/api/runs", "application/json; charset=utf-8", body, nil)
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("a JSON start from a script: %d %s", resp.StatusCode, b)
	}
}

func TestBodiesOverTheirLimitAreRefusedBeforeReading(t *testing.T) {
	a := newApp(t, "", 4<<10)
	big := "x=" + strings.Repeat("a", 2<<20)
	for _, path := range []string{"/runs", "/workloads/generate", "/reproduce"} {
		resp, b := request(t, http.MethodPost, a.URL+path, "application/x-www-form-urlencoded", big, nil)
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Errorf("%s with a 2 MiB form: %d, want 413: %.200s", path, resp.StatusCode, b)
		}
	}
	resp, b := request(t, http.MethodPost, a.URL+"/api/runs", "application/json", `{"params":{"x":"`+strings.Repeat("a", 2<<20)+`"}}`, nil)
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("/api/runs with a 2 MiB body: %d, want 413: %.200s", resp.StatusCode, b)
	}
}

// authApp is a server with accounts: alice and bob (users) and root
// (admin), each with an API token.
type authApp struct {
	*app
	tokens map[string]string
}

func newAuthApp(t *testing.T) *authApp {
	a := newAppOpt(t, "", Options{Auth: true}, []*solvers.Strategy{eapm.New()})
	aa := &authApp{app: a, tokens: map[string]string{}}
	ctx := context.Background()
	for _, u := range []struct {
		name  string
		admin bool
	}{{"alice", false}, {"bob", false}, {"root", true}} {
		if _, err := a.store.CreateUser(ctx, u.name, "password-of-"+u.name, u.admin); err != nil {
			t.Fatal(err)
		}
		tok, err := a.store.CreateToken(ctx, u.name, "test")
		if err != nil {
			t.Fatal(err)
		}
		aa.tokens[u.name] = tok
	}
	return aa
}

// as sends an API request as user ("" = anonymous).
func (aa *authApp) as(t *testing.T, user, method, path, body string) (int, []byte) {
	t.Helper()
	h := map[string]string{}
	if user != "" {
		h["Authorization"] = "Bearer " + aa.tokens[user]
	}
	ctype := ""
	if body != "" {
		ctype = "application/json"
	}
	resp, b := request(t, method, aa.URL+path, ctype, body, h)
	return resp.StatusCode, b
}

func TestAuthOwnersAloneChangeTheirRunsAndLinksStayReadable(t *testing.T) {
	aa := newAuthApp(t)
	gen := `{"strategy":"eapm","preset":"zhang2022-case1","params":{"instance":1},"seed":1}`

	// Anonymous changes are 401, and nothing is stored.
	if st, b := aa.as(t, "", http.MethodPost, "/api/workloads/generate", gen); st != http.StatusUnauthorized {
		t.Fatalf("anonymous generate: %d %s", st, b)
	}
	if n := aa.countWorkloads(t); n != 0 {
		t.Fatalf("%d workloads stored by an anonymous request", n)
	}
	if st, _ := aa.as(t, "", http.MethodGet, "/api/runs", ""); st != http.StatusUnauthorized {
		t.Errorf("anonymous list of runs: %d, want 401", st)
	}
	if st, _ := aa.as(t, "alice", http.MethodGet, "/api/runs", ""); st != http.StatusOK {
		t.Errorf("alice lists her runs: %d", st)
	}
	resp, _ := request(t, http.MethodGet, aa.URL+"/api/runs", "", "", map[string]string{"Authorization": "Bearer schedlab_forged"})
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("forged token: %d, want 401", resp.StatusCode)
	}

	// Alice generates a workload and runs it: both are hers.
	st, b := aa.as(t, "alice", http.MethodPost, "/api/workloads/generate", gen)
	if st != http.StatusCreated {
		t.Fatalf("alice generates: %d %s", st, b)
	}
	var w apiWorkload
	json.Unmarshal(b, &w)
	st, b = aa.as(t, "alice", http.MethodPost, "/api/runs", `{"workload_id":"`+w.ID+`","variant":"online"}`)
	if st != http.StatusCreated {
		t.Fatalf("alice starts a run: %d %s", st, b)
	}
	var run apiRun
	json.Unmarshal(b, &run)
	aa.waitRun(t, run.ID)
	stored, err := aa.store.GetRun(context.Background(), run.ID)
	if err != nil {
		t.Fatal(err)
	}
	alice, _ := aa.store.GetUserByName(context.Background(), "alice")
	if stored.Owner != alice.ID {
		t.Fatalf("run owner %q, want alice's id %q", stored.Owner, alice.ID)
	}

	// Anyone reads the link; only alice (or an admin) changes the run.
	if st, _ := aa.as(t, "", http.MethodGet, "/runs/"+run.ID, ""); st != http.StatusOK {
		t.Errorf("anonymous GET of the run's link: %d, want 200", st)
	}
	if st, _ := aa.as(t, "", http.MethodGet, "/api/runs/"+run.ID+"/report", ""); st != http.StatusOK {
		t.Errorf("anonymous GET of the report: %d, want 200", st)
	}
	for user, want := range map[string]int{"": 0, "bob": 0, "alice": 1, "root": 1} {
		_, page := aa.as(t, user, http.MethodGet, "/runs/"+run.ID, "")
		doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(page))
		if n := doc.Find(`form[action$="/delete"]`).Length(); n != want {
			t.Errorf("%q sees %d Delete buttons on alice's run, want %d", user, n, want)
		}
	}
	if st, _ := aa.as(t, "", http.MethodDelete, "/api/runs/"+run.ID, ""); st != http.StatusUnauthorized {
		t.Errorf("anonymous delete: %d, want 401", st)
	}
	if st, b := aa.as(t, "bob", http.MethodDelete, "/api/runs/"+run.ID, ""); st != http.StatusForbidden {
		t.Errorf("bob deletes alice's run: %d, want 403: %s", st, b)
	}
	if st, _ := aa.as(t, "bob", http.MethodPost, "/api/runs/"+run.ID+"/cancel", ""); st != http.StatusForbidden {
		t.Errorf("bob cancels alice's run: %d, want 403", st)
	}
	// Lists show one's own items only.
	_, b = aa.as(t, "bob", http.MethodGet, "/api/runs", "")
	var list []apiRun
	json.Unmarshal(b, &list)
	if len(list) != 0 {
		t.Errorf("bob's list shows %d runs of alice", len(list))
	}
	_, b = aa.as(t, "alice", http.MethodGet, "/api/runs", "")
	json.Unmarshal(b, &list)
	if len(list) != 1 || list[0].ID != run.ID {
		t.Errorf("alice's list: %+v, want her one run", list)
	}
	var wl []apiWorkload
	_, b = aa.as(t, "bob", http.MethodGet, "/api/workloads", "")
	json.Unmarshal(b, &wl)
	if len(wl) != 0 {
		t.Errorf("bob's workload list shows %d of alice's", len(wl))
	}
	_, b = aa.as(t, "alice", http.MethodGet, "/api/workloads", "")
	json.Unmarshal(b, &wl)
	if len(wl) != 1 || wl[0].ID != w.ID {
		t.Errorf("alice's workload list: %+v", wl)
	}
	if st, _ := aa.as(t, "", http.MethodGet, "/api/workloads", ""); st != http.StatusUnauthorized {
		t.Errorf("anonymous list of workloads: %d, want 401", st)
	}
	if st, b := aa.as(t, "root", http.MethodDelete, "/api/runs/"+run.ID, ""); st != http.StatusNoContent {
		t.Errorf("the admin deletes alice's run: %d %s", st, b)
	}
	if _, err := aa.store.GetRun(context.Background(), run.ID); err == nil {
		t.Error("the run survived the admin's delete")
	}
}

func TestAuthLoginSessionAndLogout(t *testing.T) {
	aa := newAuthApp(t)
	// A page form needs the CSRF cookie first, as a browser has it.
	resp, page := request(t, http.MethodGet, aa.URL+"/login?next=/runs", "", "", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("login page: %d", resp.StatusCode)
	}
	var csrf *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "schedlab_csrf" {
			csrf = c
		}
	}
	doc, _ := goquery.NewDocumentFromReader(bytes.NewReader(page))
	if v, _ := doc.Find("[data-testid=login-form] input[name=_csrf]").Attr("value"); csrf == nil || v != csrf.Value {
		t.Fatal("the login form does not carry the CSRF token")
	}
	form := "application/x-www-form-urlencoded"
	post := func(body string, cookies ...*http.Cookie) (*http.Response, []byte) {
		return request(t, http.MethodPost, aa.URL+"/login", form, body+"&_csrf="+url.QueryEscape(csrf.Value), nil, append(cookies, csrf)...)
	}
	resp, _ = post("name=alice&password=wrong-password&next=/runs")
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("wrong password: %d, want 401", resp.StatusCode)
	}
	resp, _ = post("name=nobody&password=wrong-password&next=/runs")
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("unknown user: %d, want 401", resp.StatusCode)
	}
	resp, _ = post("name=alice&password=password-of-alice&next=//evil.example/")
	var session *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "schedlab_session" {
			session = c
		}
	}
	if resp.StatusCode != http.StatusSeeOther || session == nil || !session.HttpOnly || session.SameSite != http.SameSiteLaxMode {
		t.Fatalf("login: %d, session cookie %+v", resp.StatusCode, session)
	}
	if loc := resp.Header.Get("Location"); loc != "/" {
		t.Errorf("login redirected to %q: an off-site next must become /", loc)
	}
	// Logged in, the page form starts a run of hers.
	st, b := aa.as(t, "alice", http.MethodPost, "/api/workloads/generate", `{"strategy":"eapm","preset":"zhang2022-case1","params":{"instance":1}}`)
	if st != http.StatusCreated {
		t.Fatalf("generate: %d %s", st, b)
	}
	var w apiWorkload
	json.Unmarshal(b, &w)
	resp, b = request(t, http.MethodPost, aa.URL+"/runs", form, "workload_id="+w.ID+"&variant=online&_csrf="+url.QueryEscape(csrf.Value), nil, csrf, session)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("start from the form with a session: %d %s", resp.StatusCode, b)
	}
	_, home := request(t, http.MethodGet, aa.URL+"/", "", "", nil, csrf, session)
	doc, _ = goquery.NewDocumentFromReader(bytes.NewReader(home))
	if doc.Find("[data-testid=account-name]").Text() != "alice" {
		t.Error("the page header does not show who is logged in")
	}
	if doc.Find("[data-testid=runs-table] tbody tr").Length() != 1 {
		t.Error("alice's home page does not list her run")
	}
	// Without the session the same form is 401, and nothing is stored.
	before := aa.countRuns(t)
	resp, _ = request(t, http.MethodPost, aa.URL+"/runs", form, "workload_id="+w.ID+"&_csrf="+url.QueryEscape(csrf.Value), nil, csrf)
	if resp.StatusCode != http.StatusUnauthorized || aa.countRuns(t) != before {
		t.Errorf("anonymous form start: %d, runs %d → %d", resp.StatusCode, before, aa.countRuns(t))
	}
	// Logging out ends the session on the server too.
	resp, _ = request(t, http.MethodPost, aa.URL+"/logout", form, "_csrf="+url.QueryEscape(csrf.Value), nil, csrf, session)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("logout: %d", resp.StatusCode)
	}
	if _, err := aa.store.SessionUser(context.Background(), session.Value); err == nil {
		t.Error("the session still works after logging out")
	}
}

func TestLocalPathKeepsRedirectsOnSite(t *testing.T) {
	for in, want := range map[string]string{
		"/runs":                 "/runs",
		"/runs/abc?x=1":         "/runs/abc?x=1",
		"":                      "/",
		"//evil.example/":       "/",
		"/\\evil.example":       "/",
		"https://evil.example/": "/",
		"runs":                  "/",
		"javascript:alert(1)":   "/",
	} {
		if got := localPath(in); got != want {
			t.Errorf("localPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestUserNamesAndPasswordsAreChecked(t *testing.T) {
	a := newApp(t, "", 0)
	ctx := context.Background()
	if _, err := a.store.CreateUser(ctx, "al ice", "long-enough", false); err == nil {
		t.Error("a name with a space was accepted")
	}
	if _, err := a.store.CreateUser(ctx, "alice", "short", false); err == nil {
		t.Error("a 5-byte password was accepted")
	}
	if _, err := a.store.CreateUser(ctx, "alice", "long-enough", false); err != nil {
		t.Fatal(err)
	}
	if _, err := a.store.CreateUser(ctx, "alice", "long-enough", false); err == nil {
		t.Error("a second alice was accepted")
	}
	if u, err := a.store.Authenticate(ctx, "alice", "long-enough"); err != nil || u.Name != "alice" {
		t.Errorf("authenticate: %v %v", u, err)
	}
	if _, err := a.store.CreateToken(ctx, "nobody", ""); err == nil {
		t.Error("a token for an unknown user was made")
	}
	tok, err := a.store.CreateToken(ctx, "alice", "")
	if err != nil || !strings.HasPrefix(tok, store.TokenPrefix) || len(tok) < 40 {
		t.Fatalf("token %q, %v", tok, err)
	}
	if u, err := a.store.TokenUser(ctx, tok); err != nil || u.Name != "alice" {
		t.Errorf("token user: %v %v", u, err)
	}
	if _, err := a.store.TokenUser(ctx, tok+"x"); err == nil {
		t.Error("an altered token was accepted")
	}
}
