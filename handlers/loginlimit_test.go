package handlers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"schedlab/errs"
)

var errWrong = errs.Invalidf("password", "wrong user name or password")

// clock is a settable now for a limiter.
type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func testLimiter(c *clock) *loginLimiter {
	l := newLoginLimiter()
	l.now = c.now
	return l
}

// try is one login attempt through l with outcome; it returns the wait
// it was refused with, 0 when it was admitted.
func try(t *testing.T, l *loginLimiter, name, addr string, outcome error) time.Duration {
	t.Helper()
	release, err := l.admit(context.Background(), name, addr)
	var many *tooMany
	if errors.As(err, &many) {
		return many.retry
	}
	if err != nil {
		t.Fatal(err)
	}
	release(outcome)
	return 0
}

func TestLoginLimiterBacksOffPerAccountAndSuccessResets(t *testing.T) {
	c := &clock{t: time.Unix(1e9, 0)}
	l := testLimiter(c)
	for i := range accountLimits.Free {
		if d := try(t, l, "alice", fmt.Sprintf("10.0.0.%d", i), errWrong); d != 0 {
			t.Fatalf("failure %d refused (%v) within the free ones", i+1, d)
		}
	}
	// From other addresses too: the account's own count refuses.
	var waits []time.Duration
	for i := range 4 {
		d := try(t, l, "alice", "10.0.1.1", errWrong)
		if d == 0 {
			t.Fatalf("attempt %d after %d failures admitted at once", i+1, accountLimits.Free+i)
		}
		waits = append(waits, d)
		c.t = c.t.Add(d)                         // wait as told
		try(t, l, "alice", "10.0.1.1", errWrong) // and fail again
	}
	for i := 1; i < len(waits); i++ {
		if waits[i] <= waits[i-1] {
			t.Errorf("back-off does not grow: %v", waits)
		}
	}
	if d := try(t, l, "bob", "10.0.2.1", errWrong); d != 0 {
		t.Errorf("bob refused for alice's failures: %v", d)
	}
	// A success after waiting resets alice's failures.
	c.t = c.t.Add(accountLimits.Max)
	if d := try(t, l, "alice", "10.0.3.1", nil); d != 0 {
		t.Fatalf("the right password after the wait refused: %v", d)
	}
	for i := range accountLimits.Free {
		if d := try(t, l, "alice", "10.0.3.1", errWrong); d != 0 {
			t.Fatalf("failure %d after a success refused: %v", i+1, d)
		}
	}
	// A server error counts against nobody.
	l2 := testLimiter(c)
	for range 3 * accountLimits.Free {
		if d := try(t, l2, "carol", "10.0.4.1", errs.New(errs.Internal, "", "disk I/O error")); d != 0 {
			t.Fatal("internal errors counted as failed logins")
		}
	}
	// The wait never exceeds Max.
	for range 40 {
		c.t = c.t.Add(accountLimits.Max)
		try(t, l2, "dave", "10.0.5.1", errWrong)
	}
	if d := try(t, l2, "dave", "10.0.5.1", errWrong); d <= 0 || d > accountLimits.Max {
		t.Errorf("after 40 failures the wait is %v, want (0, %v]", d, accountLimits.Max)
	}
}

func TestLoginLimiterBacksOffPerAddress(t *testing.T) {
	c := &clock{t: time.Unix(1e9, 0)}
	l := testLimiter(c)
	// One address spraying one guess over many accounts.
	for i := range addressLimits.Free {
		if d := try(t, l, fmt.Sprintf("user%d", i), "192.0.2.7", errWrong); d != 0 {
			t.Fatalf("failure %d from one address refused within the free ones", i+1)
		}
	}
	if d := try(t, l, "someone-else", "192.0.2.7", errWrong); d == 0 {
		t.Fatal("the address is not refused after its free failures")
	}
	if d := try(t, l, "someone-else", "192.0.2.8", errWrong); d != 0 {
		t.Errorf("another address refused: %v", d)
	}
	// Failures are forgotten after a quiet Forget.
	c.t = c.t.Add(addressLimits.Forget)
	if d := try(t, l, "someone-else", "192.0.2.7", errWrong); d != 0 {
		t.Errorf("refused after %v of quiet: %v", addressLimits.Forget, d)
	}
}

func TestLoginLimiterMemoryIsBounded(t *testing.T) {
	c := &clock{t: time.Unix(1e9, 0)}
	l := testLimiter(c)
	l.accounts.limits.Entries, l.addresses.limits.Entries = 100, 100
	// One locked account, then a flood of distinct names and addresses.
	for range accountLimits.Free + 3 {
		try(t, l, "alice", "203.0.113.1", errWrong)
	}
	for i := range 10_000 {
		c.t = c.t.Add(time.Microsecond)
		l.accounts.fail(fmt.Sprintf("name-%d", i), c.t)
		l.addresses.fail(fmt.Sprintf("198.51.%d.%d", i/256, i%256), c.t)
	}
	if n, m := l.accounts.size(), l.addresses.size(); n > 100 || m > 100 {
		t.Errorf("%d accounts and %d addresses remembered, want ≤ 100 each", n, m)
	}
	if l.accounts.wait("alice", c.t) == 0 {
		t.Error("a flood of names that failed once each pushed out alice's lock")
	}
}

