package runtime_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// batchFake is the fake driver with runtime.BatchFinder: FindCounts
// answers from the fake's own Find, so a run through it must give the
// same result as a run through the plain fake, with fewer Finds. With
// fail set, every FindCounts fails (the runtime then asks Find itself).
type batchFake struct {
	*runtimetest.Driver
	fail   bool
	looks  int
	ruled  int
	counts [][]int
}

func (b *batchFake) FindCounts(ctx context.Context, s runtime.Scope, root runtime.Element, cands []locator.Candidate) ([]int, error) {
	b.looks++
	if b.fail {
		return nil, errors.New("look failed")
	}
	out := make([]int, len(cands))
	for i, c := range cands {
		els, err := b.Driver.Find(ctx, s, root, c)
		switch {
		case err != nil:
			out[i] = -1
		case len(els) > 0 && c.Strategy == locator.Role:
			out[i] = -1 // as the browser driver: only the tree confirms a role
		default:
			out[i] = len(els)
		}
		if out[i] == 0 {
			b.ruled++
		}
	}
	b.counts = append(b.counts, out)
	return out, nil
}

func (b *batchFake) NearestNames(ctx context.Context, s runtime.Scope, root runtime.Element, c locator.Candidate, n int) ([]locator.NearName, error) {
	return b.Driver.NearestNames(ctx, s, root, c, n)
}

func finds(d *runtimetest.Driver) int {
	n := 0
	for _, c := range d.Calls() {
		if c.Method == runtimetest.MethodFind {
			n++
		}
	}
	return n
}

// TestBatchFinderSameAnswers runs the teller, its business outcome and
// the unknown-modal cases through the plain fake, the fake with a
// BatchFinder and the fake whose looks fail: the results must agree,
// and the BatchFinder must save Finds.
func TestBatchFinderSameAnswers(t *testing.T) {
	type tc struct {
		name   string
		cap    func() *capability.Capability
		site   func() *runtimetest.Site
		inputs map[string]any
		saves  bool // the checks must make fewer Finds of their own
	}
	cases := []tc{
		{"teller completed", func() *capability.Capability { return loadCap(t, "teller.json") }, tellerSite, tellerInputs, true},
		{"teller member not found", func() *capability.Capability { return loadCap(t, "teller.json") }, tellerSite,
			map[string]any{"username": "teller-7", "password": "pw", "member_id": "99"}, true},
		{"unknown dialog after an action", func() *capability.Capability {
			return newCap("/", milestone("m", click("open", textVisible("closed"), role("button", "Open"))))
		}, modalSite, nil, false},
		{"dialog before any action", func() *capability.Capability {
			return newCap("/modal-at-start", milestone("m", click("open", textVisible("x"), role("button", "Open"))))
		}, modalSite, nil, false},
		{"known dialog", func() *capability.Capability {
			return newCap("/", milestone("m",
				click("open", visible(role("dialog", "Cookie consent")), role("button", "Open")),
				click("accept", textVisible("accepted"), role("button", "Accept all"))))
		}, modalSite, nil, false},
	}
	summary := func(res *runtime.Result) []string {
		out := []string{string(res.State), res.Outcome}
		if res.Failure != nil {
			out = append(out, string(res.Failure.Category), res.Failure.Reason)
		}
		for _, a := range res.Actions {
			out = append(out, a.ID+":"+string(a.Status)+":"+a.Postcondition)
		}
		return out
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plain := runtimetest.NewDriver(c.site())
			defer plain.Close()
			want := summary(exec(t, c.cap(), plain, c.inputs))
			for _, fail := range []bool{false, true} {
				fake := runtimetest.NewDriver(c.site())
				bf := &batchFake{Driver: fake, fail: fail}
				got := summary(exec(t, c.cap(), bf, c.inputs))
				if !equalStrings(got, want) {
					t.Errorf("fail=%v: result %v, want %v (as without a BatchFinder)", fail, got, want)
				}
				if bf.looks == 0 {
					t.Errorf("fail=%v: FindCounts never called", fail)
				}
				if !fail {
					// Each ruled-out candidate was asked once by the look
					// instead of by its check; the checks' own Finds must be
					// fewer than without the look.
					plainFinds, batched := finds(plain), finds(fake)-countsAsked(bf)
					if batched > plainFinds || (c.saves && batched >= plainFinds) {
						t.Errorf("Finds outside the looks: %d, without a BatchFinder %d (ruled out %d)", batched, plainFinds, bf.ruled)
					}
				}
				fake.Close()
			}
		})
	}
}

// countsAsked is how many Finds the looks themselves made on the fake.
func countsAsked(b *batchFake) int {
	n := 0
	for _, c := range b.counts {
		n += len(c)
	}
	return n
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
