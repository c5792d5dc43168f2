package receipt

import (
	"github.com/vera-run/vera/internal/timestamp"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/internal/canonjson"
)

// runtimeReasonCodes are the runtime's reason codes (FORMAT.md 8.3, the
// constants of runtime.Reason in documentation order). The receipt
// package cannot import the runtime (data flows runtime -> receipt), so
// the set is written here once and a test holds it equal to
// runtime.Reasons().
var runtimeReasonCodes = []string{
	"canceled", "run_timeout", "max_actions_exceeded", "max_visits_exceeded",
	"start_not_allowed", "navigate_not_allowed", "start_navigation_failed", "navigation_failed",
	"target_unreachable", "navigation_blocked", "popup_blocked", "frame_blocked", "top_level_origin",
	"frame_not_found", "frame_ambiguous", "frame_origin_not_allowed",
	"locator_not_found", "locator_ambiguous", "locator_error",
	"postcondition_failed", "no_transition", "act_failed", "not_interactable", "stale_element",
	"unknown_modal", "native_dialog",
	"read_failed", "coercion_failed", "required_field_empty", "max_records_exceeded", "required_output_missing", "records_incomplete",
	"json_invalid", "json_pointer_missing", "json_value_not_scalar", "output_expectation_failed",
	"download_begin_failed", "download_arm_failed", "download_failed",
	"no_approver", "denied", "approver_error", "approval_mismatch",
	ReasonOutcomeUnconfirmed,
	"browser_crashed", "browser_unavailable", "browser_launch_failed",
	"unsupported", "frame_error", "find_failed", "visible_failed", "url_failed",
	"violations_failed", "settle_failed", "restrict_origins_failed", "seed_failed", "contract_hash_failed", "dedupe_key_failed",
	"driver_open_failed", "no_driver_factory", "unspecified",
}

// reasons is the closed set of failure.reason: the runtime's codes and
// the download reason codes (8.3, 8.4).
var reasons = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range runtimeReasonCodes {
		m[r] = true
	}
	for _, r := range download.Reasons() {
		m[string(r)] = true
	}
	return m
}()

// downloadEvidenceOf maps each download mechanism (8.4) to the one
// evidence code recorded with it.
var downloadEvidenceOf = map[string]string{
	download.MechanismDirectory:   download.EvidenceDirectoryBytes,
	download.MechanismBrowserPath: download.EvidenceBrowserPathBytes,
}

// modalReasons are the reasons of a blocked_by_unknown_modal run.
var modalReasons = set("unknown_modal", "native_dialog")

// checkTerminalFailure applies the terminal-state/failure pairings of
// FORMAT.md 8.1 that checkReceipt does not already (completed and failed
// are checked there).
func checkTerminalFailure(t Terminal, ps *problems) {
	const f = FileReceipt
	fl := t.Failure
	switch t.State {
	case TerminalBusinessOutcome, TerminalNativeGap:
		if fl != nil {
			ps.add(f, ErrInconsistent, "a %s run carries no failure", t.State)
		}
	case TerminalStoppedAtGate:
		if fl == nil || fl.Category != CategoryApprovalRefused {
			ps.add(f, ErrInconsistent, "a stopped_at_gate run carries a failure of category %s", CategoryApprovalRefused)
		}
	case TerminalBlockedByUnknownModal:
		if fl == nil || fl.Category != CategoryUIAssertionFailed || !modalReasons[fl.Reason] {
			ps.add(f, ErrInconsistent, "a blocked_by_unknown_modal run carries a %s failure with reason unknown_modal or native_dialog", CategoryUIAssertionFailed)
		}
	case TerminalRecoveryRequested:
		if fl == nil || fl.Category != CategoryLocatorNotFound {
			ps.add(f, ErrInconsistent, "a recovery_requested run carries the %s failure that triggered it", CategoryLocatorNotFound)
		}
	}
}

// checkReceiptRules applies the receipt-only rules added with issue 14:
// lists never null, finished_at not before started_at, download
// mechanism and evidence from their closed sets and paired, the terminal
// pairings.
func checkReceiptRules(r *Receipt, ps *problems) {
	const f = FileReceipt
	for _, l := range []struct {
		name string
		null bool
	}{{"inputs", r.Inputs == nil}, {"milestones", r.Milestones == nil}, {"actions", r.Actions == nil},
		{"outputs", r.Outputs == nil}, {"origins", r.Origins == nil}} {
		if l.null {
			ps.add(f, ErrSchema, "%s is null or absent; an always-present list is written [] when empty", l.name)
		}
	}
	if s, err1 := timestamp.Parse(r.StartedAt); err1 == nil {
		if e, err2 := timestamp.Parse(r.FinishedAt); err2 == nil && e.Before(s) {
			ps.add(f, ErrInconsistent, "finished_at is before started_at")
		}
	}
	for i, a := range r.Actions {
		d := a.Download
		if d == nil || !validCode(d.Mechanism, true) || !validCode(d.Evidence, true) {
			continue // no proof, or reported as not a bounded code
		}
		p := "actions[" + strconv.Itoa(i) + "].download"
		want, ok := downloadEvidenceOf[d.Mechanism]
		switch {
		case !ok:
			ps.add(f, ErrSchema, "%s.mechanism %s is not directory or browser_path", p, short(d.Mechanism))
		case d.Evidence != want:
			ps.add(f, ErrSchema, "%s.evidence %s is not %s, the evidence of mechanism %s", p, short(d.Evidence), want, d.Mechanism)
		}
	}
	checkTerminalFailure(r.Terminal, ps)
}

