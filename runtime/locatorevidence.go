package runtime

import "github.com/vera-run/vera/locator"

// winnerMatches is the winning resolution's evidence for the receipt's
// locator_matches: the match count of every candidate tried, in order,
// ending with the winner's n. Resolution tries candidates in order without
// skipping, so the losers are exactly candidates 0..index-1. It is nil when
// nothing won or the attempts do not line up (never a guess).
func winnerMatches(tried []locator.Attempt, index, n int) []int {
	if index < 0 || len(tried) != index || n < 1 {
		return nil
	}
	m := make([]int, 0, index+1)
	for i, a := range tried {
		if a.Index != i {
			return nil
		}
		m = append(m, a.Matches)
	}
	return append(m, n)
}
