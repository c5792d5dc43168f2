package receipt_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
)

const (
	testOrigin    = "https://teller.example"
	discoveryHash = "sha256:1111111111111111111111111111111111111111111111111111111111111111"
	fileA         = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
)

var one = 1.0

func role(r, name string) locator.Candidate {
	return locator.Candidate{Strategy: locator.Role, Role: r, Name: name}
}

// testCapability is a small discovered capability: search a member, read
// the member record, its movements (paged), a note, and download a
// statement.
func testCapability() *capability.Capability {
	return &capability.Capability{
		Schema:  capability.SchemaV1,
		ID:      "teller.member-lookup",
		Version: "1.2.0",
		Name:    "Member lookup",
		Goal:    "Read a member's balances and statement",
		State:   capability.StateDiscovered,
		Provenance: &capability.Provenance{
			DiscoveryHash:  discoveryHash,
			DiscoveryModel: "test-model",
			DiscoveryRunID: "discovery-1",
			Review: &capability.Review{Reviewer: "operator", ReviewedAt: "2026-01-02T03:04:05Z",
				RecordHash: discoveryHash, AuthoringApproved: true},
		},
		Site:      capability.Site{Name: "Teller", AllowedOrigins: []string{testOrigin}},
		Runtime:   capability.Runtime{Start: "/members", MaxActions: 50},
		Authority: capability.Authority{MaxEffect: capability.EffectReadOnly, OperatorAuthenticates: true},
		Privacy:   capability.Privacy{DataClasses: []string{"member_balances"}},
		Inputs: []capability.Input{
			{Name: "query", Type: capability.InputString, Required: true},
			{Name: "pin", Type: capability.InputString, Secret: true},
			{Name: "limit", Type: capability.InputInteger, Minimum: &one},
		},
		Outputs: []capability.Output{
			{Name: "member", Kind: capability.OutputRecord, Exposure: capability.ExposureModelAndArtifact, Required: true,
				Fields: []capability.OutputField{{Name: "name", Type: capability.FieldString}, {Name: "balance", Type: capability.FieldNumber}, {Name: "since", Type: capability.FieldDate}}},
			{Name: "movements", Kind: capability.OutputRecordSet, Exposure: capability.ExposureArtifactOnly,
				Fields: []capability.OutputField{{Name: "amount", Type: capability.FieldNumber}, {Name: "booked", Type: capability.FieldBoolean}, {Name: "seq", Type: capability.FieldInteger}}},
			{Name: "note", Kind: capability.OutputText, Exposure: capability.ExposureModelSummary},
			{Name: "statement", Kind: capability.OutputDownloadSet, Exposure: capability.ExposureArtifactOnly},
		},
		Milestones: []capability.Milestone{
			{
				ID: "search", Intent: "Find the member",
				Actions: []capability.Action{
					{ID: "fill-query", Operation: capability.OpFill, Intent: "Type the query", Effect: capability.EffectReadOnly,
						Confirmation: capability.ConfirmNone, Input: "query",
						LocatorCandidates: []locator.Candidate{role("searchbox", "Member"), {Strategy: locator.Label, Label: "Member"}},
						Postcondition:     visible(role("button", "Search"))},
					{ID: "fill-pin", Operation: capability.OpFill, Intent: "Type the PIN", Effect: capability.EffectReadOnly,
						Confirmation: capability.ConfirmNone, Input: "pin",
						LocatorCandidates: []locator.Candidate{{Strategy: locator.Label, Label: "PIN"}},
						Postcondition:     visible(role("button", "Search"))},
					{ID: "submit", Operation: capability.OpClick, Intent: "Search", Effect: capability.EffectReadOnly,
						Confirmation: capability.ConfirmNone, LocatorCandidates: []locator.Candidate{role("button", "Search")},
						Postcondition: &capability.Condition{Kind: capability.CondURLPath, Value: "/member"}},
				},
				Transitions: []capability.Transition{
					{When: capability.Condition{Kind: capability.CondURLPath, Value: "/member"}, To: "member"},
				},
			},
			{
				ID: "member", Intent: "Read the member",
				Actions: []capability.Action{
					{ID: "read-member", Operation: capability.OpExtract, Intent: "Read the member", Effect: capability.EffectReadOnly,
						Confirmation: capability.ConfirmNone, Output: "member",
						LocatorCandidates: []locator.Candidate{role("region", "Member")},
						Postcondition:     produced("member"),
						Extract: &capability.Extraction{Mode: capability.ExtractSingle, Fields: []capability.Field{
							{Name: "name", Type: capability.FieldString, LocatorCandidates: []locator.Candidate{role("heading", "")}},
							{Name: "balance", Type: capability.FieldNumber, LocatorCandidates: []locator.Candidate{{Strategy: locator.TestID, TestID: "balance"}}},
							{Name: "since", Type: capability.FieldDate, LocatorCandidates: []locator.Candidate{{Strategy: locator.TestID, TestID: "since"}}},
						}}},
					{ID: "read-note", Operation: capability.OpExtract, Intent: "Read the note", Effect: capability.EffectReadOnly,
						Confirmation: capability.ConfirmNone, Output: "note",
						LocatorCandidates: []locator.Candidate{role("note", "")},
						Extract:           &capability.Extraction{Mode: capability.ExtractText},
						Postcondition:     produced("note")},
					{ID: "download-statement", Operation: capability.OpDownload, Intent: "Download the statement", Effect: capability.EffectReadOnly,
						Confirmation: capability.ConfirmNone, Output: "statement",
						LocatorCandidates: []locator.Candidate{role("link", "Statement")},
						Postcondition:     &capability.Condition{Kind: capability.CondDownloadCompleted}},
				},
			},
			{
				ID: "movements", Intent: "Read the movements page by page", MaxVisits: 3,
				Actions: []capability.Action{
					{ID: "read-movements", Operation: capability.OpExtract, Intent: "Read movements", Effect: capability.EffectReadOnly,
						Confirmation: capability.ConfirmNone, Output: "movements",
						LocatorCandidates: []locator.Candidate{role("row", "")},
						Postcondition:     produced("movements"),
						Extract: &capability.Extraction{Mode: capability.ExtractList, MaxRecords: 100, LimitInput: "limit", Fields: []capability.Field{
							{Name: "amount", Type: capability.FieldNumber, LocatorCandidates: []locator.Candidate{{Strategy: locator.CSS, CSS: "td.amount"}}},
							{Name: "booked", Type: capability.FieldBoolean, LocatorCandidates: []locator.Candidate{{Strategy: locator.CSS, CSS: "td.booked"}}},
							{Name: "seq", Type: capability.FieldInteger, LocatorCandidates: []locator.Candidate{{Strategy: locator.CSS, CSS: "td.seq"}}},
						}}},
					{ID: "next-page", Operation: capability.OpClick, Intent: "Next page", Effect: capability.EffectReadOnly,
						Confirmation: capability.ConfirmNone, LocatorCandidates: []locator.Candidate{role("button", "Next")},
						Postcondition: visible(role("row", ""))},
				},
				Transitions: []capability.Transition{
					{When: capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: []locator.Candidate{role("button", "Next")}}, To: "movements"},
					{When: capability.Condition{Kind: capability.CondAlways}, To: capability.TerminalCompleted},
				},
			},
		},
	}
}

