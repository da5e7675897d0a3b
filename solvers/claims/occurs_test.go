package claims

import (
	"strings"
	"testing"
)

func TestOccursBothSidesOfItsBoundary(t *testing.T) {
	for _, c := range []struct {
		k, n int
		want string
	}{{1, 10, Holds}, {10, 10, Holds}, {0, 10, DoesNotHold}, {0, 0, NotMeasured}} {
		r := Occurs(c.k, c.n, "stopped")
		if r.Verdict != c.want {
			t.Errorf("Occurs(%d, %d) = %s, want %s", c.k, c.n, r.Verdict, c.want)
		}
		if !strings.Contains(r.Ours, "of") || r.Rule == "" {
			t.Errorf("Occurs(%d, %d): ours %q rule %q", c.k, c.n, r.Ours, r.Rule)
		}
	}
}
