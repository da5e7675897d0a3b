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
// the store's own cost, 3 × 9 logins, about 2.5 s on a quiet machine.
func TestAuthenticateTakesAsLongWhateverWasWrong(t *testing.T) {
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
	// The cases are timed in rounds, one login of each per round in a
	// rotating order, and compared by the median over rounds of their
	// ratio within a round: a machine whose load changes during the test
	// slows the logins of one round alike, so it moves no ratio.
	const rounds = 9
	times := make([][]time.Duration, rounds)
	for r := range rounds {
		times[r] = make([]time.Duration, len(cases))
		for k := range cases {
			i := (r + k) % len(cases)
			c := cases[i]
			start := time.Now()
			u, err := s.Authenticate(ctx, c.user, c.password)
			times[r][i] = time.Since(start)
			if err == nil || u != nil {
				t.Fatalf("%s: logged in", c.name)
			}
			if err.Error() != "password: wrong user name or password" {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
	}
	for i := range cases {
		for j := range cases {
			if i == j {
				continue
			}
			ratios := make([]float64, rounds)
			for r := range rounds {
				ratios[r] = float64(times[r][i]) / float64(times[r][j])
			}
			slices.Sort(ratios)
			if m := ratios[rounds/2]; m < 0.5 || m > 2 {
				t.Errorf("%s against %s: median ratio %.2f over %d rounds tells the two apart", cases[i].name, cases[j].name, m, rounds)
			}
		}
	}
	if u, err := s.Authenticate(ctx, "alice", "correct horse battery"); err != nil || u.Name != "alice" {
		t.Errorf("the right password: %v %v", u, err)
	}
}