// checkOutputsRules applies outputs.json's rules added with issue 14:
// the outputs list never null, download paths absolute and clean.
func checkOutputsRules(o *Outputs, ps *problems) {
	const f = FileOutputs
	if o.Outputs == nil {
		ps.add(f, ErrSchema, "outputs is null or absent; an always-present list is written [] when empty")
	}
	for i, v := range o.Outputs {
		for j, df := range v.Files {
			if df.Path != "" && !filepath.IsAbs(df.Path) {
				ps.add(f, ErrSchema, "outputs[%d].files[%d].path is not an absolute path", i, j)
			}
		}
	}
}

// checkProposalsRules: the proposals list never null.
func checkProposalsRules(p *Proposals, ps *problems) {
	if p.Proposals == nil {
		ps.add(FileProposals, ErrSchema, "proposals is null or absent; an always-present list is written []")
	}
}

// checkOrder: the receipt's inputs and outputs follow the capability's
// declaration order (undeclared ones are reported elsewhere).
func checkOrder(r *Receipt, c *capability.Capability, ps *problems) {
	inOrder := func(what string, names []string, decl func(string) int) {
		last := -1
		for i, n := range names {
			at := decl(n)
			if at < 0 {
				continue
			}
			if at < last {
				ps.add(FileReceipt, ErrInputs, "%s[%d] %s is out of the capability's order", what, i, n)
			}
			last = max(last, at)
		}
	}
	var ins []string
	for _, in := range r.Inputs {
		ins = append(ins, in.Name)
	}
	inOrder("inputs", ins, func(n string) int {
		return slices.IndexFunc(c.Inputs, func(x capability.Input) bool { return x.Name == n })
	})
	last := -1
	for i, o := range r.Outputs {
		at := slices.IndexFunc(c.Outputs, func(x capability.Output) bool { return x.Name == o.Name })
		if at < 0 {
			continue
		}
		if at < last {
			ps.add(FileReceipt, ErrOutputs, "outputs[%d] %s is out of the capability's order", i, o.Name)
		}
		last = max(last, at)
	}
}

// failedExtractOutput names the output of the run's failed extraction,
// which FORMAT.md 4.2 says is not produced: the output the extract
// action the run ended at fills, when that action's last record is
// failed, or when the run failed records_incomplete naming it (a list
// whose declared set was still seen in part at completion). "" when the
// run ended at no failed extraction.
func failedExtractOutput(r *Receipt, c *capability.Capability) string {
	if r == nil || r.Terminal.Action == "" || len(r.Actions) == 0 {
		return ""
	}
	ca, _, _, ok := c.Action(r.Terminal.Action)
	if !ok || ca.Operation != capability.OpExtract || ca.Output == "" {
		return ""
	}
	last := r.Actions[len(r.Actions)-1]
	f := r.Terminal.Failure
	if (last.ID == ca.ID && last.Status == ActionFailed) ||
		(r.Terminal.State == TerminalFailed && f != nil && f.Category == CategoryExtractionFailed && f.Reason == "records_incomplete") {
		return ca.Output
	}
	return ""
}

// unproducedHash is the output hash of a text, record or record_set
// output that was not produced: the value digest of null (4.4).
var unproducedHash = func() string {
	h, err := canonjson.Digest(nil)
	if err != nil {
		panic(err)
	}
	return h
}()

// checkFailedExtraction: the receipt records the output of the run's
// failed extraction unproduced (count 0, the hash of null).
func checkFailedExtraction(r *Receipt, c *capability.Capability, ps *problems) {
	name := failedExtractOutput(r, c)
	if name == "" {
		return
	}
	for _, rec := range r.Outputs {
		if rec.Name == name && (rec.Count != 0 || rec.Hash != unproducedHash) {
			ps.add(FileReceipt, ErrOutputs, "output %s of the failed extraction %s is recorded produced", name, r.Terminal.Action)
		}
	}
}

