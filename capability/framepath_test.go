package capability

import (
	"slices"
	"testing"
)

// TestPerMilestoneFramePaths: the invoice capability with its frame path
// moved onto every milestone is valid, FramePath answers each
// milestone's own path, a milestone without one acts in the top-level
// document, and a frame-scoped URL condition is accepted in a milestone
// with a path.
func TestPerMilestoneFramePaths(t *testing.T) {
	c := loadValid(t, "invoice")
	path := slices.Clone(c.Runtime.FrameSelectors)
	if got := c.FramePath(ms(t, c, "export")); !slices.Equal(got, path) {
		t.Fatalf("runtime-wide FramePath = %q, want %q", got, path)
	}
	perMilestoneFrames(c)
	ms(t, c, "issue").FrameSelectors = nil
	act(t, c, "click-next-page").Postcondition = &Condition{Kind: CondURLIncludes, Value: "page=2", Scope: ScopeFrame}
	if errs := c.Validate(); len(errs) > 0 {
		t.Fatalf("per-milestone form: %v", errs)
	}
	if !c.PerMilestoneFrames() {
		t.Error("PerMilestoneFrames = false")
	}
	if got := c.FramePath(ms(t, c, "next_page")); !slices.Equal(got, path) {
		t.Errorf("FramePath(next_page) = %q, want %q", got, path)
	}
	if got := c.FramePath(ms(t, c, "issue")); len(got) != 0 {
		t.Errorf("FramePath(issue) = %q, want the top-level document", got)
	}
	if got := c.FramePath(nil); len(got) != 0 {
		t.Errorf("FramePath(nil) = %q, want none", got)
	}
	var nilCap *Capability
	if nilCap.FramePath(nil) != nil || nilCap.PerMilestoneFrames() {
		t.Error("nil capability has a frame path")
	}
}

// TestMilestoneFramePathInExecutionHash: a milestone's frame path is part
// of the executable contract, and moving the runtime-wide path onto the
// milestones is a different contract too.
func TestMilestoneFramePathInExecutionHash(t *testing.T) {
	c := loadValid(t, "invoice")
	h0, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}
	perMilestoneFrames(c)
	h1, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}
	ms(t, c, "export").FrameSelectors = []string{"iframe#workspace"}
	h2, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}
	if h0 == h1 || h1 == h2 || h0 == h2 {
		t.Fatalf("hashes do not follow the frame paths: %s %s %s", h0, h1, h2)
	}
	// Round trip: the member is kept by Marshal and Parse.
	raw, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	if got := back.FramePath(ms(t, back, "export")); !slices.Equal(got, []string{"iframe#workspace"}) {
		t.Fatalf("parsed export path = %q", got)
	}
}
