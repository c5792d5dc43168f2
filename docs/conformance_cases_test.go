package docs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"github.com/vera-run/vera/internal/runwrite"
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
)

// The conformance cases. A new problem code or rule is one entry here;
// TestConformanceCoverage fails until it has one. Each entry names the
// codes Vera must report (sorted and deduplicated when written) and the
// FORMAT.md section 10 rule ids it pins; generation fails when Vera
// reports other codes.

// Codes no vector can carry, with the reason. The coverage test fails
// when an exempt code gains a vector.
var (
	exemptRunCodes = map[string]string{}
	// unsafe_file needs a symbolic link, FIFO, socket or device in the
	// bundle; the tree is symlink-free and Git stores neither.
	exemptBundleCodes = map[string]string{}
	// Two validation codes are unreachable from any file: strict parsing
	// (FORMAT.md 3.1) rejects the document first with a parse code that
	// has its own vectors. Validate keeps them for capabilities built in
	// memory; the capability package's tests pin them there.
	exemptCapabilityCodes = map[string]string{
		"locator_invalid_utf8": "a JSON text with invalid UTF-8 or a lone surrogate in a locator string fails strict parsing with parse code syntax (vector capability.invalid.* of stage parse); only a capability built in memory reaches Validate with such a string",
		"unsupported_schema":   "a document whose schema is missing or not browser-capability/v1 fails strict parsing with parse code unsupported_schema (it has a parse-stage vector); only a capability built in memory reaches Validate with another schema",
	}
	exemptParseCodes = map[string]string{
		"read_error": "reported when the io.Reader handed to capability.Parse returns an error; a file that exists and is readable can never produce it, so no vector file can carry it",
		"too_large":  "reported for a document over capability.MaxDocumentBytes (4 MiB = 4194304 bytes); a vector would put 4 MiB + 1 byte into every checkout of the tree, which is kept small (the capability package's tests pin it with a generated reader)",
	}
	// Every rule of section 10 has a vector: the Finalize rules through
	// the finalize cases of conformance_finalize_test.go.
	exemptRules = map[string]string{}
)

// closedTerminalStates are the terminal states with a valid and an
// invalid run vector (business_outcome, native_gap and stopped_at_gate
// from the close capability of conformance_gate_test.go).
var closedTerminalStates = []string{"completed", "failed", "recovery_requested", "blocked_by_unknown_modal",
	"business_outcome", "native_gap", "stopped_at_gate"}

// A runCase derives one run folder from the normalized worked run.
type runCase struct {
	id         string
	absent     bool   // no folder at all
	asFile     []byte // the case's path is a regular file with these bytes
	capability string // "" means the discovered worked capability
	edit       func(t *testing.T, b *confBase, rf *runFiles)
	codes      []string
	rules      []string
	note       string

	// from names the base run of the close capability
	// (conformance_gate_test.go); "" is the worked run.
	from string
}

// Run rule groups.
var (
	rulesFile   = []string{"run.directory", "run.read", "run.file", "run.file.lock", "run.file.receipt", "run.file.outputs", "run.file.secret", "run.links", "run.outputs"}
	rulesAgainC = []string{"run.cap.ref", "run.cap.inputs", "run.cap.outputs", "run.cap.order", "run.cap.record-counts", "run.cap.origins", "run.cap.download-evidence"}
	rulesSeq    = []string{"run.seq.start", "run.seq.visits", "run.seq.next", "run.seq.completed", "run.seq.actions", "run.seq.locator", "run.seq.last", "run.seq.limits", "run.verdict"}
)

func join(groups ...[]string) []string { return slices.Concat(groups...) }

// replaceOnce replaces old by new in b and panics when old is absent, so
// a stale tamper never silently produces the base document.
func replaceOnce(old, new string) func([]byte) []byte {
	return func(b []byte) []byte {
		if !bytes.Contains(b, []byte(old)) {
			panic(fmt.Sprintf("tamper: %q not found", old))
		}
		return bytes.Replace(b, []byte(old), []byte(new), 1)
	}
}

func actionIndex(r *receipt.Receipt, id string) int {
	for i, a := range r.Actions {
		if a.ID == id {
			return i
		}
	}
	panic("tamper: no action " + id)
}

// failAt turns the run into one that failed at action id: later actions
// and visits dropped, the outputs they would have produced unproduced.
func failAt(t *testing.T, rf *runFiles, id string, f receipt.Failure) {
	t.Helper()
	endAt(t, rf, id, receipt.TerminalFailed, f)
}

// endAt is failAt with another terminal state.
func endAt(t *testing.T, rf *runFiles, id string, state receipt.TerminalState, f receipt.Failure) {
	t.Helper()
	k := actionIndex(rf.r, id)
	r := rf.r
	a := &r.Actions[k]
	a.Status = receipt.ActionFailed
	a.Download, a.Records, a.Postcondition = nil, nil, ""
	a.Failure = &f
	r.Actions = r.Actions[:k+1]
	for i := range r.Milestones {
		if r.Milestones[i].ID == a.Milestone {
			r.Milestones[i].Status = "failed"
			r.Milestones[i].Next = ""
			r.Milestones = r.Milestones[:i+1]
			break
		}
	}
	r.Terminal = receipt.Terminal{State: state, Failure: &f, Action: id}
	r.Clean = false
	produced := map[string]bool{}
	for _, act := range r.Actions {
		if act.Status == receipt.ActionPassed && (act.Records != nil || act.Download != nil) {
			produced[outputOf(act.ID)] = true
		}
	}
	for i := range r.Outputs {
		if produced[r.Outputs[i].Name] {
			continue
		}
		o := &rf.o.Outputs[i]
		o.Value, o.Files, o.Produced = nil, nil, false
		r.Outputs[i].Count = runwrite.OutputCount(o)
		h, err := receipt.OutputHash(o)
		if err != nil {
			t.Fatal(err)
		}
		r.Outputs[i].Hash = h
	}
}