func TestLoginSlotsBoundConcurrentBcrypt(t *testing.T) {
	l := newLoginLimiter()
	l.slotWait = 20 * time.Millisecond
	var held []func(error)
	for i := range loginSlots {
		release, err := l.admit(context.Background(), fmt.Sprint("u", i), fmt.Sprint("a", i))
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, release)
	}
	_, err := l.admit(context.Background(), "u9", "a9")
	var many *tooMany
	if !errors.As(err, &many) || many.retryAfter() != "1" {
		t.Fatalf("a login beyond %d at once: %v, want 429 with Retry-After 1", loginSlots, err)
	}
	held[0](nil)
	if _, err := l.admit(context.Background(), "u9", "a9"); err != nil {
		t.Errorf("a freed slot is not taken: %v", err)
	}
}

func TestLoginAnswers429WithRetryAfter(t *testing.T) {
	aa := newAuthApp(t)
	resp, _ := request(t, http.MethodGet, aa.URL+"/login", "", "", nil)
	var csrf *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == "schedlab_csrf" {
			csrf = c
		}
	}
	post := func(password string) (*http.Response, []byte) {
		return request(t, http.MethodPost, aa.URL+"/login", "application/x-www-form-urlencoded",
			"name=alice&password="+url.QueryEscape(password)+"&_csrf="+url.QueryEscape(csrf.Value), nil, csrf)
	}
	for i := range accountLimits.Free {
		if resp, _ := post("wrong-password"); resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("wrong password %d: %d, want 401", i+1, resp.StatusCode)
		}
	}
	resp, body := post("password-of-alice") // even the right one must wait
	if resp.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("after %d failures: %d, want 429", accountLimits.Free, resp.StatusCode)
	}
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || s < 1 {
		t.Errorf("Retry-After %q", resp.Header.Get("Retry-After"))
	}
	if !bytes.Contains(body, []byte("too many failed logins for this account: try again in")) {
		t.Errorf("the 429 page does not say why: %s", body)
	}
}

// TestLoginFloodDoesNotLockTheOwnerOut: the owner logged in from one
// address; a flood of wrong passwords for the account from another
// address locks the account there and for any new address, but the
// owner from the known address still gets in at once, and the owner's
// login does not lift the flood's lock. The owner's own typos from the
// known address are held to the pair's back-off; a wrong name from the
// same address gains nothing from the pass.
func TestLoginFloodDoesNotLockTheOwnerOut(t *testing.T) {
	c := &clock{t: time.Unix(1e9, 0)}
	l := testLimiter(c)
	const owner, flood, fresh = "198.51.100.10", "203.0.113.66", "192.0.2.44"
	if d := try(t, l, "alice", owner, nil); d != 0 {
		t.Fatalf("the first login refused: %v", d)
	}
	var locked time.Duration
	for range 60 {
		c.t = c.t.Add(time.Second)
		if d := try(t, l, "alice", flood, errWrong); d > locked {
			locked = d
		}
	}
	if locked == 0 {
		t.Fatal("the flood was never refused")
	}
	if d := try(t, l, "alice", fresh, errWrong); d == 0 {
		t.Error("a new address is not held to the flooded account's back-off")
	}
	if d := try(t, l, "alice", owner, nil); d != 0 {
		t.Fatalf("the owner from a known address is locked out for %v by the flood", d)
	}
	if d := try(t, l, "alice", flood, errWrong); d == 0 {
		t.Error("the owner's login lifted the flood's lock")
	}
	// The owner's typos from the known address: the pair's own back-off.
	for i := range pairLimits.Free {
		if d := try(t, l, "alice", owner, errWrong); d != 0 {
			t.Fatalf("the owner's typo %d refused: %v", i+1, d)
		}
	}
	if d := try(t, l, "alice", owner, errWrong); d == 0 {
		t.Error("failures from a known pair are not limited")
	}
	// Another account from the owner's address has no pass.
	for range accountLimits.Free {
		try(t, l, "bob", flood, errWrong)
	}
	if d := try(t, l, "bob", owner, errWrong); d == 0 {
		t.Error("bob's lock is lifted by alice's known address")
	}
	// A known pair is forgotten after knownFor.
	c.t = c.t.Add(knownFor)
	for range accountLimits.Free + 1 {
		try(t, l, "alice", flood, errWrong)
	}
	if d := try(t, l, "alice", owner, nil); d == 0 {
		t.Errorf("a pair known %v ago still passes the account's lock", knownFor)
	}
}

// size is the number of keys remembered.
func (k *keyLimiter) size() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return len(k.keys)
}
