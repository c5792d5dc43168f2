package receipt

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/internal/runrule"
	"github.com/vera-run/vera/internal/textrule"
)

// VerifyRun verifies the run directory dir against the capability c and
// returns a report of every problem, filled even on failure; the error is
// the report's [Report.Err] (a *[VerifyError] wrapping [ErrVerify] and the
// specific errors) or nil.
//
// It loads the files as [Load] does (size limits, no symbolic links,
// strict canonical JSON, schemas), then checks:
//
//   - links: the lock's hashes equal the sha256 of the exact bytes of
//     run.receipt.json, outputs.json and, for a v2 lock,
//     recovery.proposals.json (a v1 lock must have none, a v2 lock must);
//     every file carries the same run id;
//   - outputs.json against the receipt: the same outputs in the same order
//     with the same kind and exposure, each count and hash recomputed
//     (the output count rule of FORMAT.md, [OutputHash]);
//   - the capability: id, version, execution hash and discovery hash;
//     inputs (every declared input recorded, no undeclared one, required
//     ones supplied, secret ones without a hash); outputs (every declared
//     output recorded once, kind and exposure as declared, required
//     outputs produced on completion, a required text not blank
//     (FORMAT.md 1.4: only white space and zero-width characters),
//     records of exactly the declared fields with values of the declared
//     types, download files with valid digests and byte lengths and the
//     download evidence of the actions equal to the output's); origins
//     (each one allowed); and the recorded sequence (milestone visits
//     start at the first milestone and follow its transitions, or the
//     document order where it has none, within max_visits; each action
//     belongs to its recorded milestone visit, in declared order, with the
//     capability's operation and effect and a winning locator index within
//     its candidates; only the last action may have failed; a passed
//     consequential action has an approval); the declaration order of
//     inputs and outputs; extract record counts against their outputs;
//     and each recovery proposal's contract_hash against the action it
//     targets.
//
// A run without run.lock.json, or with a leftover temporary file, is
// incomplete ([Report.Complete] false, [ErrIncomplete]): the runtime
// writes the lock last, so an interrupted run is told apart from a
// tampered one. A nil capability is reported as [ErrCapability]; the file
// checks still run.
//
// ctx is checked before each file is read and before the checks against
// the capability: once it is done, VerifyRun returns the report so far
// with an error wrapping ctx.Err() (which does not match [ErrVerify]). A
// nil ctx is refused with [ErrInvalidArgument].
func VerifyRun(ctx context.Context, dir string, c *capability.Capability) (*Report, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	_, rep, err := verifyRun(ctx, dir, c)
	if err != nil {
		return rep, err
	}
	return rep, rep.Err()
}

// verifyRun loads and checks one run directory; the error is only ever
// ctx's.
func verifyRun(ctx context.Context, dir string, c *capability.Capability) (*RunFiles, *Report, error) {
	rf, rep, err := load(ctx, dir)
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return rf, rep, err
	}
	var ps problems
	checkLinks(rf, &ps)
	if rf.Receipt != nil && rf.Outputs != nil {
		checkReceiptOutputs(rf.Receipt, rf.Outputs, &ps)
	}
	if rf.Receipt != nil && rf.Proposals != nil {
		checkProposalOutcome(rf.Receipt, rf.Proposals, &ps)
	}
	if rf.Receipt != nil && rf.Capture != nil {
		checkCaptureReceipt(rf.Capture, rf.Receipt, &ps)
	}
	if c == nil {
		ps.add("", ErrCapability, "no capability to verify the run against")
	} else {
		checkAgainstCapability(rf, c, &ps)
	}
	rep.Problems = append(rep.Problems, ps...)
	return rf, rep, nil
}

