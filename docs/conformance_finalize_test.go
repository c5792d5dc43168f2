package docs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// Finalize cases (kind finalize, FORMAT.md 12.1): a capability file and
// run folders of the tree handed to receipt.Finalize; the codes are the
// failed checks of 8.5 (FinalizeError.Check), sorted and deduplicated,
// none when it promotes. The run folders are run cases of their own
// (runs/live-a, runs/live-b: the two live runs of the validated bundle).

// exemptFinalizeChecks are the checks of 8.5 only CheckClaim applies; the
// bundle claim cases pin CheckClaim (10.4).
var exemptFinalizeChecks = map[string]string{
	"receipt":      "CheckClaim only: Finalize reads run folders, whose receipts 10.2 loads (a load failure is verify)",
	"claim":        "CheckClaim only: Finalize writes the validation metadata, it never reads one",
	"receipt_hash": "CheckClaim only: Finalize computes the receipt digests it records",
}

// kindFinalize is the kind of a Finalize case.
const kindFinalize = "finalize"

// Bases of the live runs.
const (
	liveA = "live-a"
	liveB = "live-b"
)

// A finalizeCase is one Finalize vector.
type finalizeCase struct {
	id         string
	capability string   // tree path of the capability
	runs       []string // tree paths of the run folders
	codes      []string
	rules      []string
	note       string
}

var finalizeCases = []finalizeCase{
	{id: "valid", capability: capDiscovered, runs: []string{"runs/" + liveA, "runs/" + liveB},
		rules: []string{"finalize.capability", "finalize.verify", "finalize.receipt", "finalize.pair", "finalize.candidates", "finalize.result"},
		note:  "the worked capability and its two live runs: promoted (capabilities/valid/teller-validated.json is the result with finalized_at 2026-03-04T12:00:00Z)"},
	{id: "capability-validated", capability: capValidated, runs: []string{"runs/" + liveA, "runs/" + liveB},
		codes: []string{"state"}, rules: []string{"finalize.capability"}, note: "an already validated_local capability is not promoted again"},
	{id: "capability-invalid", capability: "capabilities/invalid/locator-too-long.json", runs: []string{"runs/" + liveA, "runs/" + liveB},
		codes: []string{"capability", "execution_hash", "verify"}, rules: []string{"finalize.capability", "finalize.verify", "finalize.receipt"},
		note: "a capability that parses and does not validate (locator_too_long); the runs, of another execution hash, fail 10.2 against it and their receipts name another execution hash"},
	{id: "one-run", capability: capDiscovered, runs: []string{"runs/" + liveA},
		codes: []string{"runs"}, rules: []string{"finalize.capability"}, note: "one run directory; validation needs exactly two"},
	{id: "run-does-not-verify", capability: capDiscovered, runs: []string{"runs/" + liveA, "runs/live-b-tampered"},
		codes: []string{"verify"}, rules: []string{"finalize.verify"}, note: "the second live run's outputs.json changed after its lock was written: it fails 10.2 (hash_mismatch)"},
	{id: "same-run-twice", capability: capDiscovered, runs: []string{"runs/" + liveA, "runs/" + liveA},
		codes: []string{"unique"}, rules: []string{"finalize.pair"}, note: "one run folder given twice"},
	{id: "simulated-run", capability: capDiscovered, runs: []string{"runs/" + liveA, "runs/valid"},
		codes: []string{"execution_mode"}, rules: []string{"finalize.receipt", "finalize.pair"}, note: "the second run is the simulated worked run"},
}

// liveRunCases are the two live runs as run cases, so the Finalize cases
// can name their folders.
var liveRunCases = []runCase{
	{id: liveA, from: liveA, rules: []string{"run.file.receipt"}, note: "the first live run of the validated bundle (mode live_connected_chrome); a Finalize input"},
	{id: liveB, from: liveB, rules: []string{"run.file.receipt"}, note: "the second live run of the validated bundle; a Finalize input"},
	{id: "live-b-tampered", from: liveB, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.relock = false
		rf.edits = map[string]func([]byte) []byte{receipt.FileOutputs: replaceOnce("Ada Lovelace", "Ada Byron")}
	}, codes: []string{"hash_mismatch"}, rules: []string{"run.links"}, note: "the second live run with outputs.json changed after the lock was written; a Finalize input"},
}