func visible(c locator.Candidate) *capability.Condition {
	return &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: []locator.Candidate{c}}
}

func produced(name string) *capability.Condition {
	return &capability.Condition{Kind: capability.CondOutputProduced, Output: name}
}

// tb is the part of testing.TB the helpers need, so examples can use them.
type tb interface {
	Helper()
	Fatal(args ...any)
}

// exampleTB stops an example on a helper failure.
type exampleTB struct{}

func (exampleTB) Helper()           {}
func (exampleTB) Fatal(args ...any) { panic(fmt.Sprint(args...)) }

func execHash(t tb, c *capability.Capability) string {
	t.Helper()
	h, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func intp(i int) *int { return &i }

func mustHash(t tb, v any) string {
	t.Helper()
	h, err := canonjson.Digest(v)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// statementBytes are the bytes of the downloaded statement of runs built
// by cleanRun.
var statementBytes = []byte("%PDF-1.7 statement\n")

// cleanRun builds the evidence of a clean live connected run of
// testCapability: two pages of movements, every output produced. mutate,
// when set, changes it before the receipt's output records are computed.
func cleanRun(t tb, c *capability.Capability, mutate func(*runwrite.Run)) *runwrite.Run {
	t.Helper()
	eh := execHash(t, c)
	qh, err := receipt.HashInput(eh, "query", "Rossi")
	if err != nil {
		t.Fatal(err)
	}
	lh, _ := receipt.HashInput(eh, "limit", 10)
	fileHash := canonjson.SumBytes(statementBytes)
	n := int64(len(statementBytes))
	outputs := &receipt.Outputs{Outputs: []receipt.OutputValue{
		{Name: "member", Kind: "record", Exposure: "model_and_artifact", Produced: true,
			Value: map[string]any{"name": "Mario Rossi", "balance": 1204.5, "since": "2019-04-01"}},
		{Name: "movements", Kind: "record_set", Exposure: "artifact_only", Produced: true,
			Value: []any{map[string]any{"amount": -12.5, "booked": true, "seq": 1}, map[string]any{"amount": 300, "booked": false, "seq": nil}}},
		{Name: "note", Kind: "text", Exposure: "model_summary", Produced: true, Value: "VIP member"},
		{Name: "statement", Kind: "download_set", Exposure: "artifact_only", Produced: true,
			Files: []receipt.DownloadFile{{Path: "/home/op/Downloads/statement.pdf", Bytes: n, SHA256: fileHash}}},
	}}
	act := func(id, ms string, visit int, op capability.Operation, idx int) receipt.ActionRecord {
		return receipt.ActionRecord{ID: id, Milestone: ms, Visit: visit, Operation: string(op), Effect: "read_only",
			Status: receipt.ActionPassed, LocatorIndex: intp(idx), Postcondition: "verified", DurationMS: 12}
	}
	actions := []receipt.ActionRecord{
		act("fill-query", "search", 1, capability.OpFill, 1),
		act("fill-pin", "search", 1, capability.OpFill, 0),
		act("submit", "search", 1, capability.OpClick, 0),
		act("read-member", "member", 1, capability.OpExtract, 0),
		act("read-note", "member", 1, capability.OpExtract, 0),
		act("download-statement", "member", 1, capability.OpDownload, 0),
		act("read-movements", "movements", 1, capability.OpExtract, 0),
		act("next-page", "movements", 1, capability.OpClick, 0),
		act("read-movements", "movements", 2, capability.OpExtract, 0),
		act("next-page", "movements", 2, capability.OpClick, 0),
	}
	actions[3].Records = intp(1)
	actions[4].Records = intp(1)
	actions[6].Records = intp(1)
	actions[8].Records = intp(1)
	actions[5].Download = &receipt.DownloadProof{Mechanism: "directory", Evidence: "download-directory-bytes-verified", Bytes: n, SHA256: fileHash}
	run := &runwrite.Run{
		Receipt: &receipt.Receipt{
			RunID:         runwrite.NewRunID(),
			Capability:    receipt.CapabilityRef{ID: c.ID, Version: c.Version, ExecutionHash: eh, DiscoveryHash: discoveryHash},
			ExecutionMode: receipt.ModeLiveConnected,
			StartedAt:     "2026-03-01T10:00:00Z",
			FinishedAt:    "2026-03-01T10:00:03.5Z",
			DurationMS:    3500,
			Inputs: []receipt.InputRecord{
				{Name: "query", Present: true, Hash: qh},
				{Name: "pin", Present: true, Secret: true},
				{Name: "limit", Present: true, Hash: lh},
			},
			Milestones: []receipt.MilestoneRecord{
				{ID: "search", Visit: 1, Status: "completed", Next: "member"},
				{ID: "member", Visit: 1, Status: "completed", Next: "movements"},
				{ID: "movements", Visit: 1, Status: "completed", Next: "movements"},
				{ID: "movements", Visit: 2, Status: "completed", Next: "completed"},
			},
			Actions:     actions,
			Terminal:    receipt.Terminal{State: receipt.TerminalCompleted},
			Environment: receipt.Environment{Browser: "Chrome/156.0.8078.73", ProtocolVersion: "1.3", Library: "vera/v0.1.0", GoVersion: "go1.26.8", OS: "linux", Arch: "amd64"},
			Origins:     []string{testOrigin},
			Clean:       true,
		},
		Outputs: outputs,
	}
	if mutate != nil {
		mutate(run)
	}
	fillOutputRecords(t, run)
	return run
}

// fillOutputRecords recomputes the receipt's output records from the
// outputs (after a JSON round trip, as a loader sees them).
func fillOutputRecords(t tb, run *runwrite.Run) {
	t.Helper()
	raw, err := json.Marshal(run.Outputs)
	if err != nil {
		t.Fatal(err)
	}
	var o receipt.Outputs
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&o); err != nil {
		t.Fatal(err)
	}
	run.Receipt.Outputs = nil
	for i := range o.Outputs {
		v := &o.Outputs[i]
		h, err := receipt.OutputHash(v)
		if err != nil {
			t.Fatal(err)
		}
		run.Receipt.Outputs = append(run.Receipt.Outputs, receipt.OutputRecord{
			Name: v.Name, Kind: v.Kind, Exposure: v.Exposure, Count: runwrite.OutputCount(v), Hash: h})
	}
}

// writeRun writes run under a fresh temporary parent and returns the run
// directory.
func writeRun(t testing.TB, run *runwrite.Run) string {
	t.Helper()
	dir, _, err := runwrite.WriteRun(t.TempDir(), run)
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func readFile(t testing.TB, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rewrite replaces a run file's bytes (the directory and files are
// owner-only, so this works as the owner).
func rewrite(t testing.TB, dir, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// relock rewrites run.lock.json so it hashes the current files, as a
// tamperer who controls the whole directory would.
func relock(t testing.TB, dir string) {
	t.Helper()
	var l receipt.Lock
	if err := json.Unmarshal(readFile(t, dir, receipt.FileLock), &l); err != nil {
		t.Fatal(err)
	}
	l.Receipt = canonjson.SumBytes(readFile(t, dir, receipt.FileReceipt))
	l.Outputs = canonjson.SumBytes(readFile(t, dir, receipt.FileOutputs))
	if l.RecoveryProposals != "" {
		l.RecoveryProposals = canonjson.SumBytes(readFile(t, dir, receipt.FileProposals))
	}
	b, err := canonjson.Marshal(&l)
	if err != nil {
		t.Fatal(err)
	}
	rewrite(t, dir, receipt.FileLock, b)
}

// editReceipt decodes the run's receipt, lets edit change it, writes it
// back canonically and relocks.
func editReceipt(t testing.TB, dir string, edit func(*receipt.Receipt)) {
	t.Helper()
	r, err := receipt.LoadReceipt(readFile(t, dir, receipt.FileReceipt))
	if err != nil {
		t.Fatal(err)
	}
	edit(r)
	b, err := canonjson.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	rewrite(t, dir, receipt.FileReceipt, b)
	relock(t, dir)
}

// makeRecovered turns a clean run into one whose first action succeeded
// only through a recovery proposal.
func makeRecovered(run *runwrite.Run) {
	c := testCapability()
	a, _, _, _ := c.Action("fill-query")
	ch, _ := canonjson.Digest(a)
	run.Proposals = &receipt.Proposals{Proposals: []receipt.Proposal{{
		Target:       receipt.RecoveryTarget{ActionID: "fill-query"},
		Locator:      role("textbox", "Member search"),
		Rationale:    "the search box was renamed",
		Uncertainty:  "low",
		ContractHash: ch,
		FailureHash:  canonjson.SumBytes([]byte("locator not found")),
		Outcome:      "recovered",
	}}}
	r := run.Receipt
	r.Actions[0].Recovered = true
	r.Actions[0].LocatorIndex = intp(0)
	r.Recovered = true
	r.LocatorChangesDuringRun = true
	r.Clean = false
}

func sum(b []byte) string { return canonjson.SumBytes(b) }