// checkLinks recomputes the lock's hashes and compares run ids.
func checkLinks(rf *RunFiles, ps *problems) {
	l := rf.Lock
	if l != nil {
		for _, x := range []struct{ file, want string }{{FileReceipt, l.Receipt}, {FileOutputs, l.Outputs}} {
			if got, ok := rf.Hashes[x.file]; ok && got != x.want {
				ps.add(x.file, ErrHashMismatch, "sha256 is %s, the lock records %s", got, short(x.want))
			}
		}
		_, hasProposals := rf.Raw[FileProposals]
		switch l.Schema {
		case SchemaLockV1:
			if hasProposals {
				ps.add(FileProposals, ErrLink, "present, but a %s lock does not cover recovery proposals", SchemaLockV1)
			}
		case SchemaLockV2:
			if !hasProposals {
				ps.add(FileProposals, ErrMissingFile, "missing although the %s lock records it", SchemaLockV2)
			} else if got := rf.Hashes[FileProposals]; got != l.RecoveryProposals {
				ps.add(FileProposals, ErrHashMismatch, "sha256 is %s, the lock records %s", got, short(l.RecoveryProposals))
			}
		case SchemaLockV3:
			checkLinksV3(rf, hasProposals, ps)
		}
		if _, hasCapture := rf.Raw[FileCapture]; hasCapture && l.Schema != SchemaLockV3 {
			ps.add(FileCapture, ErrLink, "present, but a %s lock does not cover a capture", l.Schema)
		}
	}
	runID := ""
	if l != nil {
		runID = l.RunID
	}
	check := func(file, id string) {
		if runID == "" {
			runID = id
			return
		}
		if id != runID {
			ps.add(file, ErrLink, "run id differs from the other run files")
		}
	}
	if rf.Receipt != nil {
		check(FileReceipt, rf.Receipt.RunID)
	}
	if rf.Outputs != nil {
		check(FileOutputs, rf.Outputs.RunID)
	}
	if rf.Proposals != nil {
		check(FileProposals, rf.Proposals.RunID)
	}
	if rf.Capture != nil {
		check(FileCapture, rf.Capture.RunID)
	}
	if rf.Receipt != nil && (rf.Receipt.Recovered || rf.Receipt.LocatorChangesDuringRun) && rf.Lock != nil &&
		rf.Lock.Schema != SchemaLockV2 && (rf.Lock.Schema != SchemaLockV3 || rf.Lock.RecoveryProposals == "") {
		ps.add(FileLock, ErrLink, "the receipt records a recovery but the lock covers no recovery proposals")
	}
}

// checkReceiptOutputs recomputes the receipt's output counts and hashes
// from outputs.json.
func checkReceiptOutputs(r *Receipt, o *Outputs, ps *problems) {
	if len(r.Outputs) != len(o.Outputs) {
		ps.add(FileOutputs, ErrLink, "holds %d outputs, the receipt records %d", len(o.Outputs), len(r.Outputs))
	}
	byName := map[string]*OutputValue{}
	for i := range o.Outputs {
		byName[o.Outputs[i].Name] = &o.Outputs[i]
	}
	for i, rec := range r.Outputs {
		v, ok := byName[rec.Name]
		if !ok {
			ps.add(FileOutputs, ErrLink, "output %s recorded in the receipt is absent", short(rec.Name))
			continue
		}
		if i < len(o.Outputs) && o.Outputs[i].Name != rec.Name {
			ps.add(FileOutputs, ErrLink, "output %s is not at position %d as in the receipt", short(rec.Name), i)
		}
		if v.Kind != rec.Kind || v.Exposure != rec.Exposure {
			ps.add(FileOutputs, ErrLink, "output %s has another kind or exposure than in the receipt", short(rec.Name))
			continue
		}
		if n := runrule.OutputCount(v.Kind, v.Produced, v.Value, len(v.Files)); n != rec.Count {
			ps.add(FileReceipt, ErrHashMismatch, "output %s count is %d, outputs.json holds %d", short(rec.Name), rec.Count, n)
		}
		h, err := OutputHash(v)
		if err != nil {
			ps.add(FileOutputs, ErrSchema, "output %s cannot be hashed", short(rec.Name))
		} else if h != rec.Hash {
			ps.add(FileReceipt, ErrHashMismatch, "output %s hash is %s, outputs.json hashes to %s", short(rec.Name), short(rec.Hash), h)
		}
	}
	for _, v := range o.Outputs {
		if !slices.ContainsFunc(r.Outputs, func(x OutputRecord) bool { return x.Name == v.Name }) {
			ps.add(FileOutputs, ErrLink, "output %s is not recorded in the receipt", short(v.Name))
		}
	}
}

