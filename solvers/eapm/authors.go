package eapm

import "math"

// authorsCode re-enacts the authors' C++ (zqh-ynu/EAPMAX at 9bc9af8,
// Experiment/EMPM_algorithm/EMPM_algorithm/implementation.cpp, with the
// 30-type set-up of the runs the paper plots) closely enough to reproduce
// their raw means to 7 significant digits, quirks included:
//   - quickSort keeps its pivot and swap temporaries in int variables, so
//     energies it moves are truncated to whole joules, and the sorted,
//     partly truncated energies are used for prices and energy sums;
//   - the reported objective is the last user's fractional value (before
//     rounding), not the final integral schedule's;
//   - a machine's load is updated with x[i][j] by original index inside a loop
//     over sorted positions, so some loads get the unrounded share.
//
// Only M_j = 1 and c = 1 (as in the seed). Switches turn each quirk off, which
// measures what each contributes to the gap between the raw means and ours.
// The linear systems are solved in closed form (the same numbers as the
// authors' LU inversion up to rounding). It reproduces all 30 raw case-1
// means; the paper's Greedy column is Greedy_based_method2 (min energy);
// our online differs from theirs by ≤ 0.3 % through the three quirks; the
// printed Table 1 swaps Online and Greedy at γ = 1.1.
type authorsCode struct {
	truncate   bool // the int pivot/temp of quickSort
	fracReport bool // report the last user's fractional value
	loadBug    bool // loads from possibly unrounded shares
}

type authorsRun struct {
	etc    [][]float64
	etcapc [][]float64 // sorted descending, possibly truncated
	idx    [][]int     // relabelled_index
	users  []User
	gamma  float64
}

// authors is the re-enactment with every quirk on.
var authors = authorsCode{truncate: true, fracReport: true, loadBug: true}

func (q authorsCode) prepare(in *Instance) *authorsRun {
	r := &authorsRun{etc: in.ETC, users: in.Users, gamma: in.Gamma}
	m := in.M()
	for t := range in.ETC {
		a := make([]float64, m)
		idx := make([]int, m)
		for j := range a {
			a[j] = in.ETC[t][j] * in.APC[t][j]
			idx[j] = j
		}
		q.quickSort(a, idx, 0, m-1)
		r.etcapc = append(r.etcapc, a)
		r.idx = append(r.idx, idx)
	}
	return r
}

func (q authorsCode) toInt(v float64) float64 {
	if q.truncate {
		return math.Trunc(v)
	}
	return v
}

func (q authorsCode) quickSort(a []float64, idx []int, left, right int) {
	if left >= right {
		return
	}
	ii, jj := left, right
	base := q.toInt(a[left])
	baseIdx := idx[left]
	for ii < jj {
		for a[jj] <= base && ii < jj {
			jj--
		}
		for a[ii] >= base && ii < jj {
			ii++
		}
		if ii < jj {
			temp := q.toInt(a[ii])
			a[ii] = a[jj]
			a[jj] = temp
			idx[ii], idx[jj] = idx[jj], idx[ii]
		}
	}
	a[left] = a[ii]
	a[ii] = base
	idx[left] = idx[ii]
	idx[ii] = baseIdx
	q.quickSort(a, idx, left, ii-1)
	q.quickSort(a, idx, ii+1, right)
}

// value is caculate_objective_value: X0 is the level, x the shares by
// original index.
func (r *authorsRun) value(t int, p, ePrev, msPrev, X0 float64, x []float64) float64 {
	xe := 0.0
	for j := range x {
		o := r.idx[t][j]
		if x[o] >= 0 {
			xe += x[o] * r.etcapc[t][j]
		} else {
			xe = math.MaxFloat64
			break
		}
	}
	return (p - ePrev - xe) / math.Max(msPrev, X0)
}

// online is Online_algorithm_for_EAPMAX; it returns the reported objective
// and the final schedule's true objective (with the run's energies).
func (q authorsCode) online(in *Instance) (reported, final float64) {
	r := q.prepare(in)
	m := in.M()
	L := make([]float64, m)
	var E, MS, p float64
	var last float64
	for _, u := range r.users {
		t := u.Type
		p += float64(u.Tasks) * r.etcapc[t][m-1] * r.gamma
		best := -math.MaxFloat64
		var bestX []float64
		for tao := 0; tao < m; tao++ {
			// the linear system's solution in closed form
			var sInv, sLInv float64
			for J := tao; J < m; J++ {
				o := r.idx[t][J]
				sInv += 1 / r.etc[t][o]
				sLInv += L[o] / r.etc[t][o]
			}
			X0 := (float64(u.Tasks) + sLInv) / sInv
			x := make([]float64, m)
			for J := tao; J < m; J++ {
				o := r.idx[t][J]
				x[o] = (X0 - L[o]) / r.etc[t][o]
			}
			v := r.value(t, p, E, MS, X0, x)
			if v > best {
				best, bestX = v, x
			}
		}
		last = best
		x := bestX
		sum := 0.0
		xe := 0.0
		newL := make([]float64, m)
		rounded := make([]float64, m)
		copy(rounded, x)
		for j := m - 1; j >= 0; j-- {
			o := r.idx[t][j]
			if sum+x[o] < float64(u.Tasks) {
				x[o] = math.Ceil(x[o])
			} else {
				x[o] = float64(u.Tasks) - sum
			}
			sum += x[o]
			rounded[o] = x[o]
			xe += x[o] * r.etcapc[t][j]
			if q.loadBug {
				newL[j] = L[j] + x[j]*r.etc[t][j]
			}
		}
		if !q.loadBug {
			for j := range newL {
				newL[j] = L[j] + rounded[j]*r.etc[t][j]
			}
		}
		copy(L, newL)
		E += xe
		for _, l := range L {
			MS = math.Max(MS, l)
		}
	}
	final = (p - E) / MS
	if q.fracReport {
		return last, final
	}
	return final, final
}

// greedyMinEnergy is Greedy_based_method2.
func (q authorsCode) greedyMinEnergy(in *Instance) float64 {
	r := q.prepare(in)
	m := in.M()
	L := make([]float64, m)
	var E, MS, p, v float64
	for _, u := range r.users {
		t := u.Type
		p += float64(u.Tasks) * r.etcapc[t][m-1] * r.gamma
		o := r.idx[t][m-1]
		L[o] += float64(u.Tasks) * r.etc[t][o]
		MS = math.Max(MS, L[o])
		E += float64(u.Tasks) * r.etcapc[t][m-1]
		v = (p - E) / MS
	}
	return v
}

// average is Average_based_method.
func (q authorsCode) average(in *Instance) float64 {
	r := q.prepare(in)
	m := in.M()
	L := make([]float64, m)
	var E, MS, p, v float64
	for _, u := range r.users {
		t := u.Type
		p += float64(u.Tasks) * r.etcapc[t][m-1] * r.gamma
		ave := math.Ceil(float64(u.Tasks) / float64(m))
		x := make([]float64, m)
		sum := 0.0
		for j := 0; j < m; j++ {
			if sum+ave < float64(u.Tasks) {
				x[j] = ave
			} else {
				x[j] = float64(u.Tasks) - sum
			}
			sum += x[j]
			L[j] += x[j] * r.etc[t][j]
			MS = math.Max(MS, L[j])
		}
		for j := m - 1; j >= 0; j-- {
			E += x[r.idx[t][j]] * r.etcapc[t][j]
		}
		v = (p - E) / MS
	}
	return v
}