// checkRecordCounts: the records the extract actions of an output
// produced agree with the output's count. A record_set counts the sum of
// its passed extract actions' records (each counts the records it added
// after dedupe), exactly when none of them failed and it is not the
// output of a failed extraction (a failed extraction's output is
// unproduced, FORMAT.md 4.2); a text or record output
// counts 1 when a passed extract action produced a record, and no
// passed extract action of it counts more than 1.
func checkRecordCounts(r *Receipt, c *capability.Capability, ps *problems) {
	sum := map[string]int{}
	failed := map[string]bool{}
	if name := failedExtractOutput(r, c); name != "" {
		failed[name] = true // its records were dropped (4.2)
	}
	for i, a := range r.Actions {
		ca, _, _, ok := c.Action(a.ID)
		if !ok || ca.Operation != capability.OpExtract || ca.Output == "" {
			continue
		}
		decl, ok := c.Output(ca.Output)
		if !ok {
			continue
		}
		if a.Status != ActionPassed {
			failed[ca.Output] = true
			continue
		}
		if a.Records == nil {
			continue // nothing counted (the runtime always counts; a foreign writer may not)
		}
		n := *a.Records
		if !decl.Kind.Collection() && n > 1 {
			ps.add(FileReceipt, ErrOutputs, "actions[%d]: extract action %s counts %d records for the single-valued output %s", i, a.ID, n, decl.Name)
		}
		sum[ca.Output] += n
	}
	for _, rec := range r.Outputs {
		decl, ok := c.Output(rec.Name)
		if !ok || string(decl.Kind) != rec.Kind {
			continue
		}
		n, counted := sum[rec.Name]
		switch decl.Kind {
		case capability.OutputRecordSet:
			if counted && !failed[rec.Name] && n != rec.Count {
				ps.add(FileReceipt, ErrOutputs, "output %s counts %d records, its extract actions %d", rec.Name, rec.Count, n)
			}
		case capability.OutputText, capability.OutputRecord:
			if n > 0 && rec.Count != 1 {
				ps.add(FileReceipt, ErrOutputs, "output %s counts %d values, but an extract action produced it", rec.Name, rec.Count)
			}
		}
	}
}

// checkContractHashes: each recovery proposal's contract_hash is the
// contract hash (FORMAT.md 3.5) of the action it targets, as declared.
func checkContractHashes(p *Proposals, c *capability.Capability, ps *problems) {
	for i, pr := range p.Proposals {
		a, _, _, ok := c.Action(pr.Target.ActionID)
		if !ok || !canonjson.ValidDigest(pr.ContractHash) {
			continue // reported as an undeclared target or a schema problem
		}
		h, err := canonjson.Digest(a)
		if err != nil {
			ps.add("", ErrCapability, "cannot compute the contract hash of action %s", a.ID)
			continue
		}
		if h != pr.ContractHash {
			ps.add(FileProposals, ErrHashMismatch, "proposals[%d].contract_hash is not the contract hash of action %s", i, a.ID)
		}
	}
}

// checkReceiptAgainst applies the checks of a receipt against its
// capability that need no other run file (FORMAT.md 10.2 step 7): the
// part of VerifyRun a bundle verifier applies to bundled receipts.
func checkReceiptAgainst(r *Receipt, c *capability.Capability, ps *problems) {
	checkCapabilityRef(r, c, ps)
	checkReceiptRun(r, c, ps)
}

// checkReceiptRun is checkReceiptAgainst without the capability
// reference, which [CheckClaim] checks as its own named checks.
func checkReceiptRun(r *Receipt, c *capability.Capability, ps *problems) {
	checkInputs(r, c, ps)
	checkApprovalsShown(r, c, ps)
	checkOutputRecords(r, c, ps)
	checkOrder(r, c, ps)
	checkOrigins(r, c, ps)
	checkGrantCovers(r, c, ps)
	checkSequence(r, c, ps)
	checkDownloadEvidence(r, c, ps)
	checkRecordCounts(r, c, ps)
	checkFailedExtraction(r, c, ps)
}

// VerifyReceipt checks one receipt's bytes against the capability c
// without the rest of its run directory, as a bundle verifier must
// (outputs.json, locks and proposals never travel): it loads the receipt
// strictly ([LoadReceipt]) and then applies every check of [VerifyRun]
// that needs the receipt alone: the capability reference, inputs, output
// records, declaration order, origins, the recorded sequence, download
// evidence and extract record counts. The report's Dir is empty; its
// error is a *[VerifyError] or nil.
func VerifyReceipt(raw []byte, c *capability.Capability) (*Report, error) {
	rep := &Report{Complete: true, ReceiptHash: canonjson.SumBytes(raw)}
	r, err := LoadReceipt(raw)
	if err != nil {
		if ve, ok := err.(*VerifyError); ok {
			rep.Problems = append(rep.Problems, ve.Problems...)
		}
		return rep, rep.Err()
	}
	rep.RunID = r.RunID
	var ps problems
	if c == nil {
		ps.add("", ErrCapability, "no capability to verify the receipt against")
	} else {
		checkReceiptAgainst(r, c, &ps)
	}
	rep.Problems = append(rep.Problems, ps...)
	return rep, rep.Err()
}