// checkProposalOutcome: a run with proposals changed a locator, and is
// recovered exactly when a proposal recovered its target.
func checkProposalOutcome(r *Receipt, p *Proposals, ps *problems) {
	if !r.LocatorChangesDuringRun {
		ps.add(FileReceipt, ErrInconsistent, "recovery proposals were used but the receipt records no locator change")
	}
	recovered := slices.ContainsFunc(p.Proposals, func(x Proposal) bool { return x.Outcome == "recovered" })
	if recovered != r.Recovered {
		ps.add(FileProposals, ErrInconsistent, "a proposal outcome says recovered=%t, the receipt says %t", recovered, r.Recovered)
	}
}

func checkAgainstCapability(rf *RunFiles, c *capability.Capability, ps *problems) {
	r := rf.Receipt
	if r != nil {
		checkReceiptAgainst(r, c, ps)
	}
	if rf.Outputs != nil {
		checkOutputValues(rf.Outputs, r, c, ps)
	}
	if rf.Proposals != nil {
		for i, p := range rf.Proposals.Proposals {
			a, _, _, ok := c.Action(p.Target.ActionID)
			if !ok {
				ps.add(FileProposals, ErrSequence, "proposals[%d] targets an undeclared action", i)
				continue
			}
			if p.Target.Field != "" && (a.Extract == nil || !slices.ContainsFunc(a.Extract.Fields, func(f capability.Field) bool { return f.Name == p.Target.Field })) {
				ps.add(FileProposals, ErrSequence, "proposals[%d] targets a field action %s does not extract", i, a.ID)
			}
		}
		checkContractHashes(rf.Proposals, c, ps)
	}
}

func checkCapabilityRef(r *Receipt, c *capability.Capability, ps *problems) {
	f, err := factsOf(c)
	if err != nil {
		ps.add("", ErrCapability, "cannot compute the capability's execution hash")
		return
	}
	ref := r.Capability
	if ref.ID != f.id {
		ps.add(FileReceipt, ErrCapability, "capability.id is %s, not %s", short(ref.ID), f.id)
	}
	if ref.Version != f.version {
		ps.add(FileReceipt, ErrCapability, "capability.version is %s, not %s", short(ref.Version), f.version)
	}
	if ref.ExecutionHash != f.execHash {
		ps.add(FileReceipt, ErrCapability, "capability.execution_hash is %s, the capability's is %s", short(ref.ExecutionHash), f.execHash)
	}
	if ref.DiscoveryHash != f.discoveryHash {
		ps.add(FileReceipt, ErrCapability, "capability.discovery_hash is %s, the capability's is %s", short(ref.DiscoveryHash), short(f.discoveryHash))
	}
	checkProvenance(c, ps) // locatorevidence.go
}

func checkInputs(r *Receipt, c *capability.Capability, ps *problems) {
	recs := map[string]InputRecord{}
	for i, in := range r.Inputs {
		recs[in.Name] = in
		decl, ok := c.Input(in.Name)
		if !ok {
			ps.add(FileReceipt, ErrInputs, "inputs[%d]: input %s is not declared", i, short(in.Name))
			continue
		}
		if in.Secret != decl.Secret {
			ps.add(FileReceipt, ErrInputs, "inputs[%d]: input %s secret=%t, declared secret=%t", i, in.Name, in.Secret, decl.Secret)
		}
		if decl.Secret && in.Hash != "" {
			ps.add(FileReceipt, ErrInputs, "inputs[%d]: secret input %s carries a hash", i, in.Name)
		}
	}
	for _, decl := range c.Inputs {
		rec, ok := recs[decl.Name]
		switch {
		case !ok:
			ps.add(FileReceipt, ErrInputs, "declared input %s is not recorded", decl.Name)
		case decl.Required && !rec.Present:
			ps.add(FileReceipt, ErrInputs, "required input %s is not recorded as supplied", decl.Name)
		}
	}
}