// outputOf is the output each worked action fills.
func outputOf(action string) string {
	return map[string]string{"read-summary": "member", "export-statement": "statements"}[action]
}

func failedDownload() receipt.Failure {
	return receipt.Failure{Category: receipt.CategoryDownloadFailed, Reason: "download_timeout",
		DetailHash: runwrite.DetailHash("no settled new file")}
}

// proposalsFor returns a rejected recovery proposal for action look-up of
// c, with its contract hash.
func proposalsFor(t *testing.T, c *capability.Capability, outcome string) *receipt.Proposals {
	t.Helper()
	a, _, _, ok := c.Action("look-up")
	if !ok {
		t.Fatal("no look-up action")
	}
	h, err := canonjson.Digest(a)
	if err != nil {
		t.Fatal(err)
	}
	return &receipt.Proposals{Schema: receipt.SchemaProposals, Proposals: []receipt.Proposal{{
		Target:       receipt.RecoveryTarget{ActionID: "look-up"},
		Locator:      map[string]any{"strategy": "role", "role": "button", "name": "Find member"},
		Rationale:    "the button was renamed",
		ContractHash: h,
		Outcome:      outcome,
	}}}
}

func withProposals(t *testing.T, b *confBase, rf *runFiles) {
	rf.p = proposalsFor(t, b.discovered, "rejected")
	rf.p.RunID = rf.r.RunID
	rf.r.LocatorChangesDuringRun = true
	rf.r.Clean = false
}

