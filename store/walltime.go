package store

import (
	"context"
	"schedlab/runtypes"
	"slices"
	"time"
)

// wallSample is how many of a variant's latest done runs WallTimes reads.
const wallSample = 200

// WallTime is the median wall time (started to finished) of a variant's
// latest done runs, and how many runs it is the median of.
type WallTime struct {
	Median time.Duration
	Runs   int
}

// WallTimes gives, per variant of strategy, the median wall time of its
// latest done runs (at most 200 per variant, from the 2,000 latest done
// runs of the strategy): what the sweep form's estimate multiplies.
// A variant with no done run is absent.
func (s *Store) WallTimes(ctx context.Context, strategy string) (map[string]WallTime, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT variant, started_at, finished_at FROM runs
		WHERE strategy = ? AND status = ? AND started_at IS NOT NULL AND finished_at IS NOT NULL
		ORDER BY created_at DESC LIMIT ?`, strategy, runtypes.StatusDone, 10*wallSample)
	if err != nil {
		return nil, dbErr(err)
	}
	defer rows.Close()
	samples := map[string][]time.Duration{}
	for rows.Next() {
		var variant, started, finished string
		if err := rows.Scan(&variant, &started, &finished); err != nil {
			return nil, dbErr(err)
		}
		a, err1 := parseTime(started)
		b, err2 := parseTime(finished)
		if err1 != nil || err2 != nil || b.Before(a) || len(samples[variant]) >= wallSample {
			continue
		}
		samples[variant] = append(samples[variant], b.Sub(a))
	}
	if err := rows.Err(); err != nil {
		return nil, dbErr(err)
	}
	out := make(map[string]WallTime, len(samples))
	for v, ds := range samples {
		slices.Sort(ds)
		m := ds[len(ds)/2]
		if len(ds)%2 == 0 {
			m = (ds[len(ds)/2-1] + m) / 2
		}
		out[v] = WallTime{Median: m, Runs: len(ds)}
	}
	return out, nil
}
