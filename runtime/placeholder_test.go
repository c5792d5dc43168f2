package runtime_test

import (
	"context"
	"sync"
	"testing"

	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// placeholderFinds matches nothing for a field locator (a locator
// searched below a root) the first n times: a skeleton's empty
// placeholder, which has no box and so matches no locator until the
// data fills it.
type placeholderFinds struct {
	*runtimetest.Driver
	mu    sync.Mutex
	n     int
	finds int
}

func (d *placeholderFinds) Find(ctx context.Context, scope runtime.Scope, root runtime.Element, c locator.Candidate) ([]runtime.Element, error) {
	if root != nil {
		d.mu.Lock()
		d.finds++
		hidden := d.finds <= d.n
		d.mu.Unlock()
		if hidden {
			return nil, nil
		}
	}
	return d.Driver.Find(ctx, scope, root, c)
}

// A single record whose field element is not there yet on the first read
// (an empty placeholder the data fills later) is waited for as a blank
// field is, and read once it renders; a field locator that never matches
// still fails locator_not_found, after the action timeout. The record
// used to fail locator_not_found at once (TestUnseen3NavLogin: an
// account card whose empty <dd> placeholders are filled by a fetch).
func TestRequiredFieldPlaceholderWaits(t *testing.T) {
	c := memberCap()
	mustValid(t, c)
	d := &placeholderFinds{Driver: runtimetest.NewDriver(site(memberPage("Ada Lovelace"))), n: 2}
	t.Cleanup(func() { d.Close() })
	res := exec(t, c, d, nil)
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("placeholder then filled: %s", dump(res))
	}
	if got := res.ModelOutputs["member"]; got == nil || got.(map[string]any)["name"] != "Ada Lovelace" {
		t.Errorf("member = %#v", got)
	}

	c = memberCap()
	c.Runtime.ActionTimeoutMS = 300
	mustValid(t, c)
	never := &placeholderFinds{Driver: runtimetest.NewDriver(site(memberPage("Ada Lovelace"))), n: 1 << 30}
	t.Cleanup(func() { never.Close() })
	res = exec(t, c, never, nil)
	if res.Failure == nil || res.Failure.Reason != "locator_not_found" {
		t.Fatalf("field never there: %s", dump(res))
	}
	if never.finds < 2 {
		t.Errorf("the missing field was looked for %d times, want it awaited", never.finds)
	}
}