var runCases = []runCase{
	{id: "valid", rules: join(rulesFile, rulesAgainC, rulesSeq),
		note: "the worked run of 4.7, normalized (run id, times, environment, download paths)"},
	{id: "valid-failed", edit: func(t *testing.T, b *confBase, rf *runFiles) { failAt(t, rf, "export-statement", failedDownload()) },
		rules: []string{"run.file.receipt", "run.seq.last", "run.cap.record-counts"},
		note:  "the run failed at the download (download_failed, download_timeout); the record was produced, the download set was not"},
	{id: "valid-recovery-requested", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		endAt(t, rf, "look-up", receipt.TerminalRecoveryRequested, receipt.Failure{Category: receipt.CategoryLocatorNotFound, Reason: "locator_not_found"})
	}, rules: []string{"run.file.receipt", "run.seq.last"}, note: "the look-up button never resolved: recovery_requested with its locator_not_found failure (8.1)"},
	{id: "recovery-requested-wrong-failure", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		endAt(t, rf, "look-up", receipt.TerminalRecoveryRequested, failedDownload())
	}, codes: []string{"inconsistent"}, rules: []string{"run.file.receipt"}, note: "recovery_requested carrying a download_failed failure (8.1)"},
	{id: "valid-blocked-by-unknown-modal", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		endAt(t, rf, "look-up", receipt.TerminalBlockedByUnknownModal, receipt.Failure{Category: receipt.CategoryUIAssertionFailed, Reason: "unknown_modal"})
	}, rules: []string{"run.file.receipt"}, note: "an untargeted dialog appeared after the look-up click (8.1)"},
	{id: "blocked-by-unknown-modal-wrong-reason", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		endAt(t, rf, "look-up", receipt.TerminalBlockedByUnknownModal, receipt.Failure{Category: receipt.CategoryUIAssertionFailed, Reason: "postcondition_failed"})
	}, codes: []string{"inconsistent"}, rules: []string{"run.file.receipt"}, note: "blocked_by_unknown_modal with reason postcondition_failed (8.1)"},
	{id: "valid-recovery-proposal", edit: withProposals,
		rules: []string{"run.file.proposals", "run.proposals", "run.cap.proposals", "run.links"},
		note:  "a rejected recovery proposal: v2 lock, locator_changes_during_run, not clean, not recovered"},
	{id: "valid-mode-omitted", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.ExecutionMode = "" },
		rules: []string{"run.file.receipt"}, note: "a receipt without execution_mode (unverified) still verifies; it never counts toward validation"},

	// 10.2 step 1: the directory.
	{id: "missing-directory", absent: true, codes: []string{"missing_file"}, rules: []string{"run.directory"},
		note: "the run folder does not exist"},
	{id: "not-a-directory", asFile: []byte("not a run\n"), codes: []string{"unreadable"}, rules: []string{"run.directory"},
		note: "the run path is a regular file"},
	{id: "incomplete-no-lock", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.drop = []string{receipt.FileLock} },
		codes: []string{"incomplete"}, rules: []string{"run.directory"}, note: "run.lock.json absent: never committed"},
	{id: "incomplete-temp-file", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.extra = map[string][]byte{".run.receipt.json.tmp-0123456789abcdef": []byte("{")}
	}, codes: []string{"incomplete"}, rules: []string{"run.directory"}, note: "a leftover temporary file of an atomic write"},
	{id: "unexpected-entry", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.extra = map[string][]byte{"notes.txt": []byte("hello\n")}
	}, codes: []string{"unexpected_file"}, rules: []string{"run.directory"}, note: "an entry that is not part of a run"},
	{id: "too-many-entries", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.extra = map[string][]byte{}
		for i := 0; i < 62; i++ {
			rf.extra[fmt.Sprintf("extra-%02d.txt", i)] = []byte{}
		}
		rf.extra[".run.receipt.json.tmp-0123456789abcdef"] = []byte("{")
	}, codes: []string{"unexpected_file"}, rules: []string{"run.directory"},
		note: "66 entries, a temporary file among them: counting stops at the 65th; no entry is reported by name (not even the temporary file), one unexpected_file for the directory; the run files are looked up by name and verify"},

	// Step 2: reading.
	{id: "receipt-is-directory", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.drop = []string{receipt.FileReceipt}
		rf.extra = map[string][]byte{receipt.FileReceipt + "/x": []byte("{}")}
	}, codes: []string{"unreadable"}, rules: []string{"run.read"}, note: "run.receipt.json is a directory, not a regular file"},
	{id: "outputs-missing", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.drop = []string{receipt.FileOutputs} },
		codes: []string{"missing_file"}, rules: []string{"run.read"}, note: "outputs.json absent although the lock was written"},
	{id: "lock-too-large", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.edits = map[string]func([]byte) []byte{receipt.FileLock: func(b []byte) []byte {
			return append(b, bytes.Repeat([]byte(" "), receipt.MaxLockBytes)...)
		}}
	}, codes: []string{"too_large"}, rules: []string{"run.read"}, note: "run.lock.json over 16 KiB"},

	// Step 3: each file on its own.
	{id: "receipt-trailing-data", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.edits = map[string]func([]byte) []byte{receipt.FileReceipt: func(b []byte) []byte { return append(b, '1') }}
	}, codes: []string{"malformed"}, rules: []string{"run.file"}, note: "trailing data after the receipt (relocked)"},
	{id: "receipt-duplicate-key", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.edits = map[string]func([]byte) []byte{receipt.FileReceipt: replaceOnce(`"blocked_requests":0,`, `"blocked_requests":0,"blocked_requests":0,`)}
	}, codes: []string{"malformed"}, rules: []string{"run.file"}, note: "a duplicate member (relocked)"},
	{id: "receipt-not-canonical", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.edits = map[string]func([]byte) []byte{receipt.FileReceipt: func(b []byte) []byte { return append(b, '\n') }}
	}, codes: []string{"not_canonical"}, rules: []string{"run.file"}, note: "a final newline (relocked)"},
	{id: "receipt-unknown-member", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.edits = map[string]func([]byte) []byte{receipt.FileReceipt: replaceOnce(`{"actions":`, `{"aaa":1,"actions":`)}
	}, codes: []string{"schema"}, rules: []string{"run.file"}, note: "an unknown member, canonical (relocked)"},
	{id: "receipt-wrong-schema", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Schema = "browser-run-receipt/v2" },
		codes: []string{"schema"}, rules: []string{"run.file"}, note: "schema browser-run-receipt/v2"},
	{id: "receipt-null-list", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Origins = nil },
		codes: []string{"schema"}, rules: []string{"run.file.receipt"}, note: "origins written null"},
	{id: "receipt-unknown-reason", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		f := failedDownload()
		f.Reason = "download_vanished"
		failAt(t, rf, "export-statement", f)
	}, codes: []string{"schema"}, rules: []string{"run.file.receipt"}, note: "a failure reason of the code syntax outside the closed set (8.3)"},
	{id: "receipt-unknown-mechanism", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Actions[actionIndex(rf.r, "export-statement")].Download.Mechanism = "carrier_pigeon"
	}, codes: []string{"schema"}, rules: []string{"run.file.receipt"}, note: "a download mechanism outside 8.4"},
	{id: "receipt-evidence-of-other-mechanism", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Actions[actionIndex(rf.r, "export-statement")].Download.Evidence = "download-directory-bytes-verified"
	}, codes: []string{"schema"}, rules: []string{"run.file.receipt"}, note: "mechanism browser_path with the evidence of directory"},
	{id: "receipt-completed-with-failure", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		f := failedDownload()
		rf.r.Terminal.Failure = &f
	}, codes: []string{"inconsistent"}, rules: []string{"run.file.receipt"}, note: "terminal completed carrying a failure (8.1)"},
	{id: "receipt-finished-before-started", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.FinishedAt = "2026-03-03T08:59:59Z" },
		codes: []string{"inconsistent"}, rules: []string{"run.file.receipt"}, note: "finished_at before started_at"},
	{id: "receipt-timestamp-leap-second", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.FinishedAt = "2026-03-03T09:00:60Z" },
		codes: []string{"schema"}, rules: []string{"run.file.receipt"}, note: "second 60: the timestamp grammar (1.4) has no leap second"},
	{id: "receipt-timestamp-comma-fraction", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.FinishedAt = "2026-03-03T09:00:01,25Z" },
		codes: []string{"schema"}, rules: []string{"run.file.receipt"}, note: "a comma before the fraction (1.4)"},
	{id: "receipt-timestamp-one-digit-hour", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.StartedAt = "2026-03-03T9:00:00Z" },
		codes: []string{"schema"}, rules: []string{"run.file.receipt"}, note: "a one-digit hour (1.4)"},
	{id: "valid-timestamp-offset", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.StartedAt, rf.r.FinishedAt = "2026-03-03T10:00:00+01:00", "2026-03-03T09:00:01.250000000-00:00"
	}, rules: []string{"run.file.receipt"}, note: "offsets +01:00 and -00:00 and nine fraction digits are timestamps of 1.4; they compare as instants"},
	{id: "receipt-blank-label", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Environment.OS = " " },
		codes: []string{"schema"}, rules: []string{"run.file.receipt"}, note: "a required environment label that is one space (1.4: not blank)"},
	{id: "receipt-zero-width-label", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Environment.Arch = "\u200b" },
		codes: []string{"schema"}, rules: []string{"run.file.receipt"}, note: "a required environment label of one zero-width space (1.4: blank)"},
	{id: "receipt-nul-in-label", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Environment.Library = "vera\x00" },
		codes: []string{"schema"}, rules: []string{"run.file.receipt"}, note: "an escaped NUL (\\u0000) in an environment label (1.4)"},
	{id: "receipt-bidi-in-label", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Environment.Browser = "Chromium \u202e131" },
		codes: []string{"schema"}, rules: []string{"run.file.receipt"}, note: "a right-to-left override in an environment label (1.4)"},
	{id: "valid-empty-protocol-version", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Environment.ProtocolVersion = "" },
		rules: []string{"run.file.receipt"}, note: "protocol_version may be empty (omitted)"},
	{id: "receipt-credential", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Environment.Browser = "Chromium ghp_" + strings.Repeat("a1B2", 9)
	}, codes: []string{"secret"}, rules: []string{"run.file.secret"}, note: "a GitHub-token-shaped string in the environment"},
	{id: "outputs-relative-path", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.o.Outputs[1].Files[0].Path = "statement-1.csv"
	}, codes: []string{"schema"}, rules: []string{"run.file.outputs"}, note: "a download path that is not absolute (4.2)"},
	{id: "outputs-null-list", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.edits = map[string]func([]byte) []byte{receipt.FileOutputs: func([]byte) []byte {
			return []byte(`{"outputs":null,"run_id":"` + confRunID + `","schema":"browser-run-outputs/v1"}`)
		}}
	}, codes: []string{"link", "schema"}, rules: []string{"run.file.outputs"}, note: "outputs written null (relocked)"},

	// Step 4: links.
	{id: "lock-hash-mismatch", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.relock = false
		rf.edits = map[string]func([]byte) []byte{receipt.FileOutputs: replaceOnce("Ada Lovelace", "Ada Byron")}
	}, codes: []string{"hash_mismatch"}, rules: []string{"run.links"}, note: "outputs.json changed after the lock was written"},
	{id: "run-id-mismatch", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.o.RunID = confRunIDLiveA },
		codes: []string{"link"}, rules: []string{"run.links"}, note: "outputs.json carries another run id"},
	{id: "proposals-under-v1-lock", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		withProposals(t, b, rf)
		rf.lockSchema = receipt.SchemaLockV1
		rf.lockEdit = func(l *receipt.Lock) { l.RecoveryProposals = "" }
	}, codes: []string{"link"}, rules: []string{"run.links"}, note: "recovery.proposals.json beside a v1 lock"},
	{id: "v2-lock-without-proposals", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		withProposals(t, b, rf)
		rf.drop = []string{receipt.FileProposals}
	}, codes: []string{"missing_file"}, rules: []string{"run.links"}, note: "a v2 lock whose proposals file is absent"},

	// Step 5: the receipt against outputs.json.
	{id: "output-hash-mismatch", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.edits = map[string]func([]byte) []byte{receipt.FileOutputs: replaceOnce("Ada Lovelace", "Ada Byron")}
	}, codes: []string{"hash_mismatch"}, rules: []string{"run.outputs"}, note: "a value changed and relocked: the receipt's output hash no longer matches"},
	{id: "outputs-order-differs", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.o.Outputs[0], rf.o.Outputs[1] = rf.o.Outputs[1], rf.o.Outputs[0]
	}, codes: []string{"link"}, rules: []string{"run.outputs"}, note: "outputs.json lists the outputs in another order than the receipt"},

	// Step 6: the receipt against the proposals.
	{id: "proposals-without-locator-change", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		withProposals(t, b, rf)
		rf.r.LocatorChangesDuringRun = false
	}, codes: []string{"inconsistent"}, rules: []string{"run.proposals"}, note: "proposals, but locator_changes_during_run false"},

	// Step 7: against the capability.
	{id: "capability-version", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Capability.Version = "1.0.1" },
		codes: []string{"capability"}, rules: []string{"run.cap.ref"}, note: "the receipt pins version 1.0.1"},
	{id: "input-not-recorded", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Inputs = rf.r.Inputs[1:] },
		codes: []string{"inputs"}, rules: []string{"run.cap.inputs"}, note: "member_id is not recorded"},
	{id: "inputs-out-of-order", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Inputs[0], rf.r.Inputs[1] = rf.r.Inputs[1], rf.r.Inputs[0]
	}, codes: []string{"inputs"}, rules: []string{"run.cap.order"}, note: "inputs recorded in another order than declared"},
	{id: "outputs-out-of-order", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Outputs[0], rf.r.Outputs[1] = rf.r.Outputs[1], rf.r.Outputs[0]
		rf.o.Outputs[0], rf.o.Outputs[1] = rf.o.Outputs[1], rf.o.Outputs[0]
	}, codes: []string{"outputs"}, rules: []string{"run.cap.order"}, note: "outputs recorded in another order than declared (both files agree)"},
	{id: "record-count-above-one", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		two := 2
		rf.r.Actions[actionIndex(rf.r, "read-summary")].Records = &two
	}, codes: []string{"outputs"}, rules: []string{"run.cap.record-counts"}, note: "the extraction of a record output counts 2 records"},
	{id: "required-output-unproduced", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.o.Outputs[0].Value, rf.o.Outputs[0].Produced = nil, false
		rf.r.Outputs[0].Count = 0
		h, err := receipt.OutputHash(&rf.o.Outputs[0])
		if err != nil {
			t.Fatal(err)
		}
		rf.r.Outputs[0].Hash = h
	}, codes: []string{"outputs"}, rules: []string{"run.cap.outputs"}, note: "a completed run without its required output"},
	{id: "origin-not-allowed", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Origins = append(rf.r.Origins, "https://evil.example")
	}, codes: []string{"origin"}, rules: []string{"run.cap.origins"}, note: "the run reached an origin outside site.allowed_origins"},
	{id: "download-evidence-mismatch", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Actions[actionIndex(rf.r, "export-statement")].Download.Bytes++
	}, codes: []string{"hash_mismatch"}, rules: []string{"run.cap.download-evidence"}, note: "the action's download proof does not hash to the output's"},
	{id: "proposal-contract-hash", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		withProposals(t, b, rf)
		rf.p.Proposals[0].ContractHash = "sha256:" + strings.Repeat("0", 64)
	}, codes: []string{"hash_mismatch"}, rules: []string{"run.cap.proposals"}, note: "a proposal's contract_hash is not the targeted action's"},
	{id: "proposal-undeclared-target", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		withProposals(t, b, rf)
		rf.p.Proposals[0].Target.ActionID = "press-any-key"
	}, codes: []string{"sequence"}, rules: []string{"run.cap.proposals"}, note: "a proposal targets an undeclared action"},

	// The sequence.
	{id: "sequence-first-visit", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Milestones[0], rf.r.Milestones[1] = rf.r.Milestones[1], rf.r.Milestones[0]
	}, codes: []string{"sequence"}, rules: []string{"run.seq.start"}, note: "the first visit is not of the first milestone"},
	{id: "sequence-visit-number", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Milestones[1].Visit = 2
		for i := range rf.r.Actions {
			if rf.r.Actions[i].Milestone == rf.r.Milestones[1].ID {
				rf.r.Actions[i].Visit = 2
			}
		}
	}, codes: []string{"sequence"}, rules: []string{"run.seq.visits"}, note: "a milestone's only visit is numbered 2"},
	{id: "sequence-illegal-next", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Milestones[0].Next = "completed" },
		codes: []string{"sequence"}, rules: []string{"run.seq.next"}, note: "next names no transition target of the milestone"},
	{id: "sequence-not-completed", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Milestones[1].Status = "stopped"
		rf.r.Milestones[1].Next = ""
	}, codes: []string{"sequence"}, rules: []string{"run.seq.completed", "run.seq.next"}, note: "a completed run whose last visit has no next"},
	{id: "sequence-action-order", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Actions[0], rf.r.Actions[1] = rf.r.Actions[1], rf.r.Actions[0]
	}, codes: []string{"sequence"}, rules: []string{"run.seq.actions"}, note: "two actions of one visit against declared order"},
	{id: "sequence-locator-index", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		i := 3
		a := &rf.r.Actions[actionIndex(rf.r, "look-up")]
		a.LocatorIndex = &i
		a.LocatorMatches = []int{0, 0, 0, 1}
	}, codes: []string{"sequence"}, rules: []string{"run.seq.locator"}, note: "locator_index 3 of an action with one candidate"},
	{id: "sequence-failed-not-last", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		f := failedDownload()
		rf.r.Actions[0].Status = receipt.ActionFailed
		rf.r.Actions[0].Failure = &f
	}, codes: []string{"sequence"}, rules: []string{"run.seq.last"}, note: "a failed action before the last"},
	{id: "sequence-undeclared-terminal-action", edit: func(t *testing.T, b *confBase, rf *runFiles) {
		failAt(t, rf, "export-statement", failedDownload())
		rf.r.Terminal.Action = "press-any-key"
	}, codes: []string{"sequence"}, rules: []string{"run.seq.limits"}, note: "terminal.action names no declared action"},
}

