package runtime

import (
	"slices"
	"testing"

	"github.com/vera-run/vera/locator"
)

func TestWinnerMatches(t *testing.T) {
	amb := func(i, n int) locator.Attempt {
		return locator.Attempt{Index: i, Matches: n, Reason: locator.ReasonAmbiguous}
	}
	none := func(i int) locator.Attempt { return locator.Attempt{Index: i, Reason: locator.ReasonNoMatch} }
	tests := []struct {
		name  string
		tried []locator.Attempt
		index int
		n     int
		want  []int
	}{
		{"first wins", nil, 0, 1, []int{1}},
		{"decoy then css", []locator.Attempt{amb(0, 3)}, 1, 1, []int{3, 1}},
		{"list root", []locator.Attempt{none(0)}, 1, 7, []int{0, 7}},
		{"no winner", []locator.Attempt{none(0), amb(1, 2)}, -1, 0, nil},
		{"attempts do not line up", []locator.Attempt{none(1)}, 1, 1, nil},
		{"too few attempts", nil, 2, 1, nil},
		{"winner without matches", nil, 0, 0, nil},
	}
	for _, tc := range tests {
		if got := winnerMatches(tc.tried, tc.index, tc.n); !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}
