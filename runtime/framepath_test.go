package runtime_test

import (
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// perMilestoneCap checks the billing heading in the top-level document,
// pages the framed list in its own milestone (frame path #f, proven by
// the frame's URL) and checks the heading again at the top.
func perMilestoneCap(frame ...string) *capability.Capability {
	top := milestone("top", waitFor("see-billing", visible(role("heading", "Billing"))))
	list := milestone("list",
		waitFor("see-first", visible(textC("INV-1"))),
		click("next", &capability.Condition{Kind: capability.CondURLIncludes, Value: "page=2", Scope: capability.ScopeFrame}, role("link", "Next page")),
		waitFor("see-second", visible(textC("INV-2"))))
	list.FrameSelectors = frame
	back := milestone("back", waitFor("see-billing-again", visible(role("heading", "Billing"))))
	return newCap("/", top, list, back)
}

// TestPerMilestoneFramePathFake: each milestone acts in its own document:
// the heading exists only at the top, the list only in the frame, so the
// run completes only if the path switches with the milestone and back.
func TestPerMilestoneFramePathFake(t *testing.T) {
	c := perMilestoneCap("#f")
	mustValid(t, c)
	d := runtimetest.NewDriver(frameListSite())
	defer d.Close()
	res := exec(t, c, d, nil, runtime.WithPollInterval(time.Millisecond))
	if res.State != receipt.TerminalCompleted {
		t.Fatalf("%s", dump(res))
	}
	if got := len(res.Milestones); got != 3 {
		t.Fatalf("milestones %s", dump(res.Milestones))
	}

	t.Run("missing frame", func(t *testing.T) {
		// A locator action in a missing frame fails as with the
		// runtime-wide path (a condition in it merely does not hold).
		c := perMilestoneCap("#nope")
		c.Runtime.ActionTimeoutMS = 300
		c.Milestones[1].Actions = c.Milestones[1].Actions[1:]
		mustValid(t, c)
		res := exec(t, c, d, nil, runtime.WithPollInterval(time.Millisecond))
		if res.State != receipt.TerminalFailed || res.Failure.Category != receipt.CategoryFrameNotAllowed || res.Failure.Reason != "frame_not_found" {
			t.Fatalf("%s", dump(res))
		}
		if res.StoppedAt != "next" {
			t.Errorf("stopped at %q, want next (the top milestone ran in the top document)", res.StoppedAt)
		}
	})
	t.Run("top-level milestone sees no frame content", func(t *testing.T) {
		c := perMilestoneCap()
		c.Runtime.ActionTimeoutMS = 300
		c.Milestones[1].Actions[1].Postcondition = visible(role("link", "Next page"))
		mustValid(t, c)
		res := exec(t, c, d, nil, runtime.WithPollInterval(time.Millisecond))
		if res.State != receipt.TerminalFailed || res.StoppedAt != "see-first" {
			t.Fatalf("%s", dump(res))
		}
	})
}

// TestPerMilestoneFramePathRefused: Execute's validation refuses the mixed form and a frame-scoped URL
// condition in a milestone that acts in the top-level document.
func TestPerMilestoneFramePathRefused(t *testing.T) {
	d := runtimetest.NewDriver(frameListSite())
	defer d.Close()
	for _, tc := range []struct {
		name, want string
		edit       func(c *capability.Capability)
	}{
		{"mixed", "milestones[1].frame_selectors", func(c *capability.Capability) { c.Runtime.FrameSelectors = []string{"#f"} }},
		{"templated", "milestones[1].frame_selectors[0]", func(c *capability.Capability) { c.Milestones[1].FrameSelectors = []string{"#{{x}}"} }},
		{"scope frame at the top", "milestones[0].actions[0].postcondition.scope", func(c *capability.Capability) {
			c.Milestones[0].Actions[0].Postcondition = &capability.Condition{Kind: capability.CondURLPath, Value: "/", Scope: capability.ScopeFrame}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := perMilestoneCap("#f")
			tc.edit(c)
			_, err := runtime.Execute(t.Context(), c, nil, runtime.WithDriver(d), runtime.WithRunDir(t.TempDir()))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want a problem at %s", err, tc.want)
			}
			if errs := c.Validate(); len(errs) == 0 {
				t.Errorf("Validate accepted the %s form", tc.name)
			}
		})
	}
	if n := len(d.Calls()); n != 0 {
		t.Fatalf("%d driver calls", n)
	}
}