func checkOutputRecords(r *Receipt, c *capability.Capability, ps *problems) {
	seen := map[string]bool{}
	for i, rec := range r.Outputs {
		seen[rec.Name] = true
		decl, ok := c.Output(rec.Name)
		if !ok {
			ps.add(FileReceipt, ErrOutputs, "outputs[%d]: output %s is not declared", i, short(rec.Name))
			continue
		}
		if rec.Kind != string(decl.Kind) || rec.Exposure != string(decl.Exposure) {
			ps.add(FileReceipt, ErrOutputs, "outputs[%d]: output %s is %s/%s, declared %s/%s", i, rec.Name, short(rec.Kind), short(rec.Exposure), decl.Kind, decl.Exposure)
		}
		if !decl.Kind.Collection() && rec.Count > 1 {
			ps.add(FileReceipt, ErrOutputs, "outputs[%d]: output %s counts %d values", i, rec.Name, rec.Count)
		}
		if decl.Required && !decl.Kind.Collection() && r.Terminal.State == TerminalCompleted && rec.Count != 1 {
			ps.add(FileReceipt, ErrOutputs, "required output %s was not produced in a completed run", rec.Name)
		}
	}
	for _, decl := range c.Outputs {
		if !seen[decl.Name] {
			ps.add(FileReceipt, ErrOutputs, "declared output %s is not recorded", decl.Name)
		}
	}
}

func checkOrigins(r *Receipt, c *capability.Capability, ps *problems) {
	for i, o := range r.Origins {
		if !slices.Contains(c.Site.AllowedOrigins, o) {
			ps.add(FileReceipt, ErrOrigin, "origins[%d] %s is not an allowed origin", i, short(o))
		}
	}
}

type visitKey struct {
	id    string
	visit int
}

// legalNext returns the transition targets a visit of milestone mi may
// take.
func legalNext(c *capability.Capability, mi int) []string {
	m := &c.Milestones[mi]
	if len(m.Transitions) > 0 {
		out := make([]string, len(m.Transitions))
		for i, t := range m.Transitions {
			out[i] = t.To
		}
		return out
	}
	if mi+1 < len(c.Milestones) {
		return []string{c.Milestones[mi+1].ID}
	}
	return []string{capability.TerminalCompleted}
}

