package convert

import (
	"errors"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
)

func TestDiff(t *testing.T) {
	draft, _, err := FromSeed004(readFile(t, "get_member_balances.artifact.json"))
	if err != nil {
		t.Fatal(err)
	}
	same, _ := draft.Clone()
	if r, err := Diff(draft, same); err != nil || !r.Empty() || r.Diff != "" {
		t.Fatalf("equal capabilities: %+v %v", r, err)
	}
	edited, _ := draft.Clone()
	edited.Outputs[0].Exposure = capability.ExposureModelAndArtifact
	edited.Privacy.DataClasses = []string{"member_balances"}
	edited.Milestones[0].Actions = edited.Milestones[0].Actions[:len(edited.Milestones[0].Actions)-1]
	r, err := Diff(draft, edited)
	if err != nil {
		t.Fatal(err)
	}
	got := r.String()
	for _, want := range []string{
		`Outputs[0].Exposure: "artifact_only" -> "model_and_artifact"`,
		`Privacy.DataClasses[?->0]: <missing> -> "member_balances"`,
		`Milestones[0].Actions[6->?]: {"id":"step-6-check-2"`, `-> <missing>`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("changes lack %q:\n%s", want, got)
		}
	}
	if len(r.Changes) != 3 {
		t.Errorf("%d changes, want 3:\n%s", len(r.Changes), got)
	}
	// go-cmp's text is deliberately unstable in its spacing: look for the
	// values only.
	if !strings.Contains(r.Diff, `"artifact_only"`) || !strings.Contains(r.Diff, `"model_and_artifact"`) {
		t.Errorf("go-cmp diff:\n%s", r.Diff)
	}
	if _, err := Diff(nil, edited); !errors.Is(err, capability.ErrInvalidArgument) {
		t.Errorf("nil: %v", err)
	}
}

// TestAccept: an accepted import is authored with a hand_authored
// provenance and no discovery record; a missing reviewer or reason, or an
// edit that does not validate for execution, is refused.
func TestAccept(t *testing.T) {
	draft, _, err := FromSeed004(readFile(t, "get_member_balances.artifact.json"))
	if err != nil {
		t.Fatal(err)
	}
	edited, _ := draft.Clone()
	edited.Privacy.DataClasses = []string{"member_balances"}
	ok := Acceptance{Reviewer: "lead", ReviewedAt: "2026-03-28T10:15:00Z", Reason: "imported from the seed 004 artifact"}
	c, rv, err := Accept(draft, edited, ok)
	if err != nil {
		t.Fatal(err)
	}
	if c.State != capability.StateAuthored || !c.Provenance.HandAuthored() || c.Provenance.DiscoveryHash != "" ||
		c.Provenance.Review == nil || !c.Provenance.Review.AuthoringApproved || c.Provenance.Author != "lead" {
		t.Fatalf("accepted: %s %+v", c.State, c.Provenance)
	}
	if len(rv.Changes) != 1 || draft.State == capability.StateAuthored || edited.State == capability.StateAuthored {
		t.Errorf("review %v; inputs modified: %s %s", rv.Changes, draft.State, edited.State)
	}
	for name, tc := range map[string]struct {
		edit func(*capability.Capability)
		a    Acceptance
		want error
	}{
		"no reviewer":  {nil, Acceptance{ReviewedAt: ok.ReviewedAt, Reason: ok.Reason}, capability.ErrInvalidArgument},
		"no reason":    {nil, Acceptance{Reviewer: "lead", ReviewedAt: ok.ReviewedAt}, capability.ErrInvalidArgument},
		"bad time":     {nil, Acceptance{Reviewer: "lead", ReviewedAt: "yesterday", Reason: "r"}, ErrInvalidDraft},
		"invalid edit": {func(c *capability.Capability) { c.Milestones = nil }, ok, ErrInvalidDraft},
	} {
		t.Run(name, func(t *testing.T) {
			e, _ := draft.Clone()
			if tc.edit != nil {
				tc.edit(e)
			}
			if _, _, err := Accept(draft, e, tc.a); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
	if _, _, err := Accept(nil, edited, ok); !errors.Is(err, capability.ErrInvalidArgument) {
		t.Errorf("nil draft: %v", err)
	}
}
