package runtimetest

import (
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// count (for the locator checks, session.expect) asks a [runtime.BatchFinder] driver how many elements Find will
// return for c (together with a candidate that matches nothing, so the
// look covers more than one candidate), or returns -2 for a driver
// without the extension.
func (x *session) count(scope runtime.Scope, root runtime.Element, c locator.Candidate) int {
	x.t.Helper()
	bf, ok := x.d.(runtime.BatchFinder)
	if !ok {
		return -2
	}
	none := locator.Candidate{Strategy: locator.TestID, TestID: "no-such-test-id-anywhere"}
	n, err := bf.FindCounts(x.ctx, scope, root, []locator.Candidate{c, none})
	if err != nil {
		x.t.Fatalf("FindCounts(%s): %v", c, err)
	}
	if len(n) != 2 {
		x.t.Fatalf("FindCounts(%s) = %d counts for 2 candidates", c, len(n))
	}
	if n[1] != 0 && n[1] != -1 {
		x.t.Errorf("FindCounts(test id matching nothing) = %d, want 0 or -1", n[1])
	}
	return n[0]
}

// checkCount holds FindCounts to Find: 0 means Find returns nothing, a
// positive count is Find's number of elements, -1 means unknown.
func (x *session) checkCount(c locator.Candidate, count, found int) {
	x.t.Helper()
	switch {
	case count == -2, count == -1:
	case count < -1:
		x.t.Errorf("FindCounts(%s) = %d, want -1 or more", c, count)
	case count != found:
		x.t.Errorf("FindCounts(%s) = %d, Find returned %d elements", c, count, found)
	}
}