func checkSequence(r *Receipt, c *capability.Capability, ps *problems) {
	const f = FileReceipt
	visits := map[string]int{}
	pos := map[visitKey]int{}
	for i, m := range r.Milestones {
		p := "milestones[" + strconv.Itoa(i) + "]"
		pos[visitKey{m.ID, m.Visit}] = i
		if i > 0 {
			if prev := r.Milestones[i-1]; prev.Next != m.ID {
				ps.add(f, ErrSequence, "%s: the run continued with %s but the previous visit's next is %s", p, short(m.ID), short(prev.Next))
			}
		} else if len(c.Milestones) > 0 && m.ID != c.Milestones[0].ID {
			ps.add(f, ErrSequence, "%s: the run starts at %s, not at the first milestone %s", p, short(m.ID), c.Milestones[0].ID)
		}
		cm, mi, ok := c.Milestone(m.ID)
		if !ok {
			ps.add(f, ErrSequence, "%s: milestone %s is not declared", p, short(m.ID))
			continue
		}
		visits[m.ID]++
		if m.Visit != visits[m.ID] {
			ps.add(f, ErrSequence, "%s: visit %d of %s is recorded as visit %d", p, visits[m.ID], m.ID, m.Visit)
		}
		maxVisits := cm.MaxVisits
		if maxVisits == 0 {
			maxVisits = 1
		}
		if visits[m.ID] > maxVisits {
			ps.add(f, ErrSequence, "%s: milestone %s visited %d times, max_visits is %d", p, m.ID, visits[m.ID], maxVisits)
		}
		if m.Next != "" && !slices.Contains(legalNext(c, mi), m.Next) {
			ps.add(f, ErrSequence, "%s: %s is not a transition target of milestone %s", p, short(m.Next), m.ID)
		}
		if (m.Status == "completed") != (m.Next != "") {
			ps.add(f, ErrSequence, "%s: status %s with next %s", p, short(m.Status), short(m.Next))
		}
		if i < len(r.Milestones)-1 && m.Status != "completed" {
			ps.add(f, ErrSequence, "%s: the run continued after a visit that did not complete", p)
		}
	}
	if r.Terminal.State == TerminalCompleted {
		if n := len(r.Milestones); n == 0 || r.Milestones[n-1].Next != capability.TerminalCompleted {
			ps.add(f, ErrSequence, "the run is completed but its last milestone visit does not transition to %q", capability.TerminalCompleted)
		}
	}

	cur, lastIdx := -1, -1
	for i, a := range r.Actions {
		p := "actions[" + strconv.Itoa(i) + "]"
		ca, mi, ai, ok := c.Action(a.ID)
		if !ok {
			ps.add(f, ErrSequence, "%s: action %s is not declared", p, short(a.ID))
			continue
		}
		if mid := c.Milestones[mi].ID; mid != a.Milestone {
			ps.add(f, ErrSequence, "%s: action %s belongs to milestone %s, not %s", p, a.ID, mid, short(a.Milestone))
			continue
		}
		if a.Operation != string(ca.Operation) {
			ps.add(f, ErrSequence, "%s: action %s operation is %s, declared %s", p, a.ID, short(a.Operation), ca.Operation)
		}
		if a.Effect != string(ca.Effect) {
			ps.add(f, ErrSequence, "%s: action %s effect is %s, declared %s", p, a.ID, short(a.Effect), ca.Effect)
		}
		at, ok := pos[visitKey{a.Milestone, a.Visit}]
		switch {
		case !ok:
			ps.add(f, ErrSequence, "%s: action %s ran in visit %d of %s, which is not recorded", p, a.ID, a.Visit, a.Milestone)
		case at < cur:
			ps.add(f, ErrSequence, "%s: action %s is recorded after a later milestone visit", p, a.ID)
		default:
			if at > cur {
				cur, lastIdx = at, -1
			}
			if ai <= lastIdx {
				ps.add(f, ErrSequence, "%s: action %s is out of declared order or repeated in its visit", p, a.ID)
			}
			lastIdx = ai
		}
		if a.LocatorIndex != nil {
			// A recovered action ran with the proposal's single candidate
			// alone, never after the declared ones, so the runtime writes
			// index 0 (or, for a field target, the index of the declared
			// action-root candidate). A recoverable action declares at
			// least one candidate, so the declared range covers both.
			limit := len(ca.LocatorCandidates)
			if *a.LocatorIndex >= limit {
				ps.add(f, ErrSequence, "%s: winning locator index %d is out of range (%d candidates)", p, *a.LocatorIndex, len(ca.LocatorCandidates))
			}
		}
		verifyLocatorMatches(f, p, &a, ca, ps) // locatorevidence.go
		if a.Status != ActionPassed && i != len(r.Actions)-1 {
			ps.add(f, ErrSequence, "%s: action %s did not pass but the run continued", p, a.ID)
		}
		if ca.Effect == capability.EffectConsequential && a.Status == ActionPassed && (a.Approval == nil || !a.Approval.Approved) {
			ps.add(f, ErrSequence, "%s: consequential action %s passed without an approval", p, a.ID)
		}
	}
	if max := c.Runtime.MaxActions; max > 0 && len(r.Actions) > max {
		ps.add(f, ErrSequence, "%d actions recorded, max_actions is %d", len(r.Actions), max)
	}
	if t := r.Terminal.Action; t != "" {
		if _, _, _, ok := c.Action(t); !ok {
			ps.add(f, ErrSequence, "terminal.action %s is not declared", short(t))
		}
	}
	if r.Terminal.State == TerminalBusinessOutcome && !slices.ContainsFunc(c.BusinessOutcomes, func(o capability.BusinessOutcome) bool { return o.Code == r.Terminal.Outcome }) {
		ps.add(f, ErrSequence, "business outcome %s is not declared", short(r.Terminal.Outcome))
	}
}

// downloadEvidence returns, per download_set output, the download evidence
// of the actions that fill it, in run order. The runtime records a proof
// exactly when it adds a verified file to the output, even if the action
// then fails its postcondition.
func downloadEvidence(r *Receipt, c *capability.Capability) map[string][]download.File {
	ev := map[string][]download.File{}
	for _, a := range r.Actions {
		if a.Download == nil {
			continue
		}
		ca, _, _, ok := c.Action(a.ID)
		if !ok || ca.Output == "" {
			continue
		}
		ev[ca.Output] = append(ev[ca.Output], download.File{Size: a.Download.Bytes, SHA256: a.Download.SHA256})
	}
	return ev
}

