package notify

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// loopbackAllowed lets the tests' local receivers (httptest, 127.0.0.1)
// be reached, as `--notify-allow 127.0.0.0/8` would.
var loopbackAllowed = Guard{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}

// stubResolver answers each host from a table; an unknown host is an
// error (a test never asks the system's resolver through it).
type stubResolver map[string][]string

func (r stubResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	ss, ok := r[host]
	if !ok {
		return nil, errors.New("stub resolver: no such host " + host)
	}
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

// stubDial records every address it is asked to connect to and connects
// only the ones of its route table (a "public" address to a local test
// server); any other address is an error, never a connection.
type stubDial struct {
	mu     sync.Mutex
	route  map[string]string // "203.0.113.10:80" -> "127.0.0.1:41234"
	dialed []string
}

func (d *stubDial) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	d.mu.Lock()
	d.dialed = append(d.dialed, addr)
	to, ok := d.route[addr]
	d.mu.Unlock()
	if !ok {
		return nil, errors.New("stub dial: no route to " + addr)
	}
	var nd net.Dialer
	return nd.DialContext(ctx, network, to)
}

func (d *stubDial) calls() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.dialed...)
}

// counting is a local server that counts the requests it gets.
func counting(t *testing.T, h http.HandlerFunc) (*httptest.Server, *atomic.Int32) {
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		if h != nil {
			h(w, r)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

// TestGuardNamesInternalAddresses: every internal kind is refused with an
// error naming the address and its kind, also written as an IPv4-mapped
// or NAT64 IPv6 address; public addresses pass; an allowed network lets
// its addresses through and no other.
func TestGuardNamesInternalAddresses(t *testing.T) {
	refused := map[string]string{
		"127.0.0.1": "loopback", "127.0.0.2": "loopback", "::1": "loopback", "::ffff:127.0.0.1": "loopback",
		"10.1.2.3": "private", "172.16.0.1": "private", "192.168.1.1": "private", "fd00::1": "private",
		"169.254.169.254": "link-local", "fe80::1": "link-local",
		"0.0.0.0": "unspecified", "::": "unspecified",
		"224.0.0.1": "multicast", "239.1.1.1": "multicast", "ff02::1": "multicast",
		"100.64.0.1": "carrier-grade NAT", "255.255.255.255": "reserved",
		"64:ff9b::7f00:1": "loopback (through NAT64)", "2002:a00:1::1": "private (through 6to4)",
	}
	var g Guard
	for s, kind := range refused {
		err := g.Check(netip.MustParseAddr(s))
		if !errors.Is(err, ErrInternal) || !strings.Contains(err.Error(), kind) || !strings.Contains(err.Error(), "--notify-allow") {
			t.Errorf("Check(%s) = %v, want refused as %s, naming --notify-allow", s, err, kind)
		}
	}
	for _, s := range []string{"fe80::1%eth0", "ff02::1%lo"} {
		if err := g.Check(netip.MustParseAddr(s)); !errors.Is(err, ErrInternal) {
			t.Errorf("Check(%s) = %v, want a zoned internal address refused", s, err)
		}
	}
	for _, s := range []string{"8.8.8.8", "1.1.1.1", "2001:4860:4860::8888", "172.32.0.1", "192.169.0.1", "::ffff:8.8.8.8"} {
		if err := g.Check(netip.MustParseAddr(s)); err != nil {
			t.Errorf("Check(%s) = %v, want a public address allowed", s, err)
		}
	}
	allow, err := ParseAllow([]string{"10.1.0.0/16,fd00::/8", " 192.168.7.7 "})
	if err != nil {
		t.Fatal(err)
	}
	g = Guard{Allow: allow}
	for _, s := range []string{"10.1.200.3", "fd00::5", "192.168.7.7"} {
		if err := g.Check(netip.MustParseAddr(s)); err != nil {
			t.Errorf("allowed %v: Check(%s) = %v", allow, s, err)
		}
	}
	for _, s := range []string{"10.2.0.1", "192.168.7.8", "127.0.0.1"} {
		if err := g.Check(netip.MustParseAddr(s)); !errors.Is(err, ErrInternal) {
			t.Errorf("allowed %v: Check(%s) = %v, want refused", allow, s, err)
		}
	}
	for _, bad := range []string{"10.0.0.0/33", "lab-net", "10.0.0.0/8;rm"} {
		if _, err := ParseAllow([]string{bad}); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("ParseAllow(%q) = %v, want an error naming it", bad, err)
		}
	}
}

// TestPostRefusesInternalAddressesAtConnectionTime: the literal loopback
// URLs, "localhost", and names a resolver answers with loopback, private,
// link-local, unspecified or multicast addresses are all refused before a
// connection is made: the local server gets nothing and the stub dial
// is never asked for the internal address. A refusal is not retried.
func TestPostRefusesInternalAddressesAtConnectionTime(t *testing.T) {
	srv, hits := counting(t, nil)
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	ps := ":" + strconv.Itoa(port)
	ctx := context.Background()
	b := Body{ID: "e1", Status: "done"}

	// The system's resolver and dialer, to a real local server: 127.0.0.1,
	// 127.0.0.2, [::1], localhost and 0.0.0.0 reach this host.
	p := Poster{Attempts: 3}
	for _, u := range []string{"http://127.0.0.1" + ps + "/api", "http://127.0.0.2" + ps + "/", "http://[::1]" + ps + "/",
		"http://localhost" + ps + "/", "http://0.0.0.0" + ps + "/", "http://[::ffff:127.0.0.1]" + ps + "/"} {
		err := p.Post(ctx, u, b)
		if !errors.Is(err, ErrInternal) || !strings.Contains(err.Error(), "attempt 1 of 3") {
			t.Errorf("Post(%s) = %v, want refused at the first attempt as internal", u, err)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the local server got %d requests, want none", n)
	}

	// A stub resolver answers internal addresses of every kind for DNS
	// names; the stub dial would refuse anything but is never asked.
	res := stubResolver{
		"loop.example": {"127.0.0.1"}, "six.example": {"::1"}, "lan.example": {"10.0.0.7"},
		"home.example": {"192.168.0.1"}, "meta.example": {"169.254.169.254"}, "ll6.example": {"fe80::1"},
		"zero.example": {"0.0.0.0"}, "mc.example": {"224.0.0.251"}, "ula.example": {"fd12::1"},
	}
	d := &stubDial{}
	p = Poster{Attempts: 1, Resolver: res, Dial: d.dial}
	for host, addrs := range res {
		err := p.Post(ctx, "http://"+host+"/hook", b)
		if !errors.Is(err, ErrInternal) || !strings.Contains(err.Error(), addrs[0]) {
			t.Errorf("Post to %s (%s) = %v, want refused naming the address", host, addrs[0], err)
		}
	}
	if c := d.calls(); len(c) != 0 {
		t.Errorf("internal addresses were dialed: %v", c)
	}
}

// TestPostFollowsNoRedirectInside: a public webhook (a stub address the
// stub dial takes to a local server) that redirects to a loopback URL, or
// to a name that resolves to a private address, is refused at the
// redirect: the internal server gets nothing.
func TestPostFollowsNoRedirectInside(t *testing.T) {
	inside, insideHits := counting(t, nil)
	outside, outsideHits := counting(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-loopback":
			http.Redirect(w, r, inside.URL+"/secret", http.StatusFound)
		case "/to-name":
			http.Redirect(w, r, "http://rebind.example/secret", http.StatusTemporaryRedirect)
		case "/to-public":
			http.Redirect(w, r, "http://hooks.example/landed", http.StatusFound)
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
	res := stubResolver{"hooks.example": {"203.0.113.10"}, "rebind.example": {"10.9.9.9"}}
	d := &stubDial{route: map[string]string{"203.0.113.10:80": outside.Listener.Addr().String()}}
	p := Poster{Attempts: 1, Resolver: res, Dial: d.dial}
	ctx := context.Background()
	for _, path := range []string{"/to-loopback", "/to-name"} {
		err := p.Post(ctx, "http://hooks.example"+path, Body{ID: "e1"})
		if !errors.Is(err, ErrInternal) {
			t.Errorf("redirect %s: %v, want refused as internal", path, err)
		}
	}
	if n := insideHits.Load(); n != 0 {
		t.Errorf("the internal server got %d requests through redirects", n)
	}
	if n := outsideHits.Load(); n != 2 {
		t.Errorf("the public server got %d requests, want the 2 that redirected", n)
	}
	// A redirect that stays public is followed and delivers.
	if err := p.Post(ctx, "http://hooks.example/to-public", Body{ID: "e1"}); err != nil {
		t.Errorf("public redirect: %v, want delivered", err)
	}
	for _, a := range d.calls() {
		if a != "203.0.113.10:80" {
			t.Errorf("dialed %s: only the public address may be", a)
		}
	}
}

// TestPostDeliversToPublicAndAllowedAddresses: a public URL is delivered
// (a stub resolver gives a public address, the stub dial takes it to a
// local server); a name answering a public and an internal address is
// connected to the public one only (rebinding within one answer); and
// --notify-allow 127.0.0.0/8 lets a loopback receiver be reached.
func TestPostDeliversToPublicAndAllowedAddresses(t *testing.T) {
	srv, hits := counting(t, nil)
	res := stubResolver{"hooks.example": {"203.0.113.10"}, "mixed.example": {"127.0.0.1", "198.51.100.7"}}
	d := &stubDial{route: map[string]string{
		"203.0.113.10:80":  srv.Listener.Addr().String(),
		"198.51.100.7:443": srv.Listener.Addr().String(),
	}}
	p := Poster{Attempts: 1, Resolver: res, Dial: d.dial}
	ctx := context.Background()
	if err := p.Post(ctx, "http://hooks.example/hook", Body{ID: "e1"}); err != nil {
		t.Errorf("public URL: %v, want delivered", err)
	}
	if err := p.Post(ctx, "http://mixed.example:443/hook", Body{ID: "e1"}); err != nil {
		t.Errorf("name with a public and a loopback address: %v, want delivered to the public one", err)
	}
	if got := d.calls(); len(got) != 2 || got[0] != "203.0.113.10:80" || got[1] != "198.51.100.7:443" {
		t.Errorf("dialed %v, want only the two public addresses", got)
	}
	allowed := Poster{Attempts: 1, Guard: loopbackAllowed}
	if err := allowed.Post(ctx, srv.URL+"/hook", Body{ID: "e1"}); err != nil {
		t.Errorf("with 127.0.0.0/8 allowed: %v, want delivered", err)
	}
	if n := hits.Load(); n != 3 {
		t.Errorf("receiver got %d requests, want 3", n)
	}
}