func init() { runCases = append(runCases, liveRunCases...) }

// finalizeConfCases returns the manifest entries of finalizeCases.
func finalizeConfCases() []*confCase {
	var out []*confCase
	for _, fc := range finalizeCases {
		out = append(out, &confCase{ID: "finalize." + fc.id, Kind: kindFinalize, Path: fc.capability, Runs: fc.runs,
			Codes: sortedUnique(fc.codes), Rules: sortedUnique(fc.rules), Note: fc.note})
	}
	return out
}

// finalizeCodes parses the capability at p and runs receipt.Finalize over
// the run folders; it returns the sorted distinct failed checks.
func finalizeCodes(p string, runs []string) ([]string, error) {
	raw, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		return nil, fmt.Errorf("a finalize case's capability must parse: %w", err)
	}
	_, err = receipt.Finalize(context.Background(), c, runs)
	if err == nil {
		return []string{}, nil
	}
	var list receipt.FinalizeErrors
	var one *receipt.FinalizeError
	var codes []string
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			codes = append(codes, string(e.Check))
		}
	case errors.As(err, &one):
		codes = append(codes, string(one.Check))
	default:
		return nil, fmt.Errorf("finalize error without a check: %w", err)
	}
	return sortedUnique(codes), nil
}

// finalizeRunDirs joins a case's run paths under root.
func finalizeRunDirs(root string, runs []string) []string {
	out := make([]string, len(runs))
	for i, r := range runs {
		out[i] = filepath.Join(root, filepath.FromSlash(r))
	}
	return out
}

// capDecoy is the decoy variant of the worked capability: look-up's
// first candidate, role button "Look up", also matches the help panel's
// button of that name, so the CSS fallback wins every time (3.3.2).
const capDecoy = "capabilities/valid/teller-decoy.json"

// Bases of the decoy runs.
const (
	decoyA = "decoy-live-a"
	decoyB = "decoy-live-b"
)

// decoyCapability derives the decoy variant from the worked capability.
func decoyCapability(t *testing.T, worked *capability.Capability) *capability.Capability {
	t.Helper()
	c, err := worked.Clone()
	if err != nil {
		t.Fatal(err)
	}
	a, _, _, ok := c.Action("look-up")
	if !ok {
		t.Fatal("no look-up")
	}
	a.LocatorCandidates = append(a.LocatorCandidates, locator.Candidate{Strategy: locator.CSS, CSS: "button#look-up"})
	if err := c.Validate(); err != nil {
		t.Fatalf("decoy capability: %v", err)
	}
	return c
}