// A bundleCase derives one bundle folder from a sealed bundle.
type bundleCase struct {
	id        string
	validated bool // from the validated_local bundle, else the discovered one
	absent    bool
	asFile    []byte // the case's path is a regular file with these bytes
	edit      func(t *testing.T, b *confBase, bf map[string][]byte)
	codes     []string
	rules     []string
	note      string
}

// relockBundle rewrites bundle.lock.json over the files present, as Seal
// would, naming capability.json's capability.
func relockBundle(t *testing.T, bf map[string][]byte) {
	t.Helper()
	c, err := capability.ParseBytes(bf[bundle.FileCapability])
	if err != nil {
		t.Fatal(err)
	}
	h, err := c.ExecutionHash()
	if err != nil {
		t.Fatal(err)
	}
	l := bundle.Lock{Schema: bundle.SchemaLock, Algorithm: bundle.AlgorithmSHA256,
		Capability: bundle.LockCapability{ID: c.ID, Version: c.Version, ExecutionHash: h}}
	var paths []string
	for p := range bf {
		if p != bundle.FileLock {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		l.Files = append(l.Files, bundle.LockFile{Path: p, Size: int64(len(bf[p])), SHA256: canonjson.SumBytes(bf[p])})
	}
	b, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	bf[bundle.FileLock] = b
}

// editCapability parses capability.json, edits it, writes it back in
// Marshal's layout and relocks.
func editCapability(t *testing.T, bf map[string][]byte, edit func(c *capability.Capability)) {
	t.Helper()
	c, err := capability.ParseBytes(bf[bundle.FileCapability])
	if err != nil {
		t.Fatal(err)
	}
	edit(c)
	if bf[bundle.FileCapability], err = c.Marshal(); err != nil {
		t.Fatal(err)
	}
	relockBundle(t, bf)
}

// editReceipt applies edit to the bundled receipt that sorts first,
// renames it to its new digest, updates validation.receipts and relocks.
func editReceipt(t *testing.T, bf map[string][]byte, edit func(r *receipt.Receipt)) {
	t.Helper()
	name := firstReceipt(bf)
	r, err := receipt.LoadReceipt(bf[name])
	if err != nil {
		t.Fatal(err)
	}
	edit(r)
	raw, err := canonjson.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	old := "sha256:" + strings.TrimSuffix(strings.TrimPrefix(name, "receipts/"), ".json")
	d := canonjson.SumBytes(raw)
	delete(bf, name)
	bf["receipts/"+strings.TrimPrefix(d, "sha256:")+".json"] = raw
	editCapability(t, bf, func(c *capability.Capability) {
		for i, x := range c.Validation.Receipts {
			if x == old {
				c.Validation.Receipts[i] = d
			}
		}
		slices.Sort(c.Validation.Receipts)
	})
}

var rulesBundle = []string{"bundle.directory", "bundle.walk", "bundle.lock", "bundle.fileset", "bundle.file", "bundle.content", "bundle.capability", "bundle.claim", "bundle.verdict"}

var bundleCases = []bundleCase{
	{id: "valid-discovered", rules: rulesBundle, note: "the worked discovered capability sealed by bundle.Seal"},
	{id: "valid-validated", validated: true,
		rules: join(rulesBundle, []string{"claim.state", "claim.names", "claim.load", "claim.receipt", "claim.run", "claim.pair", "finalize.receipt", "finalize.pair", "finalize.result"}),
		note:  "the worked capability promoted by receipt.Finalize from two live runs and sealed with both receipts"},

	{id: "missing-directory", absent: true, codes: []string{"missing"}, rules: []string{"bundle.directory"}, note: "the bundle folder does not exist"},
	{id: "not-a-directory", asFile: []byte("not a bundle\n"), codes: []string{"unsafe_file"}, rules: []string{"bundle.directory"},
		note: "the bundle path is a regular file"},
	{id: "readme-missing", edit: func(t *testing.T, b *confBase, bf map[string][]byte) { delete(bf, bundle.FileReadme) },
		codes: []string{"missing"}, rules: []string{"bundle.fileset"}, note: "README.md listed but absent"},
	{id: "unlisted-file", edit: func(t *testing.T, b *confBase, bf map[string][]byte) { bf["notes.txt"] = []byte("notes\n") },
		codes: []string{"unlisted"}, rules: []string{"bundle.fileset"}, note: "a file the lock does not list"},
	{id: "unlisted-unsafe-name", edit: func(t *testing.T, b *confBase, bf map[string][]byte) { bf["notes file.txt"] = []byte("x") },
		codes: []string{"unlisted", "unsafe_path"}, rules: []string{"bundle.fileset"}, note: "an unlisted entry whose name holds a space (5.3); names Windows cannot check out (NUL.txt) stay out of the tree"},
	{id: "forbidden-path-listed", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		bf["notes.txt"] = []byte("notes\n")
		relockBundle(t, bf)
	}, codes: []string{"forbidden"}, rules: []string{"bundle.fileset"}, note: "a listed path outside the layout (5.1)"},
	{id: "forbidden-browser-storage", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		bf["Cookies"] = []byte("x")
		relockBundle(t, bf)
	}, codes: []string{"forbidden"}, rules: []string{"bundle.fileset"}, note: "a browser storage name (5.4)"},
	{id: "readme-size-mismatch", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		bf[bundle.FileReadme] = append(bf[bundle.FileReadme], '\n')
	}, codes: []string{"mismatch"}, rules: []string{"bundle.file"}, note: "README.md changed after sealing"},
	{id: "readme-hash-mismatch", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		r := bf[bundle.FileReadme]
		r[len(r)-2] ^= 0x20
	}, codes: []string{"mismatch"}, rules: []string{"bundle.file"}, note: "README.md changed in place (same size)"},
	{id: "readme-html-magic", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		bf[bundle.FileReadme] = append([]byte("<!doctype html>\n"), bf[bundle.FileReadme]...)
		relockBundle(t, bf)
	}, codes: []string{"forbidden"}, rules: []string{"bundle.file", "bundle.content"}, note: "README.md starting as an HTML document"},
	{id: "readme-c1-control", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		bf[bundle.FileReadme] = append(bf[bundle.FileReadme], []byte("next\u0085line\n")...)
		relockBundle(t, bf)
	}, codes: []string{"forbidden"}, rules: []string{"bundle.content"}, note: "a C1 control (NEL, U+0085) in README.md"},
	{id: "readme-nul", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		bf[bundle.FileReadme] = append(bf[bundle.FileReadme], []byte("a\x00b\n")...)
		relockBundle(t, bf)
	}, codes: []string{"forbidden"}, rules: []string{"bundle.content"}, note: "a NUL in README.md (5.4)"},
	{id: "capability-html-tag", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		editCapability(t, bf, func(c *capability.Capability) { c.Goal += " <b>fast</b>" })
	}, codes: []string{"forbidden"}, rules: []string{"bundle.content"}, note: "an HTML tag in the capability's goal"},
	{id: "capability-empty-query", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		editCapability(t, bf, func(c *capability.Capability) { c.Site.Name = "Teller console at http://127.0.0.1:4010/members?" })
	}, codes: []string{"forbidden"}, rules: []string{"bundle.content"}, note: "a URL followed by an empty query in a capability string"},
	{id: "lock-missing", edit: func(t *testing.T, b *confBase, bf map[string][]byte) { delete(bf, bundle.FileLock) },
		codes: []string{"lock"}, rules: []string{"bundle.lock"}, note: "no bundle.lock.json"},
	{id: "lock-not-canonical", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		var buf bytes.Buffer
		if err := json.Indent(&buf, bf[bundle.FileLock], "", " "); err != nil {
			t.Fatal(err)
		}
		bf[bundle.FileLock] = buf.Bytes()
	}, codes: []string{"lock"}, rules: []string{"bundle.lock"}, note: "an indented lock"},
	{id: "lock-other-capability", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		bf[bundle.FileLock] = replaceOnce(`"version":"1.0.0"`, `"version":"1.0.1"`)(bf[bundle.FileLock])
	}, codes: []string{"lock"}, rules: []string{"bundle.capability"}, note: "the lock names version 1.0.1"},
	{id: "lock-too-large", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		bf[bundle.FileLock] = append(bf[bundle.FileLock], bytes.Repeat([]byte(" "), int(bundle.MaxLockBytes))...)
	}, codes: []string{"limit"}, rules: []string{"bundle.lock"}, note: "bundle.lock.json over 64 KiB"},
	{id: "too-many-entries", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		for i := 0; i < 63; i++ {
			bf[fmt.Sprintf("extra-%02d.txt", i)] = []byte{}
		}
	}, codes: []string{"limit"}, rules: []string{"bundle.walk", "bundle.lock"},
		note: "66 entries in the bundle folder: counting stops there, none of its entries is reported (no unlisted), the lock and the listed files are looked up by name and verify"},
	{id: "capability-invalid", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		editCapability(t, bf, func(c *capability.Capability) { c.Runtime.MaxActions = 20000 })
	}, codes: []string{"capability"}, rules: []string{"bundle.capability"}, note: "capability.json does not validate (max_actions_out_of_range)"},
	{id: "capability-draft", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		editCapability(t, bf, func(c *capability.Capability) { c.State = capability.StateDraft; c.Provenance.Review = nil })
	}, codes: []string{"capability"}, rules: []string{"bundle.capability"}, note: "a draft never travels"},
	{id: "claim-receipt-in-discovered", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		p := firstReceipt(b.validatedBundle)
		bf[p] = b.validatedBundle[p]
		relockBundle(t, bf)
	}, codes: []string{"claim"}, rules: []string{"bundle.claim"}, note: "a discovered capability carrying a receipt"},
	{id: "claim-receipt-missing", validated: true, edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		delete(bf, firstReceipt(bf))
		relockBundle(t, bf)
	}, codes: []string{"claim"}, rules: []string{"bundle.claim", "claim.names"}, note: "one of the two named receipts is not in the bundle"},
	{id: "claim-receipt-renamed", validated: true, edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		p := firstReceipt(bf)
		bf["receipts/"+strings.Repeat("0", 64)+".json"] = bf[p]
		delete(bf, p)
		relockBundle(t, bf)
	}, codes: []string{"mismatch"}, rules: []string{"bundle.claim"}, note: "a receipt not named by its own digest: a file check fails, so the claim is not checked"},
	{id: "claim-receipt-origin", validated: true, edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		editReceipt(t, bf, func(r *receipt.Receipt) { r.Origins = append(r.Origins, "https://evil.example") })
	}, codes: []string{"claim"}, rules: []string{"claim.run"}, note: "a bundled receipt recording an origin outside allowed_origins (10.4 step 5)"},
	{id: "claim-receipt-not-completed", validated: true, edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		editReceipt(t, bf, func(r *receipt.Receipt) { r.Clean = false })
	}, codes: []string{"claim"}, rules: []string{"claim.receipt", "finalize.receipt"}, note: "a bundled receipt that does not declare a clean run"},
	{id: "claim-receipt-simulated", validated: true, edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		editReceipt(t, bf, func(r *receipt.Receipt) { r.ExecutionMode = receipt.ModeSimulated })
	}, codes: []string{"claim"}, rules: []string{"claim.receipt"}, note: "a simulated receipt never supports a claim"},
	{id: "claim-environment-differs", validated: true, edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		editReceipt(t, bf, func(r *receipt.Receipt) { r.Environment.Arch = "arm64" })
	}, codes: []string{"claim"}, rules: []string{"claim.pair", "finalize.pair"}, note: "the two receipts declare different environments"},
	{id: "claim-receipt-not-canonical", validated: true, edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		name := firstReceipt(bf)
		raw := append(slices.Clone(bf[name]), '\n')
		old := "sha256:" + strings.TrimSuffix(strings.TrimPrefix(name, "receipts/"), ".json")
		d := canonjson.SumBytes(raw)
		delete(bf, name)
		bf["receipts/"+strings.TrimPrefix(d, "sha256:")+".json"] = raw
		editCapability(t, bf, func(c *capability.Capability) {
			for i, x := range c.Validation.Receipts {
				if x == old {
					c.Validation.Receipts[i] = d
				}
			}
			slices.Sort(c.Validation.Receipts)
		})
	}, codes: []string{"claim"}, rules: []string{"claim.load"}, note: "a bundled receipt that is not canonical JSON"},
	{id: "claim-state-discovered-validation", validated: true, edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		editCapability(t, bf, func(c *capability.Capability) { c.Validation.Claim = "two runs passed" })
	}, codes: []string{"claim"}, rules: []string{"claim.state"}, note: "the validation claim text is not the exact claim"},
}

