package docs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/discovery"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// This file regenerates the worked examples of FORMAT.md from the real
// code (go test ./docs -run TestFormat -update). Only the source blocks
// come from here; every digest line and every derived block is then
// recomputed by the same functions the checks use.

// exampleOrigin is the loopback origin of the worked examples.
const exampleOrigin = "http://127.0.0.1:4010"

// The documented mutation that turns run A into run B for the comparison
// example (FORMAT.md, "Comparison result"): another run id, other times
// and another member_id value.
const (
	compareRunIDB     = "run_b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0"
	compareStartedB   = "2026-03-03T10:00:00Z"
	compareFinishedB  = "2026-03-03T10:00:01.5Z"
	compareDurationB  = 1500
	compareMemberIDB  = "M-2001"
	exampleMemberID   = "M-1042"
	examplePasscode   = "2468"
	exampleInputName  = "member_id"
	exampleDownloadCS = "date,amount\n2026-02-01,1234.50\n"
)

// generateExamples runs the real pipeline (evidence, record, draft,
// developer pack, promotion, a simulated run, a bundle, a comparison) and
// returns the source blocks of FORMAT.md by name.
func generateExamples(tmp string) (map[string][]byte, error) {
	ctx := context.Background()
	out := map[string][]byte{}
	ctl := func(role, name, label string) discovery.Control {
		return discovery.Control{ControlRef: discovery.ControlRef{Role: role, Name: name, Label: label},
			State: discovery.ControlState{Visible: true}}
	}
	ev := &discovery.Evidence{
		Schema: discovery.EvidenceSchema, RunID: "teller-lookup-demo", Mode: discovery.ModeGuided,
		StartedAt: "2026-03-02T09:00:00Z", EndedAt: "2026-03-02T09:04:10Z", EndReason: discovery.EndStopped,
		Limits: discovery.EvidenceLimits{
			MinIntervalMS: discovery.DefaultMinInterval.Milliseconds(), MaxSnapshots: discovery.DefaultMaxSnapshots,
			MaxControls: discovery.DefaultMaxControls, MaxStringLen: discovery.DefaultMaxStringLen,
			MaxFrames: discovery.DefaultMaxFrames, MaxSteps: discovery.DefaultMaxSteps,
			MaxEvidenceBytes: discovery.DefaultMaxEvidenceBytes,
		},
		Site:      discovery.EvidenceSite{Origins: []string{exampleOrigin}, AllowedOrigins: []string{exampleOrigin}},
		Snapshots: 3,
		Observations: []discovery.ObservationStep{
			{ID: "obs-1", Seq: 1, AtMS: 0, Kind: discovery.KindBaseline, Origin: exampleOrigin, URLPath: "/members",
				Frames:        []discovery.FrameRecord{{Path: []string{}, Origins: []string{exampleOrigin}}},
				Controls:      []discovery.Control{ctl("textbox", "Member ID", "Member ID"), ctl("textbox", "Passcode", "Passcode"), ctl("button", "Look up", "")},
				TotalControls: 3},
			{ID: "obs-2", Seq: 2, AtMS: 5200, Kind: discovery.KindChange, Origin: exampleOrigin, URLPath: "/members",
				Appeared:      []discovery.Control{ctl("heading", "Member summary", ""), ctl("button", "Export statement", "")},
				TotalControls: 5},
		},
		Refusals:   []discovery.Refusal{},
		Redactions: discovery.RedactionCounts{Identifiers: map[string]int{}},
	}
	if err := ev.Validate(); err != nil {
		return nil, fmt.Errorf("evidence: %w", err)
	}
	rec, err := discovery.NewRecord(ev, discovery.RecordSpec{
		Site:      discovery.RecordSite{Name: "Teller console", AllowedOrigins: []string{exampleOrigin}},
		Process:   discovery.Process{Name: "Member balance lookup", Goal: "Look up a member by ID, read the name and balance, and export the statement."},
		Model:     "example-model/1",
		Runtime:   discovery.RecordRuntime{Start: "/members"},
		Authority: discovery.RecordAuthority{MaxEffect: capability.EffectReadOnly, OperatorAuthenticates: true},
		Privacy:   discovery.RecordPrivacy{DataClasses: []string{"member_balances"}},
		Milestones: []discovery.MilestoneSpec{
			{ID: "find-member", Intent: "Find the member by ID", Observations: []string{"obs-1"}},
			{ID: "read-member", Intent: "Read the member summary and export the statement", Observations: []string{"obs-1", "obs-2"}},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	reviewedAt := time.Date(2026, 3, 2, 9, 30, 0, 0, time.UTC)
	rec, err = rec.Reviewed("teller supervisor", reviewedAt)
	if err != nil {
		return nil, err
	}
	draft, err := discovery.DraftFromRecord(rec, discovery.WithCapabilityID("teller.member-lookup"), discovery.WithVersion("1.0.0"))
	if err != nil {
		return nil, err
	}
	packDir := filepath.Join(tmp, "pack")
	if _, err := discovery.SealPack(ctx, packDir, ev, rec, draft); err != nil {
		return nil, fmt.Errorf("pack: %w", err)
	}
	for _, name := range append(discovery.PackFiles(), discovery.LockFile) {
		b, err := os.ReadFile(filepath.Join(packDir, name))
		if err != nil {
			return nil, err
		}
		out["pack/"+name] = b
	}

	// The developer authors the actions; Promote checks them against the
	// reviewed record.
	authored, err := draft.Clone()
	if err != nil {
		return nil, err
	}
	label := func(s string) []locator.Candidate {
		return []locator.Candidate{{Strategy: locator.Label, Label: s, Exact: true}}
	}
	role := func(r, name string) []locator.Candidate {
		return []locator.Candidate{{Strategy: locator.Role, Role: r, Name: name, Exact: true}}
	}
	summary := role("region", "Member summary")
	authored.Inputs = []capability.Input{
		{Name: exampleInputName, Type: capability.InputString, Description: "The member's ID", Required: true, MaxLength: 20},
		{Name: "passcode", Type: capability.InputString, Description: "The operator's teller passcode", Required: true, Secret: true},
	}
	authored.Outputs = []capability.Output{
		{Name: "member", Kind: capability.OutputRecord, Exposure: capability.ExposureModelAndArtifact, Required: true,
			Fields: []capability.OutputField{{Name: "name", Type: capability.FieldString}, {Name: "balance", Type: capability.FieldNumber}}},
		{Name: "statements", Kind: capability.OutputDownloadSet, Exposure: capability.ExposureArtifactOnly},
	}
	authored.Milestones[0].Actions = []capability.Action{
		{ID: "fill-member-id", Operation: capability.OpFill, Intent: "Type the member ID", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, LocatorCandidates: label("Member ID"), Input: exampleInputName,
			Postcondition: &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: label("Member ID")}},
		{ID: "fill-passcode", Operation: capability.OpFill, Intent: "Type the passcode", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, LocatorCandidates: label("Passcode"), Input: "passcode",
			Postcondition: &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: label("Passcode")}},
		{ID: "look-up", Operation: capability.OpClick, Intent: "Look the member up", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, LocatorCandidates: role("button", "Look up"),
			Postcondition: &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: summary}},
	}
	authored.Milestones[0].Transitions = []capability.Transition{
		{When: capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: summary}, To: "read-member"},
	}
	authored.Milestones[1].Actions = []capability.Action{
		{ID: "read-summary", Operation: capability.OpExtract, Intent: "Read the member's name and balance", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, LocatorCandidates: summary, Output: "member",
			Extract: &capability.Extraction{Mode: capability.ExtractSingle, Fields: []capability.Field{
				{Name: "name", Type: capability.FieldString, LocatorCandidates: []locator.Candidate{{Strategy: locator.TestID, TestID: "member-name"}}},
				{Name: "balance", Type: capability.FieldNumber, LocatorCandidates: []locator.Candidate{{Strategy: locator.TestID, TestID: "member-balance"}}},
			}, RequiredFields: []string{"name"}},
			Postcondition: &capability.Condition{Kind: capability.CondOutputProduced, Output: "member"}},
		{ID: "export-statement", Operation: capability.OpDownload, Intent: "Export the member's statement", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, LocatorCandidates: role("button", "Export statement"), Output: "statements",
			Postcondition: &capability.Condition{Kind: capability.CondDownloadCompleted}},
	}
	recHash, err := rec.Hash()
	if err != nil {
		return nil, err
	}
	c, err := discovery.Promote(authored, rec, capability.Review{
		Reviewer: "teller supervisor", ReviewedAt: reviewedAt.Format(time.RFC3339), RecordHash: recHash, AuthoringApproved: true})
	if err != nil {
		return nil, fmt.Errorf("promote: %w", err)
	}
	capJSON, err := c.Marshal()
	if err != nil {
		return nil, err
	}
	out["capability.json"] = capJSON

	// One simulated run against a fixture of the teller page.
	site := &runtimetest.Site{
		Pages: map[string]*runtimetest.Page{exampleOrigin + "/members": {
			Title: "Members",
			Body: []*runtimetest.Node{
				{Tag: "input", ID: "member-id", Label: "Member ID"},
				{Tag: "input", ID: "passcode", Label: "Passcode", Attributes: map[string]string{"type": "password"}},
				{Tag: "button", ID: "look-up", Text: "Look up"},
				{Tag: "section", ID: "summary", Role: "region", Name: "Member summary", Hidden: true, Children: []*runtimetest.Node{
					{Tag: "h2", Text: "Member summary"},
					{Tag: "span", TestID: "member-name", Text: "Ada Lovelace"},
					{Tag: "span", TestID: "member-balance", Text: "1,234.50"},
					{Tag: "button", ID: "export", Text: "Export statement"},
				}},
			},
			Rules: []runtimetest.Rule{
				{On: runtimetest.Trigger{Node: "look-up", Act: runtime.ActClick}, Effects: []runtimetest.Effect{{Show: []string{"summary"}}}},
				{On: runtimetest.Trigger{Node: "export", Act: runtime.ActClick}, Effects: []runtimetest.Effect{{Download: "statement"}}},
			},
		}},
		Downloads: map[string]runtimetest.DownloadFixture{
			"statement": {Name: "statement.csv", ContentType: "text/csv", Text: exampleDownloadCS},
		},
	}
	d := runtimetest.NewDriver(site)
	defer d.Close()
	res, err := runtime.Execute(ctx, c, map[string]any{exampleInputName: exampleMemberID, "passcode": examplePasscode},
		runtime.WithDriver(d), runtime.WithRunDir(filepath.Join(tmp, "runs")))
	if err != nil {
		return nil, fmt.Errorf("execute: %w", err)
	}
	if res.State != runtime.StateCompleted {
		return nil, fmt.Errorf("execute: state %s %+v", res.State, res.Failure)
	}
	for _, name := range []string{receipt.FileOutputs, receipt.FileReceipt, receipt.FileLock} {
		b, err := os.ReadFile(filepath.Join(res.RunDir, name))
		if err != nil {
			return nil, err
		}
		if name != receipt.FileLock {
			if b, err = pretty(b); err != nil {
				return nil, err
			}
		}
		out["run/"+name] = b
	}

	// The bundle of the discovered capability.
	bundleDir := filepath.Join(tmp, "bundle")
	if _, err := bundle.Seal(ctx, bundleDir, c, nil); err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	for _, name := range []string{bundle.FileReadme, bundle.FileLock} {
		b, err := os.ReadFile(filepath.Join(bundleDir, name))
		if err != nil {
			return nil, err
		}
		out["bundle/"+name] = b
	}

	// The comparison of run A with run B.
	a, err := receipt.LoadReceipt(mustTransform(out["run/"+receipt.FileReceipt]))
	if err != nil {
		return nil, err
	}
	b, err := mutateForComparison(a)
	if err != nil {
		return nil, err
	}
	cmp, err := receipt.Compare(a, b)
	if err != nil {
		return nil, err
	}
	cj, err := cmp.JSON()
	if err != nil {
		return nil, err
	}
	if out["comparison.json"], err = pretty(cj); err != nil {
		return nil, err
	}
	if out["comparison-policy"], err = canonjson.Marshal(cmp.Policy); err != nil {
		return nil, err
	}
	if out["input-artifact-a"], err = canonjson.Marshal(a.Inputs[0]); err != nil {
		return nil, err
	}

	// The hash inputs, spelled out.
	execHash := a.Capability.ExecutionHash
	obj, err := canonjson.Marshal(map[string]any{"capability": execHash, "name": exampleInputName, "value": exampleMemberID})
	if err != nil {
		return nil, err
	}
	if out["input-hash-object"], err = pretty(obj); err != nil {
		return nil, err
	}
	out["input-hash-number"] = []byte(fmt.Sprintf("{\n  \"capability\": %q,\n  \"name\": \"amount\",\n  \"value\": 2.50\n}\n", execHash))
	var set []map[string]any
	for _, act := range a.Actions {
		if act.Download != nil {
			set = append(set, map[string]any{"bytes": act.Download.Bytes, "sha256": act.Download.SHA256})
		}
	}
	sj, err := canonjson.Marshal(set)
	if err != nil {
		return nil, err
	}
	if out["download-set"], err = pretty(sj); err != nil {
		return nil, err
	}
	return out, nil
}

// mutateForComparison returns run B of the comparison example: run A with
// the documented run id, times and member_id value.
func mutateForComparison(a *receipt.Receipt) (*receipt.Receipt, error) {
	raw, err := json.Marshal(a)
	if err != nil {
		return nil, err
	}
	var b receipt.Receipt
	if err := json.Unmarshal(raw, &b); err != nil {
		return nil, err
	}
	b.RunID = compareRunIDB
	b.StartedAt, b.FinishedAt, b.DurationMS = compareStartedB, compareFinishedB, compareDurationB
	for i := range b.Inputs {
		if b.Inputs[i].Name == exampleInputName {
			h, err := receipt.HashInput(b.Capability.ExecutionHash, exampleInputName, compareMemberIDB)
			if err != nil {
				return nil, err
			}
			b.Inputs[i].Hash = h
		}
	}
	return &b, nil
}

// pretty indents canonical JSON for reading; its canonical form is the
// input again.
func pretty(canonical []byte) ([]byte, error) {
	var buf bytes.Buffer
	if err := json.Indent(&buf, canonical, "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

func mustTransform(b []byte) []byte {
	c, err := canonjson.Transform(b)
	if err != nil {
		return nil
	}
	return c
}
