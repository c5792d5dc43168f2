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