// A capabilityEdit derives one invalid capability from the discovered
// worked capability.
type capabilityEdit struct {
	id    string
	stage string
	edit  func(c *capability.Capability)
	raw   func([]byte) []byte
	codes []string
	note  string
}

func lookUp(c *capability.Capability) *capability.Action {
	a, _, _, ok := c.Action("look-up")
	if !ok {
		panic("no look-up")
	}
	return a
}

func fillMember(c *capability.Capability) *capability.Action {
	a, _, _, ok := c.Action("fill-member-id")
	if !ok {
		panic("no fill-member-id")
	}
	return a
}

var capabilityEdits = []capabilityEdit{
	{id: "reviewed-at-lowercase-t", edit: func(c *capability.Capability) {
		c.Provenance.Review.ReviewedAt = strings.Replace(c.Provenance.Review.ReviewedAt, "T", "t", 1)
	}, codes: []string{"invalid_timestamp"}, note: "a lowercase t (1.4)"},
	{id: "reviewed-at-offset-out-of-range", edit: func(c *capability.Capability) {
		c.Provenance.Review.ReviewedAt = "2026-03-02T09:30:00+24:00"
	}, codes: []string{"invalid_timestamp"}, note: "offset hour 24 (1.4)"},
	{id: "locator-duplicate-candidate", edit: func(c *capability.Capability) {
		a := fillMember(c)
		a.LocatorCandidates = append(a.LocatorCandidates, a.LocatorCandidates[0])
	}, codes: []string{"locator_duplicate_candidate"}, note: "the same candidate twice"},
	{id: "locator-exact-role-without-name", edit: func(c *capability.Capability) {
		lookUp(c).LocatorCandidates[0].Name = ""
	}, codes: []string{"locator_exact_not_allowed"}, note: "exact on a role candidate without a name"},
	{id: "locator-foreign-field", edit: func(c *capability.Capability) {
		fillMember(c).LocatorCandidates[0].Role = "textbox"
	}, codes: []string{"locator_foreign_field"}, note: "a label candidate with a role"},
	{id: "locator-missing-value", edit: func(c *capability.Capability) {
		fillMember(c).LocatorCandidates[0].Label = " "
	}, codes: []string{"locator_missing_value"}, note: "a blank label"},
	{id: "locator-too-long", edit: func(c *capability.Capability) {
		fillMember(c).LocatorCandidates[0].Label = strings.Repeat("Member ID ", 60)
	}, codes: []string{"locator_too_long"}, note: "a 600-byte label"},
	{id: "locator-too-many-candidates", edit: func(c *capability.Capability) {
		a := fillMember(c)
		a.LocatorCandidates = nil
		for i := 0; i < 9; i++ {
			a.LocatorCandidates = append(a.LocatorCandidates, locator.Candidate{Strategy: locator.Label, Label: fmt.Sprintf("Member ID %d", i)})
		}
	}, codes: []string{"locator_too_many_candidates"}, note: "nine candidates"},
	{id: "locator-unknown-role", edit: func(c *capability.Capability) {
		lookUp(c).LocatorCandidates[0].Role = "pushbutton"
	}, codes: []string{"locator_unknown_role"}, note: "role pushbutton is not an ARIA role"},
	{id: "locator-unknown-strategy", edit: func(c *capability.Capability) {
		lookUp(c).LocatorCandidates[0] = locator.Candidate{Strategy: "xpath"}
	}, codes: []string{"locator_no_semantic_candidate", "locator_unknown_strategy"}, note: "strategy xpath: unknown, and so not the semantic first candidate an action needs"},
}

