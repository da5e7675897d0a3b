package handlers

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"sync"
	"time"

	"schedlab/errs"
	"schedlab/store"
)

// loginLimits are the rules of loginLimiter: after Free failures in a row
// a key (an account, an address) must wait Base before its next attempt,
// twice as long after each further failure, at most Max; failures are
// forgotten after Forget without one. Entries bounds each key map.
type loginLimits struct {
	Free    int           // failures allowed before any wait
	Base    time.Duration // the first wait
	Max     time.Duration // the longest wait
	Forget  time.Duration // quiet time after which a key's failures are forgotten
	Entries int           // keys remembered at most, per map
}

// Defaults of the login limits.
var (
	// accountLimits: 5 free guesses (NIST SP 800-63B §5.2.2 allows up to
	// 100 failures before a lock; typos need a few), then 1 s, 2 s, 4 s …
	// up to 15 min: some 100 guesses a day against one account instead
	// of the 27.8 a second of the audit.
	accountLimits = loginLimits{Free: 5, Base: time.Second, Max: 15 * time.Minute, Forget: time.Hour, Entries: 10_000}
	// addressLimits: one address may fail more (an office behind one NAT
	// shares it), 20 before a wait, then the same back-off: spraying one
	// password over many accounts from one address is slowed as much.
	addressLimits = loginLimits{Free: 20, Base: time.Second, Max: 15 * time.Minute, Forget: time.Hour, Entries: 10_000}
	// pairLimits: the failures of an account from an address it logged
	// in from before (a known pair, which the account's own back-off
	// does not stop): the account's rules, counted for the pair alone.
	pairLimits = accountLimits
)

// Known pairs: an account and the address it logged in from are
// remembered for knownFor after the login (at most knownEntries pairs,
// the oldest dropped first), so that a flood of wrong passwords for the
// account from elsewhere, which locks the account for up to
// accountLimits.Max (15 min), does not lock its owner out (issue 41):
// from a known address the owner is held only to the pair's own and the
// address's back-off. OWASP's authentication cheat sheet and NIST SP
// 800-63B §5.2.2 both warn that account lockout is itself a denial of
// service and name "trusted devices or addresses" as the remedy.
const (
	knownFor     = 30 * 24 * time.Hour
	knownEntries = 10_000
)

// Concurrent bcrypt work of logins: at most loginSlots comparisons at once
// (one bcrypt is some 70 ms of one core at cost 10; two leave the other
// cores to the pages); a login that waits longer than loginSlotWait for
// one is answered 429.
const (
	loginSlots    = 2
	loginSlotWait = time.Second
)

// failures is what a limiter remembers of one key.
type failures struct {
	n     int       // failures in a row
	last  time.Time // of the latest failure
	until time.Time // no attempt before then
}

// keyLimiter counts the failed logins of keys under one set of limits, in
// a map of at most Entries keys: when it is full, a new key first drops
// the forgotten ones, then the key of fewest failures (the oldest of
// them), so a flood of distinct names or addresses cannot grow it, and
// cannot push out a locked key without failing as often as it did on
// each of Entries keys (which the address limit slows).
type keyLimiter struct {
	limits loginLimits
	mu     sync.Mutex
	keys   map[string]*failures
}

func newKeyLimiter(l loginLimits) *keyLimiter {
	return &keyLimiter{limits: l, keys: make(map[string]*failures)}
}

// wait is how long key must still wait before its next attempt at now
// (0: it may try now).
func (k *keyLimiter) wait(key string, now time.Time) time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	f, ok := k.keys[key]
	if !ok {
		return 0
	}
	if now.Sub(f.last) >= k.limits.Forget {
		delete(k.keys, key)
		return 0
	}
	if d := f.until.Sub(now); d > 0 {
		return d
	}
	return 0
}

// fail records a failed attempt of key at now and returns the wait it
// sets: 0 up to the Free-th failure in a row, then Base, 2 Base, 4 Base …
// up to Max.
func (k *keyLimiter) fail(key string, now time.Time) time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	f, ok := k.keys[key]
	if ok && now.Sub(f.last) >= k.limits.Forget {
		f.n = 0
	}
	if !ok {
		k.makeRoom(now)
		f = &failures{}
		k.keys[key] = f
	}
	f.n++
	f.last = now
	over := f.n - k.limits.Free + 1
	if over <= 0 {
		return 0
	}
	d := k.limits.Base
	for i := 1; i < over && d < k.limits.Max; i++ {
		d *= 2
	}
	d = min(d, k.limits.Max)
	f.until = now.Add(d)
	return d
}

// reset forgets key's failures (a successful login of an account).
func (k *keyLimiter) reset(key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.keys, key)
}

// makeRoom drops keys until one more fits; k.mu held.
func (k *keyLimiter) makeRoom(now time.Time) {
	if len(k.keys) < k.limits.Entries {
		return
	}
	for key, f := range k.keys {
		if now.Sub(f.last) >= k.limits.Forget {
			delete(k.keys, key)
		}
	}
	for len(k.keys) >= k.limits.Entries {
		var drop string
		var least *failures
		for key, f := range k.keys {
			if least == nil || f.n < least.n || (f.n == least.n && f.last.Before(least.last)) {
				drop, least = key, f
			}
		}
		delete(k.keys, drop)
	}
}

