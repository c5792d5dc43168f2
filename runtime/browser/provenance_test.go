package browser

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

const saldoReason = "the balance <dd id=\"saldo\"> has no role, label, test id or stable text of its own; role=definition matches every <dd> of the summary"

// summaryCapability is the teller capability written by hand (state
// authored, hand_authored provenance) and extended with the account
// summary page: follow "Account summary", read the saldo into a text
// output with the given root candidates.
func summaryCapability(t *testing.T, s *testsite.Sites, root []locator.Candidate, reason string) *capability.Capability {
	t.Helper()
	c := tellerCapability(t, s)
	c.ID = "teller.member-saldo"
	c.State = capability.StateAuthored
	c.Provenance = &capability.Provenance{Kind: capability.ProvenanceHandAuthored, Author: "vera maintainers",
		Reason: "written by hand against the synthetic teller console; no discovery session was recorded",
		Review: &capability.Review{Reviewer: "teller operations", ReviewedAt: "2026-04-01T09:00:00Z", AuthoringApproved: true}}
	c.Outputs = append(c.Outputs, capability.Output{Name: "saldo", Kind: capability.OutputText, Exposure: capability.ExposureModelAndArtifact})
	c.Milestones = append(c.Milestones, capability.Milestone{
		ID: "summary", Intent: "Read the saldo from the account summary",
		Actions: []capability.Action{
			{ID: "open-summary", Operation: capability.OpClick, Intent: "Open the account summary", Effect: capability.EffectReadOnly,
				Confirmation: capability.ConfirmNone, LocatorCandidates: []locator.Candidate{role("link", "Account summary")},
				Postcondition: &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: []locator.Candidate{role("heading", "Account summary")}}},
			{ID: "read-saldo", Operation: capability.OpExtract, Intent: "Read the saldo", Effect: capability.EffectReadOnly,
				Confirmation: capability.ConfirmNone, LocatorCandidates: root, CSSOnlyReason: reason, Output: "saldo",
				Extract:       &capability.Extraction{Mode: capability.ExtractText},
				Postcondition: &capability.Condition{Kind: capability.CondOutputProduced, Output: "saldo"}},
		},
	})
	if errs := c.ValidateForExecution(); len(errs) > 0 {
		t.Fatalf("capability: %v", errs)
	}
	return c
}

func saldoInputs() map[string]any {
	return map[string]any{"username": "teller1", "password": "correct horse battery", "member_id": "100234"}
}

// runTwice runs c twice on the launched browser and returns the run
// directories and the read-saldo outcomes.
func runTwice(t *testing.T, d runtime.Driver, c *capability.Capability) ([]string, []*runtime.ActionOutcome, []string) {
	t.Helper()
	var dirs, saldos []string
	var outs []*runtime.ActionOutcome
	for range 2 {
		res := execute(t, tctx(t, 90*time.Second), d, c, saldoInputs())
		wantState(t, res, runtime.StateCompleted, "")
		if !res.Clean {
			t.Fatalf("run not clean: %s", describeResult(res))
		}
		dirs = append(dirs, res.RunDir)
		outs = append(outs, action(res, "read-saldo"))
		got, _ := res.ModelOutputs["saldo"].(string)
		saldos = append(saldos, got)
	}
	return dirs, outs, saldos
}