// firstReceipt returns the receipt path of the bundle files that sorts
// first, so every tamper picks the same one.
func firstReceipt(bf map[string][]byte) string {
	var name string
	for p := range bf {
		if strings.HasPrefix(p, "receipts/") && (name == "" || p < name) {
			name = p
		}
	}
	if name == "" {
		panic("tamper: no receipt")
	}
	return name
}

// secretSamples are one credential-shaped string per kind of FORMAT.md
// 5.4.1, each written into a receipt's environment label; nearMisses are
// strings of the same neighbourhood that are not credential-shaped.
var (
	secretSamples = []struct{ kind, value string }{
		{"private-key", "-----BEGIN RSA PRIVATE KEY-----"},
		{"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl"},
		{"aws-access-key", "Chromium AKIAQWERTYUIOPASDF12"},
		{"authorization-header", "Authorization: Basic dXNlcjpwYXNzd29yZA=="},
		{"cookie-header", "Cookie: sessionid=abc123"},
		{"url-credentials", "https://teller:hunter22@teller.example/"},
		{"url-query-credential", "https://teller.example/callback?code=a1b2c3d4"},
		{"credential-assignment", "DB_PASSWORD=hunter22"},
		{"bearer-token", "Bearer abc123def4"},
		{"high-entropy-token", "Zx9Qm2Lr7Tk4Wp8Vn3Hj6Gd1Fs5Bc0Ay"},
	}
	nearMisses = []struct{ kind, value string }{
		{"assignment-max-tokens", "max_tokens=5"},
		{"prose-password", "Password: required"},
		{"digest", "sha256:191e5d673b65a2eea6c87d5f69673376de0f08d7169c3b925c63063703b82ece"},
		{"url-without-query", "https://teller.example/members"},
	}
)

func init() {
	for _, s := range secretSamples {
		v := s.value
		runCases = append(runCases, runCase{id: "receipt-secret-" + s.kind,
			edit:  func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Environment.Browser = v },
			codes: []string{"secret"}, rules: []string{"run.file.secret"},
			note: "a credential-shaped environment label (5.4.1, " + s.kind + ")"})
	}
	for _, s := range nearMisses {
		v := s.value
		runCases = append(runCases, runCase{id: "valid-near-miss-" + s.kind,
			edit:  func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Environment.Browser = v },
			rules: []string{"run.file.secret"},
			note:  "an environment label that is not credential-shaped (5.4.1)"})
	}
	runCases = append(runCases, runCase{id: "valid-mode-unverified-written",
		edit:  func(t *testing.T, b *confBase, rf *runFiles) { rf.r.ExecutionMode = receipt.ModeUnverified },
		rules: []string{"run.file.receipt"},
		note:  `"execution_mode":"unverified" written out reads as the member omitted (8.1)`})
}
