package eapm

import (
	"reflect"
	"testing"
)

// The streaming seed loader against the general CSV reader (mustRecords,
// the loader it replaced): the same users in the same order, every case.
func TestSeedLoadMatchesTheCSVReader(t *testing.T) {
	add := func(dst [][]User, r map[string]string) {
		k := atoi(r["instance"])
		dst[k] = append(dst[k], User{Type: atoi(r["type"]), Tasks: atoi(r["a"])})
	}
	case1 := make([][]User, seedCount)
	for _, r := range mustRecords("seed_instances/case1_gamma_n30.csv") {
		add(case1, r)
	}
	if got := loadCase1(); !reflect.DeepEqual(got, case1) {
		t.Fatal("case 1 differs from the CSV reader's")
	}
	case3 := map[string][][]User{}
	for _, o := range case3Orders {
		case3[o] = make([][]User, seedCount)
	}
	for _, r := range mustRecords("seed_instances/case3_bigsmall.csv") {
		add(case3[r["order"]], r)
	}
	if got := loadCase3(); !reflect.DeepEqual(got, case3) {
		t.Fatal("case 3 differs from the CSV reader's")
	}
	if testing.Short() {
		return // case 2 is 363,000 rows
	}
	case2 := map[int][][]User{}
	for _, n := range case2N {
		case2[n] = make([][]User, seedCount)
	}
	for _, r := range mustRecords("seed_instances/case2_variable_n.csv.gz") {
		add(case2[atoi(r["n"])], r)
	}
	got := loadCase2()
	if !reflect.DeepEqual(got, case2) {
		t.Fatal("case 2 differs from the CSV reader's")
	}
	for _, n := range case2N {
		for k, users := range got[n] {
			if len(users) != n {
				t.Fatalf("case 2 n=%d instance %d has %d users", n, k, len(users))
			}
		}
	}
}

func TestSeedIntRejectsWhatIsNotADecimal(t *testing.T) {
	for _, s := range []string{"", "-1", "1.5", " 3", "1234567890", "x"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("seedInt(%q) did not panic", s)
				}
			}()
			seedInt([]byte(s))
		}()
	}
	if seedInt([]byte("0")) != 0 || seedInt([]byte("907")) != 907 {
		t.Fatal("seedInt misreads")
	}
}
