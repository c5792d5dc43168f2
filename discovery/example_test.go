package discovery_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/discovery"
	"github.com/vera-run/vera/locator"
)

const bank = "https://bank.example"

// memberPage is a discovery.Page showing a member search form: a stand-in
// for runtime/browser's Observer, which implements Page on real Chromium.
type memberPage struct{}

func (memberPage) Snapshot(context.Context, discovery.SnapshotLimits) (*discovery.RawSnapshot, error) {
	return &discovery.RawSnapshot{
		Origin: bank,
		Path:   "/members?session=abc",
		Frames: []discovery.RawFrame{{Origins: []string{bank}}},
		Controls: []discovery.RawControl{
			{Role: "textbox", Name: "Member ID", Label: "Member ID", Placeholder: "e.g. 100234", Visible: true},
			{Role: "button", Name: "Search", TestID: "member-search-submit", Visible: true},
			{Role: "link", Name: "Write to ada@example.com", TestID: "mail-ada@example.com", Visible: true},
			{Role: "cell", Name: "$12,480.55", Visible: true},
		},
	}, nil
}

// observe records a one-snapshot guided session over memberPage.
func observe() (*discovery.Evidence, error) {
	return discovery.Observe(context.Background(), memberPage{},
		discovery.WithMaxSnapshots(1), discovery.WithAllowedOrigins(bank))
}

// spec is the operator's account of the session.
func spec() discovery.RecordSpec {
	return discovery.RecordSpec{
		Site:      discovery.RecordSite{Name: "Bank", AllowedOrigins: []string{bank}},
		Process:   discovery.Process{Name: "Read member balances", Goal: "Read a member's balances."},
		Model:     "host-model",
		Runtime:   discovery.RecordRuntime{Start: "/members"},
		Authority: discovery.RecordAuthority{MaxEffect: capability.EffectReadOnly, OperatorAuthenticates: true},
		Privacy:   discovery.RecordPrivacy{DataClasses: []string{"member_balances"}},
		Milestones: []discovery.MilestoneSpec{
			{ID: "search", Intent: "Search the member", Observations: []string{"obs-1"}},
		},
	}
}

// Observe a demonstration: identifiers are redacted, test ids holding one
// withheld, query strings and table cells never recorded.
func ExampleObserve() {
	ev, err := observe()
	if err != nil {
		fmt.Println(err)
		return
	}
	base := ev.Observations[0]
	fmt.Println(ev.Mode, ev.EndReason, base.URLPath)
	for _, c := range base.Controls {
		fmt.Printf("%s %q placeholder=%q test_id=%q withheld=%v\n", c.Role, c.Name, c.Placeholder, c.TestID, c.TestIDWithheld)
	}
	fmt.Println(ev.Redactions.Identifiers, "test ids withheld:", ev.Redactions.TestIDsWithheld)
	// Output:
	// guided max_snapshots /members
	// textbox "Member ID" placeholder="e.g. ⟦redacted⟧" test_id="" withheld=false
	// button "Search" placeholder="" test_id="member-search-submit" withheld=false
	// link "Write to ⟦redacted⟧" placeholder="" test_id="" withheld=true
	// map[digit_run:1 email:1] test ids withheld: 1
}

// Turn evidence into a reviewed record and a non-executable draft.
func ExampleDraftFromRecord() {
	ev, _ := observe()
	rec, err := discovery.NewRecord(ev, spec())
	if err != nil {
		fmt.Println(err)
		return
	}
	rec, _ = rec.Reviewed("Operator One", time.Date(2026, 3, 30, 9, 0, 0, 0, time.UTC))
	draft, err := discovery.DraftFromRecord(rec)
	if err != nil {
		fmt.Println(err)
		return
	}
	h, _ := rec.Hash()
	fmt.Println(draft.ID, draft.State, draft.Provenance.DiscoveryHash == h)
	fmt.Println("validation codes:", draft.Validate().Codes())
	// Output:
	// draft.read-member-balances draft true
	// validation codes: [empty_milestone]
}

