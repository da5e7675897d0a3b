package registry

import "testing"

func TestEveryFamilyHasWellFormedParameterNames(t *testing.T) {
	if err := Check(); err != nil {
		t.Error(err)
	}
}