// loginLimiter guards POST /login: per account and per address back-off,
// and a bound on concurrent bcrypt work. It lives in memory: a restart
// forgets it, which costs an attacker a restart per 20 guesses.
type loginLimiter struct {
	accounts, addresses *keyLimiter
	pairs               *keyLimiter // failures of known pairs
	knownMu             sync.Mutex
	known               map[string]time.Time // pairKey → the last login from it
	slots               chan struct{}
	slotWait            time.Duration
	now                 func() time.Time
}

func newLoginLimiter() *loginLimiter {
	return &loginLimiter{accounts: newKeyLimiter(accountLimits), addresses: newKeyLimiter(addressLimits),
		pairs: newKeyLimiter(pairLimits), known: make(map[string]time.Time), slots: make(chan struct{}, loginSlots), slotWait: loginSlotWait, now: time.Now}
}

// tooMany is a refused login attempt: 429 with Retry-After.
type tooMany struct {
	retry time.Duration
	msg   string
}

func (e *tooMany) Error() string { return e.msg }

// retryAfter is the Retry-After value of a wait: whole seconds, at least 1.
func (e *tooMany) retryAfter() string {
	return fmt.Sprint(int64(math.Ceil(max(e.retry, time.Second).Seconds())))
}

// pairKey is the key of an account and an address.
func pairKey(name, addr string) string { return addr + " " + name }

// isKnown says the account logged in from addr within knownFor.
func (l *loginLimiter) isKnown(pair string, now time.Time) bool {
	l.knownMu.Lock()
	defer l.knownMu.Unlock()
	t, ok := l.known[pair]
	if ok && now.Sub(t) >= knownFor {
		delete(l.known, pair)
		return false
	}
	return ok
}

// remember makes pair known at now, dropping the oldest pair when full.
func (l *loginLimiter) remember(pair string, now time.Time) {
	l.knownMu.Lock()
	defer l.knownMu.Unlock()
	if _, ok := l.known[pair]; !ok && len(l.known) >= knownEntries {
		var oldest string
		var at time.Time
		for k, t := range l.known {
			if oldest == "" || t.Before(at) {
				oldest, at = k, t
			}
		}
		delete(l.known, oldest)
	}
	l.known[pair] = now
}

// admit says whether a login of name from addr may be tried now; when it
// may, release must be called with its outcome (the error of
// store.Authenticate: nil resets the account's failures and makes the
// pair known, errs.Invalid, a wrong name or password, counts against the
// address and the account, or, for a known pair, against the pair
// instead of the account; anything else against none). A known pair is
// not held to the account's back-off, only to its own and the address's.
// It holds one of the bcrypt slots until then.
func (l *loginLimiter) admit(ctx context.Context, name, addr string) (release func(error), err error) {
	now := l.now()
	pair := pairKey(name, addr)
	known := l.isKnown(pair, now)
	if d := l.addresses.wait(addr, now); d > 0 {
		return nil, &tooMany{d, fmt.Sprintf("too many failed logins from your address: try again in %s", roundWait(d))}
	}
	accounts, key := l.accounts, name
	if known {
		accounts, key = l.pairs, pair
	}
	if d := accounts.wait(key, now); d > 0 {
		return nil, &tooMany{d, fmt.Sprintf("too many failed logins for this account: try again in %s", roundWait(d))}
	}
	t := time.NewTimer(l.slotWait)
	defer t.Stop()
	select {
	case l.slots <- struct{}{}:
	case <-t.C:
		return nil, &tooMany{time.Second, "the server is busy checking other logins: try again in a second"}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return func(err error) {
		<-l.slots
		now := l.now()
		switch {
		case err == nil:
			if !known { // a known pair's login does not lift a flood's lock for others
				l.accounts.reset(name)
			}
			l.pairs.reset(pair)
			l.remember(pair, now)
		case errs.KindOf(err) == errs.Invalid:
			accounts.fail(key, now)
			l.addresses.fail(addr, now)
		}
	}, nil
}

// roundWait shows a wait in whole seconds or minutes.
func roundWait(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%d s", int64(math.Ceil(max(d, time.Second).Seconds())))
	}
	return fmt.Sprintf("%d min", int64(math.Ceil(d.Minutes())))
}

// clientAddress is the key of a request's address: the peer's IP (not a
// forwarded-for header, which a client can write), an IPv6 one by its
// /64, which one host usually holds whole.
func clientAddress(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return host
	}
	if ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	return ip.String()
}

// accountKey is the limiter's key of a user name: names longer than any
// account can have are cut, so that a key's size is bounded.
func accountKey(name string) string {
	if len(name) > store.MaxUserName {
		return name[:store.MaxUserName]
	}
	return name
}