// saldoMatches is the read-saldo record's locator evidence in a run.
func saldoMatches(t *testing.T, dir string) (int, []int) {
	t.Helper()
	rf, err := receipt.Load(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range rf.Receipt.Actions {
		if a.ID == "read-saldo" && a.LocatorIndex != nil {
			return *a.LocatorIndex, a.LocatorMatches
		}
	}
	t.Fatal("no read-saldo record with a winner")
	return 0, nil
}

// TestHandAuthoredCSSOnlySaldo: a hand-authored capability whose saldo
// locator is CSS alone, with its reason, runs completed twice in real
// Chromium, records the winner and its match count, and Finalize promotes
// it with nothing to report.
func TestHandAuthoredCSSOnlySaldo(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := summaryCapability(t, s, []locator.Candidate{{Strategy: locator.CSS, CSS: "dd#saldo"}}, saldoReason)
	m, _ := testsite.LookupMember("100234")
	dirs, outs, saldos := runTwice(t, d, c)
	for i := range dirs {
		if saldos[i] != m.Savings {
			t.Errorf("run %d: saldo = %q, want %q", i, saldos[i], m.Savings)
		}
		if outs[i] == nil || outs[i].LocatorIndex != 0 {
			t.Fatalf("run %d: read-saldo outcome %+v", i, outs[i])
		}
		if idx, matches := saldoMatches(t, dirs[i]); idx != 0 || !slices.Equal(matches, []int{1}) {
			t.Errorf("run %d: locator_index %d, locator_matches %v, want 0 [1]", i, idx, matches)
		}
	}
	var rep receipt.FinalizeReport
	v, err := receipt.Finalize(context.Background(), c, dirs, receipt.WithAllowLaunchedBrowser(), receipt.WithReport(&rep))
	if err != nil {
		t.Fatalf("Finalize: %v", err)
	}
	if v.State != capability.StateValidatedLocal || !v.Provenance.HandAuthored() || v.Provenance.DiscoveryHash != "" {
		t.Fatalf("promoted state %s provenance %+v", v.State, v.Provenance)
	}
	for _, f := range rep.Candidates {
		if f.Action == "read-saldo" {
			t.Errorf("the CSS-only saldo locator is reported: %+v", f)
		}
	}
}

// TestDecoyRoleCandidate: the same saldo behind a role=definition
// candidate that matches all three <dd>s passes validation and runs
// completed (the CSS fallback wins), but the receipt shows the decoy's
// three matches and Finalize refuses to promote, naming it.
func TestDecoyRoleCandidate(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := summaryCapability(t, s, []locator.Candidate{{Strategy: locator.Role, Role: "definition"}, {Strategy: locator.CSS, CSS: "dd#saldo"}}, "")
	m, _ := testsite.LookupMember("100234")
	dirs, outs, saldos := runTwice(t, d, c)
	for i := range dirs {
		if saldos[i] != m.Savings {
			t.Errorf("run %d: saldo = %q, want %q", i, saldos[i], m.Savings)
		}
		if outs[i] == nil || outs[i].LocatorIndex != 1 || len(outs[i].Tried) != 1 || outs[i].Tried[0].Matches != 3 {
			t.Fatalf("run %d: read-saldo outcome %+v", i, outs[i])
		}
		if idx, matches := saldoMatches(t, dirs[i]); idx != 1 || !slices.Equal(matches, []int{3, 1}) {
			t.Errorf("run %d: locator_index %d, locator_matches %v, want 1 [3 1]", i, idx, matches)
		}
	}
	var rep receipt.FinalizeReport
	_, err := receipt.Finalize(context.Background(), c, dirs, receipt.WithAllowLaunchedBrowser(), receipt.WithReport(&rep))
	var fe receipt.FinalizeErrors
	if !errors.As(err, &fe) || !fe.Has("", receipt.CheckDecoyCandidate) {
		t.Fatalf("Finalize = %v, want a decoy_candidate refusal", err)
	}
	for _, e := range fe {
		if e.Check != receipt.CheckDecoyCandidate {
			t.Errorf("unexpected check: %v", e)
		}
	}
	i := slices.IndexFunc(rep.Candidates, func(f receipt.CandidateFinding) bool { return f.Action == "read-saldo" })
	if i < 0 {
		t.Fatalf("report %+v does not list the decoy", rep.Candidates)
	}
	if f := rep.Candidates[i]; f.Candidate != 0 || f.Strategy != "role" || !f.Decoy || !slices.Equal(f.Matches, []int{3, 3}) {
		t.Errorf("finding = %+v", f)
	}
}
