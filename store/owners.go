package store

import (
	"context"
	"encoding/json"
)

// RunOwners maps each of ids that is a stored run to its owner (a user
// ID; empty for runs made without accounts); unknown ids are left out.
// One query, whatever the number of ids.
func (s *Store) RunOwners(ctx context.Context, ids []string) (map[string]string, error) {
	m := make(map[string]string, len(ids))
	if len(ids) == 0 {
		return m, nil
	}
	list, err := json.Marshal(ids)
	if err != nil {
		return nil, dbErr(err)
	}
	rows, err := s.db.QueryContext(ctx, "SELECT id, coalesce(owner, '') FROM runs WHERE id IN (SELECT value FROM json_each(?))", string(list))
	if err != nil {
		return nil, dbErr(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, owner string
		if err := rows.Scan(&id, &owner); err != nil {
			return nil, dbErr(err)
		}
		m[id] = owner
	}
	return m, dbErr(rows.Err())
}