// buildDecoyRuns runs the decoy capability twice on a teller page whose
// help panel repeats the "Look up" button and declares both runs live,
// as buildBase does for the worked runs.
func buildDecoyRuns(t *testing.T, c *capability.Capability) map[string]*runFiles {
	t.Helper()
	tmp := t.TempDir()
	site := &runtimetest.Site{
		Pages: map[string]*runtimetest.Page{exampleOrigin + "/members": {
			Title: "Members",
			Body: []*runtimetest.Node{
				{Tag: "input", ID: "member-id", Label: "Member ID"},
				{Tag: "input", ID: "passcode", Label: "Passcode", Attributes: map[string]string{"type": "password"}},
				{Tag: "button", ID: "look-up", Text: "Look up"},
				{Tag: "aside", ID: "help", Children: []*runtimetest.Node{
					{Tag: "p", Text: "To find a member, type the ID and press the button below."},
					{Tag: "button", ID: "look-up-help", Text: "Look up"},
				}},
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
	out := map[string]*runFiles{}
	for i, name := range []string{decoyA, decoyB} {
		d := runtimetest.NewDriver(site)
		res, err := runtime.Execute(context.Background(), c, map[string]any{exampleInputName: exampleMemberID, "passcode": examplePasscode},
			runtime.WithDriver(d), runtime.WithRunDir(filepath.Join(tmp, name)))
		if cerr := d.Close(); cerr != nil {
			t.Fatal(cerr)
		}
		if err != nil {
			t.Fatalf("decoy run %s: %v", name, err)
		}
		if res.State != receipt.TerminalCompleted {
			t.Fatalf("decoy run %s: state %s (%+v)", name, res.State, res.Failure)
		}
		rf := loadRun(t, res.RunDir, []string{confRunIDLiveA, confRunIDLiveB}[i])
		rf.r.ExecutionMode = receipt.ModeLiveConnected
		out[name] = rf
	}
	return out
}

// livePairCases are Finalize cases over live-a and a relocked variant of
// live-b that breaks one receipt or pair check of 10.3 (and verifies on
// its own unless codes holds verify); each variant is a run case too.
var livePairCases = []struct {
	id    string
	edit  func(t *testing.T, b *confBase, rf *runFiles)
	codes []string
	rules []string
	note  string
}{
	{id: "environment", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Environment.Arch = "arm64" },
		codes: []string{"environment"}, rules: []string{"finalize.pair"}, note: "the second run declares another arch"},
	{id: "not-clean", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Clean = false },
		codes: []string{"clean"}, rules: []string{"finalize.receipt"}, note: "the second run does not declare itself clean"},
	{id: "failed", edit: func(t *testing.T, b *confBase, rf *runFiles) { failAt(t, rf, "export-statement", failedDownload()) },
		codes: []string{"clean", "outputs", "terminal"}, rules: []string{"finalize.receipt", "finalize.pair"},
		note: "the second run failed at the download: not completed, not clean, other output records"},
	{id: "handed-off", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.HandedOff, rf.r.Clean = true, false },
		codes: []string{"clean", "handed_off"}, rules: []string{"finalize.receipt"}, note: "a person was offered the page in the second run (so it is not clean)"},
	{id: "version", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Capability.Version = "1.0.1" },
		codes: []string{"verify", "version"}, rules: []string{"finalize.verify", "finalize.receipt", "finalize.pair"}, note: "the second receipt pins version 1.0.1"},
	{id: "capability-id", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Capability.ID = "teller.member-close" },
		codes: []string{"capability_id", "verify"}, rules: []string{"finalize.verify", "finalize.receipt"}, note: "the second receipt names another capability id"},
	{id: "discovery-hash", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Capability.DiscoveryHash = "sha256:" + strings.Repeat("0", 64)
	}, codes: []string{"discovery_hash", "verify"}, rules: []string{"finalize.verify", "finalize.receipt", "finalize.pair"}, note: "the second receipt names another discovery hash"},
	{id: "proposals", edit: withProposals,
		codes: []string{"clean", "locator_changes", "recovered"}, rules: []string{"finalize.verify", "finalize.receipt"},
		note: "the second run carries a rejected recovery proposal (v2 lock): not clean, a locator change, a proposal"},
}

func init() {
	for _, lc := range livePairCases {
		id := "live-b-" + lc.id
		rc := runCase{id: id, from: liveB, edit: lc.edit, rules: []string{"run.file.receipt"},
			note: "a variant of live-b that verifies on its own (" + lc.note + "); a Finalize input"}
		if slices.Contains(lc.codes, "verify") {
			rc.codes, rc.rules = []string{"capability"}, []string{"run.cap.ref"}
			rc.note = "a variant of live-b that fails 10.2 step 7 (" + lc.note + "); a Finalize input"
		}
		runCases = append(runCases, rc)
		finalizeCases = append(finalizeCases, finalizeCase{id: "pair-" + lc.id, capability: capDiscovered,
			runs: []string{"runs/" + liveA, "runs/" + id}, codes: lc.codes, rules: lc.rules, note: lc.note})
	}
	finalizeCases = append(finalizeCases, finalizeCase{id: "decoy-candidate", capability: capDecoy, runs: []string{"runs/" + decoyA, "runs/" + decoyB},
		codes: []string{"decoy_candidate"}, rules: []string{"finalize.candidates"},
		note: "look-up's first candidate matched two buttons in both runs (locator_matches [2,1]) and never won: a decoy (3.3.2)"})
	runCases = append(runCases,
		runCase{id: decoyA, from: decoyA, rules: []string{"run.seq.locator"}, note: "a live run of the decoy capability: look-up resolved by its second candidate; a Finalize input"},
		runCase{id: decoyB, from: decoyB, rules: []string{"run.seq.locator"}, note: "the second live run of the decoy capability; a Finalize input"})
}