// checkDownloadEvidence: a download_set output's hash covers exactly the
// download evidence of its actions.
func checkDownloadEvidence(r *Receipt, c *capability.Capability, ps *problems) {
	ev := downloadEvidence(r, c)
	for _, rec := range r.Outputs {
		if rec.Kind != string(capability.OutputDownloadSet) {
			continue
		}
		files := ev[rec.Name]
		h, err := download.SetHash(files)
		if err != nil {
			continue // a length or digest out of range is a schema problem
		}
		if h != rec.Hash || len(files) != rec.Count {
			ps.add(FileReceipt, ErrHashMismatch, "output %s does not cover the download evidence of its actions (%d files)", rec.Name, len(files))
		}
	}
}

// checkOutputValues checks outputs.json's values against the declared
// shapes.
func checkOutputValues(o *Outputs, r *Receipt, c *capability.Capability, ps *problems) {
	const f = FileOutputs
	failedOut := failedExtractOutput(r, c)
	for i, v := range o.Outputs {
		p := "outputs[" + strconv.Itoa(i) + "]"
		decl, ok := c.Output(v.Name)
		if !ok {
			ps.add(f, ErrOutputs, "%s: output %s is not declared", p, short(v.Name))
			continue
		}
		if v.Kind != string(decl.Kind) || v.Exposure != string(decl.Exposure) {
			ps.add(f, ErrOutputs, "%s: output %s is %s/%s, declared %s/%s", p, v.Name, short(v.Kind), short(v.Exposure), decl.Kind, decl.Exposure)
			continue
		}
		if decl.Required && !decl.Kind.Collection() && r != nil && r.Terminal.State == TerminalCompleted && !v.Produced {
			ps.add(f, ErrOutputs, "%s: required output %s not produced in a completed run", p, v.Name)
		}
		if v.Name == failedOut && v.Produced {
			// FORMAT.md 4.2: a failed extraction leaves its output
			// unproduced; a value there is part of an answer, never one.
			ps.add(f, ErrOutputs, "%s: output %s of the failed extraction %s is produced", p, v.Name, r.Terminal.Action)
		}
		if s, ok := v.Value.(string); ok && decl.Required && decl.Kind == capability.OutputText && v.Produced &&
			r != nil && r.Terminal.State == TerminalCompleted && textrule.Blank(s) {
			// FORMAT.md 4.2, 10.2: a blank text is no value of a required
			// output (a skeleton the page showed before its data).
			ps.add(f, ErrOutputs, "%s: required text output %s is blank in a completed run", p, v.Name)
		}
		switch decl.Kind {
		case capability.OutputRecord:
			if v.Value != nil {
				checkRecord(p+".value", v.Value, decl, ps)
			}
		case capability.OutputRecordSet:
			if xs, ok := v.Value.([]any); ok {
				for j, x := range xs {
					checkRecord(fmt.Sprintf("%s.value[%d]", p, j), x, decl, ps)
				}
			}
		}
	}
}

// checkRecord: exactly the declared fields, each null or of its declared
// type.
func checkRecord(p string, v any, decl *capability.Output, ps *problems) {
	const f = FileOutputs
	m, ok := v.(map[string]any)
	if !ok {
		ps.add(f, ErrOutputs, "%s is not a record object", p)
		return
	}
	for k := range m {
		if !slices.ContainsFunc(decl.Fields, func(x capability.OutputField) bool { return x.Name == k }) {
			ps.add(f, ErrOutputs, "%s holds undeclared field %s", p, short(k))
		}
	}
	for _, fd := range decl.Fields {
		x, ok := m[fd.Name]
		if !ok {
			ps.add(f, ErrOutputs, "%s lacks declared field %s", p, fd.Name)
			continue
		}
		if x != nil && !fieldTypeOK(fd.Type, x) {
			ps.add(f, ErrOutputs, "%s.%s is not a %s", p, fd.Name, fd.Type)
		}
	}
}

func fieldTypeOK(t capability.FieldType, v any) bool {
	switch t {
	case capability.FieldString:
		_, ok := v.(string)
		return ok
	case capability.FieldBoolean:
		_, ok := v.(bool)
		return ok
	case capability.FieldNumber:
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		_, err := n.Float64()
		return err == nil
	case capability.FieldInteger:
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		x, err := n.Float64()
		return err == nil && x == math.Trunc(x) && math.Abs(x) <= 1<<53
	case capability.FieldDate:
		s, ok := v.(string)
		if !ok || len(s) != 10 {
			return false
		}
		_, err := time.Parse(time.DateOnly, s)
		return err == nil
	}
	return false
}