// Seal a developer pack, verify it and record the transfer approval.
func ExampleSealPack() {
	ctx := context.Background()
	ev, _ := observe()
	rec, _ := discovery.NewRecord(ev, spec())
	rec, _ = rec.Reviewed("Operator One", time.Now())
	draft, _ := discovery.DraftFromRecord(rec)

	tmp, _ := os.MkdirTemp("", "pack-example-")
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "pack")
	if _, err := discovery.SealPack(ctx, dir, ev, rec, draft); err != nil {
		fmt.Println(err)
		return
	}
	rep, err := discovery.VerifyPack(ctx, dir)
	fmt.Println(err, len(rep.Files), rep.TransferApproved)
	if _, err := discovery.ApproveTransfer(ctx, dir, "Operator One", time.Now()); err != nil {
		fmt.Println(err)
		return
	}
	rep, err = discovery.VerifyPack(ctx, dir)
	fmt.Println(err, rep.TransferApproved)
	// Output:
	// <nil> 3 false
	// <nil> true
}

// Promote an authored draft within the reviewed record; a broader one is
// refused with the boundary named.
func ExamplePromote() {
	ev, _ := observe()
	rec, _ := discovery.NewRecord(ev, spec())
	rec, _ = rec.Reviewed("Operator One", time.Now())
	draft, _ := discovery.DraftFromRecord(rec)
	h, _ := rec.Hash()
	bound, _ := discovery.ReviewHash(rec) // binds the record's own review
	review := capability.Review{Reviewer: rec.Review.Reviewer, ReviewedAt: rec.Review.ReviewedAt,
		RecordHash: h, ReviewHash: bound, AuthoringApproved: true}

	search := locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Search", Exact: true}
	authored, _ := draft.Clone()
	authored.Milestones[0].Actions = []capability.Action{{
		ID: "search", Operation: capability.OpClick, Intent: "Search", Effect: capability.EffectReadOnly,
		Confirmation: capability.ConfirmNone, LocatorCandidates: []locator.Candidate{search},
		Postcondition: &capability.Condition{Kind: capability.CondURLPath, Value: "/members"},
	}}
	c, err := discovery.Promote(authored, rec, review)
	fmt.Println(c.State, err)

	broader, _ := authored.Clone()
	broader.Site.AllowedOrigins = append(broader.Site.AllowedOrigins, "https://pay.example")
	_, err = discovery.Promote(broader, rec, review)
	var pe discovery.PromotionErrors
	fmt.Println(errors.As(err, &pe), pe.Boundaries())
	// Output:
	// discovered <nil>
	// true [site]
}

// Check an explorer's step against the policy before anything runs.
func ExampleCheckStep() {
	ev, _ := observe()
	var snap discovery.Snapshot
	for _, c := range ev.Observations[0].Controls {
		snap.Controls = append(snap.Controls, c)
	}
	snap.Origin, snap.URLPath = bank, "/members"
	snap.Frames = []discovery.FrameRecord{{Origins: []string{bank}}}
	pol := discovery.Policy{AllowedOrigins: []string{bank}}

	ok := discovery.Step{Kind: discovery.StepAct, Act: discovery.ActClick, Effect: capability.EffectReadOnly,
		Locator: locator.Candidate{Strategy: locator.Role, Role: "button", Name: "Search"}}
	fmt.Println(discovery.CheckStep(&snap, ok, pol))

	bad := ok
	bad.Effect = capability.EffectConsequential
	var re *discovery.RefusalError
	fmt.Println(errors.As(discovery.CheckStep(&snap, bad, pol), &re), re.Refusal.Reason)
	// Output:
	// <nil>
	// true consequential_effect
}

// The redaction path discovery applies to names, labels and placeholders.
func ExampleRedactText() {
	var counts discovery.RedactionCounts
	fmt.Println(discovery.RedactText("Conto IT60 X054 2811 1010 0000 0123 456 di Mario", 0, &counts))
	fmt.Println(discovery.RedactText("Fattura INV-2041 del 30/11/2026, totale € 1.234,56", 0, &counts))
	fmt.Println(counts.Identifiers)
	// Output:
	// Conto ⟦redacted⟧ di Mario
	// Fattura INV-2041 del 30/11/2026, totale € 1.234,56
	// map[iban:1]
}
