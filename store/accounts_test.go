package store

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestAuthenticateTakesAsLongWhateverWasWrong compares the median time of
// a failed login when the name exists and the password is over
// MaxPassword, when the name is unknown (with the same long password),
// and when the name exists and the password is a wrong short one: each
// does one bcrypt comparison of cost bcryptCost (10, some 50–100 ms), so
// the medians differ by far less than 2×, while a path that skipped
// bcrypt answered ~40× faster. There is no test cost knob: the test uses
// the store's own cost, 3 × 7 logins, about 2 s.
func TestAuthenticateTakesAsLongWhateverWasWrong(t *testing.T) {
	if testing.Short() {
		t.Skip("times bcrypt")
	}
	s, _ := openTemp(t)
	ctx := context.Background()
	if _, err := s.CreateUser(ctx, "alice", "correct horse battery", false); err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("x", MaxPassword+28)
	cases := []struct{ name, user, password string }{
		{"existing user, long password", "alice", long},
		{"unknown user, long password", "nobody", long},
		{"existing user, wrong short password", "alice", "wrong password"},
	}
	s.Authenticate(ctx, "nobody", "warm up") // makes dummyHash once
	const n = 7
	medians := make([]time.Duration, len(cases))
	for i, c := range cases {
		var d []time.Duration
		for range n {
			start := time.Now()
			u, err := s.Authenticate(ctx, c.user, c.password)
			d = append(d, time.Since(start))
			if err == nil || u != nil {
				t.Fatalf("%s: logged in", c.name)
			}
			if err.Error() != "password: wrong user name or password" {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		slices.Sort(d)
		medians[i] = d[n/2]
		t.Logf("%s: median %v of %d", c.name, medians[i], n)
	}
	for i := range medians {
		for j := range medians {
			if r := float64(medians[i]) / float64(medians[j]); r < 0.5 || r > 2 {
				t.Errorf("%s takes %v, %s %v: a ratio of %.2f tells the two apart", cases[i].name, medians[i], cases[j].name, medians[j], r)
			}
		}
	}
	if u, err := s.Authenticate(ctx, "alice", "correct horse battery"); err != nil || u.Name != "alice" {
		t.Errorf("the right password: %v %v", u, err)
	}
}
