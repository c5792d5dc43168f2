package receipt

import (
	"fmt"
	"github.com/vera-run/vera/internal/textrule"
	"github.com/vera-run/vera/internal/timestamp"
	"regexp"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/ident"
	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/internal/runrule"
)

// The closed sets of the documents.
var (
	modes = set(ModeLiveConnected, ModeLiveLaunched, ModeSimulated, ModeUnverified)

	terminalStates = set(TerminalCompleted, TerminalBusinessOutcome, TerminalStoppedAtGate,
		TerminalBlockedByUnknownModal, TerminalNativeGap, TerminalRecoveryRequested, TerminalFailed)

	categories = set(CategoryBrowserUnavailable, CategoryBrowserLaunchFailed, CategoryTargetNotAllowed,
		CategoryOriginNotAllowed, CategoryTargetUnreachable, CategoryUIAssertionFailed,
		CategoryLocatorNotFound, CategoryFrameNotAllowed, CategoryExtractionFailed,
		CategoryDownloadFailed, CategoryApprovalRefused, CategoryRunTimeout, CategoryBrowserCrashed,
		CategoryCanceled, CategoryLimitExceeded, CategoryInternal, CategoryEffectUnconfirmed)

	actionStatuses = set(ActionPassed, ActionFailed, ActionStoppedAtGate, ActionNativeGap, ActionBlocked)

	milestoneStatuses = set("completed", "failed", "stopped")

	postconditions = set("", "verified", "failed")

	outputKinds = set(string(capability.OutputText), string(capability.OutputRecord),
		string(capability.OutputRecordSet), string(capability.OutputDownloadSet))

	exposures = set(string(capability.ExposureArtifactOnly), string(capability.ExposureModelAndArtifact),
		string(capability.ExposureModelSummary))

	operations = func() map[string]bool {
		m := map[string]bool{}
		for _, o := range capability.Operations() {
			m[string(o)] = true
		}
		return m
	}()

	effects = set(string(capability.EffectReadOnly), string(capability.EffectReversible),
		string(capability.EffectConsequential))

	proposalOutcomes = set("recovered", "failed", "rejected")

	semverRE = regexp.MustCompile(capability.SemverPattern)
)

// dispatchingOps are the operations whose act sends input an effect can
// follow: a click, a key press, a check or uncheck (a click), a download
// (a click).
var dispatchingOps = set(string(capability.OpClick), string(capability.OpPress), string(capability.OpCheck),
	string(capability.OpUncheck), string(capability.OpDownload))

// lastAction returns the last action record with the given id, nil when
// there is none.
func lastAction(r *Receipt, id string) *ActionRecord {
	for i := len(r.Actions) - 1; i >= 0; i-- {
		if r.Actions[i].ID == id {
			return &r.Actions[i]
		}
	}
	return nil
}

func set[T ~string](vs ...T) map[T]bool {
	m := make(map[T]bool, len(vs))
	for _, v := range vs {
		m[v] = true
	}
	return m
}

// validRunID: 1 to MaxRunIDLen bytes of [A-Za-z0-9._-].
func validRunID(s string) bool { return runrule.ValidRunID(s) }

// validCode: 1 to MaxCodeLen bytes of [a-z0-9_] (and '-' when dash).
func validCode(s string, dash bool) bool {
	if s == "" || len(s) > MaxCodeLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || dash && c == '-') {
			return false
		}
	}
	return true
}

// validID and validName are the capability's id and name patterns.
func validID(s string) bool   { return ident.ValidID(s) }
func validName(s string) bool { return ident.ValidName(s) }

// validLabel: valid UTF-8 without control characters, at most max bytes;
// empty only when allowEmpty.
func validLabel(s string, max int, allowEmpty bool) bool {
	if textrule.Blank(s) && (s == "" || !allowEmpty) {
		// A required label shows something (FORMAT.md 1.4: not blank);
		// an optional one may be empty, and a blank one is then checked
		// like any other.
		return s == "" && allowEmpty
	}
	if len(s) > max || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' || textrule.Bidi(r) {
			return false
		}
	}
	return true
}

func validTime(s string) bool {
	return timestamp.Valid(s)
}

// checkOutputHeader checks the name (valid, not seen before in this file),
// kind and exposure of one output entry at path p, the part the receipt
// and outputs.json share. verb says what a repeated name was ("recorded",
// "written").
func checkOutputHeader(ps *problems, f, p, verb, name, kind, exposure string, seen map[string]bool) {
	if !validName(name) {
		ps.add(f, ErrSchema, "%s.name is not an output name", p)
	} else if seen[name] {
		ps.add(f, ErrSchema, "%s: output %s %s twice", p, name, verb)
	}
	seen[name] = true
	if !outputKinds[kind] {
		ps.add(f, ErrSchema, "%s.kind %s is not a known output kind", p, short(kind))
	}
	if !exposures[exposure] {
		ps.add(f, ErrSchema, "%s.exposure %s is not a known exposure", p, short(exposure))
	}
}

// checkFailure checks a sanitized failure at path.
func checkFailure(file, path string, f *Failure, ps *problems) {
	if f == nil {
		return
	}
	if !categories[f.Category] {
		ps.add(file, ErrSchema, "%s.category %s is not a known category", path, short(string(f.Category)))
	}
	if f.Reason != "" && !validCode(f.Reason, false) {
		ps.add(file, ErrSchema, "%s.reason is not a bounded reason code ([a-z0-9_]{1,%d})", path, MaxCodeLen)
	} else if f.Reason != "" && !reasons[f.Reason] {
		ps.add(file, ErrSchema, "%s.reason %s is not a known reason code (8.3, 8.4)", path, short(f.Reason))
	}
	if f.DetailHash != "" && !canonjson.ValidDigest(f.DetailHash) {
		ps.add(file, ErrSchema, "%s.detail_hash is not a sha256 digest", path)
	}
}

// checkReceipt applies the receipt's schema rules and internal
// consistency rules (no capability needed), one rule step after another.
func checkReceipt(r *Receipt) problems {
	var ps problems
	checkReceiptHeader(r, &ps)
	checkInputRecords(r, &ps)
	checkMilestoneRecords(r, &ps)
	checkActionRecords(r, &ps)
	checkOutputRecordSchema(r, &ps)
	checkTerminal(r, &ps)
	checkEnvironment(r, &ps)
	checkOriginSchema(r, &ps)
	checkGrant(r, &ps)
	checkRunFlags(r, &ps)
	checkReceiptRules(r, &ps)
	return ps
}

// checkReceiptHeader checks the schema, run id, capability reference, mode, times and counters.
func checkReceiptHeader(r *Receipt, ps *problems) {
	const f = FileReceipt
	if r.Schema != SchemaReceipt {
		ps.add(f, ErrSchema, "schema is not %s", SchemaReceipt)
	}
	if !validRunID(r.RunID) {
		ps.add(f, ErrSchema, "run_id is not 1 to %d bytes of [A-Za-z0-9._-]", MaxRunIDLen)
	}
	c := r.Capability
	if !validID(c.ID) {
		ps.add(f, ErrSchema, "capability.id is not a capability id")
	}
	if len(c.Version) > capability.MaxVersionLen || !semverRE.MatchString(c.Version) {
		ps.add(f, ErrSchema, "capability.version is not a semantic version")
	}
	if !canonjson.ValidDigest(c.ExecutionHash) {
		ps.add(f, ErrSchema, "capability.execution_hash is not a sha256 digest")
	}
	if c.DiscoveryHash != "" && !canonjson.ValidDigest(c.DiscoveryHash) {
		ps.add(f, ErrSchema, "capability.discovery_hash is not a sha256 digest")
	}
	if r.ExecutionMode != "" && !modes[r.ExecutionMode] {
		ps.add(f, ErrSchema, "execution_mode %s is not a known mode", short(string(r.ExecutionMode)))
	}
	if !validTime(r.StartedAt) {
		ps.add(f, ErrSchema, "started_at is not an RFC 3339 timestamp")
	}
	if !validTime(r.FinishedAt) {
		ps.add(f, ErrSchema, "finished_at is not an RFC 3339 timestamp")
	}
	if r.DurationMS < 0 {
		ps.add(f, ErrSchema, "duration_ms is negative")
	}
	if r.BlockedRequests < 0 {
		ps.add(f, ErrSchema, "blocked_requests is negative")
	}
}

// checkInputRecords checks the input records: names unique, hashes only for supplied public values.
func checkInputRecords(r *Receipt, ps *problems) {
	const f = FileReceipt
	seenIn := map[string]bool{}
	for i, in := range r.Inputs {
		p := "inputs[" + strconv.Itoa(i) + "]"
		if !validName(in.Name) {
			ps.add(f, ErrSchema, "%s.name is not an input name", p)
		} else if seenIn[in.Name] {
			ps.add(f, ErrSchema, "%s: input %s recorded twice", p, in.Name)
		}
		seenIn[in.Name] = true
		switch {
		case in.Secret && in.Hash != "":
			ps.add(f, ErrSchema, "%s: secret input %s carries a hash", p, in.Name)
		case !in.Present && in.Hash != "":
			ps.add(f, ErrSchema, "%s: absent input %s carries a hash", p, in.Name)
		case in.Present && !in.Secret && !canonjson.ValidDigest(in.Hash):
			ps.add(f, ErrSchema, "%s: supplied input %s has no sha256 hash", p, in.Name)
		}
	}
}

// checkMilestoneRecords checks the milestone records: ids, visits, statuses and next.
func checkMilestoneRecords(r *Receipt, ps *problems) {
	const f = FileReceipt
	for i, m := range r.Milestones {
		p := "milestones[" + strconv.Itoa(i) + "]"
		if !validID(m.ID) {
			ps.add(f, ErrSchema, "%s.id is not a milestone id", p)
		}
		if m.Visit < 1 {
			ps.add(f, ErrSchema, "%s.visit is below 1", p)
		}
		if !milestoneStatuses[m.Status] {
			ps.add(f, ErrSchema, "%s.status %s is not completed, failed or stopped", p, short(m.Status))
		}
		if m.Next != "" && m.Next != capability.TerminalCompleted && !validID(m.Next) {
			ps.add(f, ErrSchema, "%s.next is not a milestone id or %q", p, capability.TerminalCompleted)
		}
	}
}

// checkActionRecords checks the action records: each one's members and the evidence it may carry.
func checkActionRecords(r *Receipt, ps *problems) {
	const f = FileReceipt
	for i, a := range r.Actions {
		p := "actions[" + strconv.Itoa(i) + "]"
		if !validID(a.ID) {
			ps.add(f, ErrSchema, "%s.id is not an action id", p)
		}
		if !validID(a.Milestone) {
			ps.add(f, ErrSchema, "%s.milestone is not a milestone id", p)
		}
		if a.Visit < 1 {
			ps.add(f, ErrSchema, "%s.visit is below 1", p)
		}
		if !operations[a.Operation] {
			ps.add(f, ErrSchema, "%s.operation %s is not a known operation", p, short(a.Operation))
		}
		if !effects[a.Effect] {
			ps.add(f, ErrSchema, "%s.effect %s is not a known effect", p, short(a.Effect))
		}
		if !actionStatuses[a.Status] {
			ps.add(f, ErrSchema, "%s.status %s is not a known action status", p, short(string(a.Status)))
		}
		if a.LocatorIndex != nil && *a.LocatorIndex < 0 {
			ps.add(f, ErrSchema, "%s.locator_index is negative", p)
		}
		checkLocatorMatches(f, p, &a, ps) // locatorevidence.go
		if !postconditions[a.Postcondition] {
			ps.add(f, ErrSchema, "%s.postcondition is not verified or failed", p)
		}
		if a.DurationMS < 0 {
			ps.add(f, ErrSchema, "%s.duration_ms is negative", p)
		}
		checkFailure(f, p+".failure", a.Failure, ps)
		if a.Status == ActionPassed && a.Failure != nil {
			ps.add(f, ErrInconsistent, "%s passed but carries a failure", p)
		}
		if a.Status == ActionFailed && a.Failure == nil {
			ps.add(f, ErrInconsistent, "%s failed without a failure category", p)
		}
		if d := a.Download; d != nil {
			if a.Operation != string(capability.OpDownload) {
				ps.add(f, ErrInconsistent, "%s carries download evidence but is not a download", p)
			}
			if !validCode(d.Mechanism, true) || !validCode(d.Evidence, true) {
				ps.add(f, ErrSchema, "%s.download mechanism or evidence is not a bounded code", p)
			}
			if d.Bytes < 0 || d.Bytes > download.MaxSafeBytes {
				ps.add(f, ErrSchema, "%s.download.bytes is outside [0, 2^53-1]", p)
			}
			if !canonjson.ValidDigest(d.SHA256) {
				ps.add(f, ErrSchema, "%s.download.sha256 is not a sha256 digest", p)
			}
		}
		if ap := a.Approval; ap != nil {
			if a.Effect != string(capability.EffectConsequential) {
				ps.add(f, ErrInconsistent, "%s carries an approval but is not consequential", p)
			}
			if !validLabel(ap.Requester, MaxLabelLen, true) || !validLabel(ap.Approver, MaxLabelLen, true) {
				ps.add(f, ErrSchema, "%s.approval identities are not bounded labels", p)
			}
			if ap.SelfApproved != (ap.Requester != "" && ap.Requester == ap.Approver) {
				ps.add(f, ErrInconsistent, "%s.approval.self_approved contradicts requester and approver", p)
			}
			if ap.Approved && a.Status == ActionStoppedAtGate {
				ps.add(f, ErrInconsistent, "%s stopped at the gate but its approval approved it", p)
			}
			if !canonjson.ValidDigest(ap.ShownHash) {
				ps.add(f, ErrSchema, "%s.approval.shown_hash is not a sha256 digest", p)
			}
			for j, n := range ap.ShownInputs {
				if !validName(n) || slices.Contains(ap.ShownInputs[:j], n) {
					ps.add(f, ErrSchema, "%s.approval.shown_inputs[%d] is not a unique input name", p, j)
				}
			}
		}
		if a.Records != nil {
			if a.Operation != string(capability.OpExtract) {
				ps.add(f, ErrInconsistent, "%s counts records but is not an extraction", p)
			}
			if *a.Records < 0 {
				ps.add(f, ErrSchema, "%s.records is negative", p)
			}
		}
		if a.Dispatched {
			if a.Effect != string(capability.EffectConsequential) || !dispatchingOps[a.Operation] {
				ps.add(f, ErrInconsistent, "%s is dispatched but is not a consequential click, press, check, uncheck or download", p)
			}
			if a.Status == ActionStoppedAtGate || a.Status == ActionNativeGap {
				ps.add(f, ErrInconsistent, "%s is dispatched but never reached the page (%s)", p, a.Status)
			}
		}
		if a.Failure != nil && a.Failure.Category == CategoryEffectUnconfirmed && !a.Dispatched {
			ps.add(f, ErrInconsistent, "%s has an unconfirmed effect but was not dispatched", p)
		}
	}
}

// checkOutputRecordSchema checks the output records: headers, download exposure, counts and hashes.
func checkOutputRecordSchema(r *Receipt, ps *problems) {
	const f = FileReceipt
	seenOut := map[string]bool{}
	for i, o := range r.Outputs {
		p := "outputs[" + strconv.Itoa(i) + "]"
		checkOutputHeader(ps, f, p, "recorded", o.Name, o.Kind, o.Exposure, seenOut)
		if o.Kind == string(capability.OutputDownloadSet) && o.Exposure != string(capability.ExposureArtifactOnly) {
			ps.add(f, ErrSchema, "%s: a download_set is always artifact_only", p)
		}
		if o.Count < 0 {
			ps.add(f, ErrSchema, "%s.count is negative", p)
		}
		if !canonjson.ValidDigest(o.Hash) {
			ps.add(f, ErrSchema, "%s.hash is not a sha256 digest", p)
		}
	}
}

// checkTerminal checks the terminal: state, failure, outcome and their pairing.
func checkTerminal(r *Receipt, ps *problems) {
	const f = FileReceipt
	t := r.Terminal
	if !terminalStates[t.State] {
		ps.add(f, ErrSchema, "terminal.state %s is not a known terminal state", short(string(t.State)))
	}
	checkFailure(f, "terminal.failure", t.Failure, ps)
	if t.Action != "" && !validID(t.Action) {
		ps.add(f, ErrSchema, "terminal.action is not an action id")
	}
	switch t.State {
	case TerminalCompleted:
		if t.Failure != nil || t.Outcome != "" {
			ps.add(f, ErrInconsistent, "a completed run carries a failure or a business outcome")
		}
	case TerminalBusinessOutcome:
		if !validName(t.Outcome) {
			ps.add(f, ErrInconsistent, "a business outcome run has no valid outcome code")
		}
	case TerminalFailed:
		if t.Failure == nil {
			ps.add(f, ErrInconsistent, "a failed run has no failure category")
		}
	}
	if fl := t.Failure; fl != nil && (fl.Category == CategoryEffectUnconfirmed) != (fl.Reason == ReasonOutcomeUnconfirmed) {
		ps.add(f, ErrInconsistent, "terminal.failure pairs category effect_unconfirmed only with reason %s", ReasonOutcomeUnconfirmed)
	}
	if fl := t.Failure; fl != nil && fl.Category == CategoryEffectUnconfirmed {
		switch last := lastAction(r, t.Action); {
		case t.State != TerminalFailed:
			ps.add(f, ErrInconsistent, "an unconfirmed effect ends the run failed, not %s", short(string(t.State)))
		case last == nil || !last.Dispatched:
			ps.add(f, ErrInconsistent, "an unconfirmed effect names no dispatched action in terminal.action")
		}
	}
	if t.State != TerminalBusinessOutcome && t.Outcome != "" {
		ps.add(f, ErrInconsistent, "terminal.outcome is set but the state is not business_outcome")
	}
}

// checkEnvironment checks the environment labels.
func checkEnvironment(r *Receipt, ps *problems) {
	const f = FileReceipt
	e := r.Environment
	for _, fld := range []struct {
		name, v  string
		optional bool
	}{{"browser", e.Browser, false}, {"protocol_version", e.ProtocolVersion, true}, {"library", e.Library, false},
		{"go_version", e.GoVersion, false}, {"os", e.OS, false}, {"arch", e.Arch, false}} {
		if !validLabel(fld.v, MaxLabelLen, fld.optional) {
			ps.add(f, ErrSchema, "environment.%s is not a non-empty bounded label", fld.name)
		}
	}
}

// checkOriginSchema checks the reached origins: each an origin, sorted and unique.
func checkOriginSchema(r *Receipt, ps *problems) {
	const f = FileReceipt
	for i, o := range r.Origins {
		if err := capability.CheckOrigin(o); err != nil {
			ps.add(f, ErrSchema, "origins[%d] is not an origin", i)
		}
		if i > 0 && r.Origins[i-1] >= o {
			ps.add(f, ErrSchema, "origins are not sorted and unique at index %d", i)
		}
	}
}

// checkRunFlags checks clean, recovered and locator changes against each other and the terminal.
func checkRunFlags(r *Receipt, ps *problems) {
	const f = FileReceipt
	t := r.Terminal
	anyRecovered := slices.ContainsFunc(r.Actions, func(a ActionRecord) bool { return a.Recovered })
	if anyRecovered && !r.Recovered {
		ps.add(f, ErrInconsistent, "an action is recovered but the run is not")
	}
	if r.Recovered && !r.LocatorChangesDuringRun {
		ps.add(f, ErrInconsistent, "a recovered run must record locator_changes_during_run")
	}
	if r.Clean {
		if t.State != TerminalCompleted {
			ps.add(f, ErrInconsistent, "clean but the terminal state is %s", t.State)
		}
		if r.Recovered || r.HandedOff || r.LocatorChangesDuringRun {
			ps.add(f, ErrInconsistent, "clean but recovered, handed off or with locator changes")
		}
		if r.BlockedRequests > 0 {
			ps.add(f, ErrInconsistent, "clean but %d requests were blocked", r.BlockedRequests)
		}
	}
}

// checkOutputs applies outputs.json's schema rules.
func checkOutputs(o *Outputs) problems {
	const f = FileOutputs
	var ps problems
	if !validRunID(o.RunID) {
		ps.add(f, ErrSchema, "run_id is not 1 to %d bytes of [A-Za-z0-9._-]", MaxRunIDLen)
	}
	seen := map[string]bool{}
	for i, v := range o.Outputs {
		p := "outputs[" + strconv.Itoa(i) + "]"
		checkOutputHeader(&ps, f, p, "written", v.Name, v.Kind, v.Exposure, seen)
		if v.Kind == string(capability.OutputDownloadSet) {
			if v.Value != nil {
				ps.add(f, ErrSchema, "%s: a download_set holds files, not a value", p)
			}
			for j, df := range v.Files {
				fp := fmt.Sprintf("%s.files[%d]", p, j)
				if df.Path == "" {
					ps.add(f, ErrSchema, "%s.path is empty", fp)
				}
				if df.Bytes < 0 || df.Bytes > download.MaxSafeBytes {
					ps.add(f, ErrSchema, "%s.bytes is outside [0, 2^53-1]", fp)
				}
				if !canonjson.ValidDigest(df.SHA256) {
					ps.add(f, ErrSchema, "%s.sha256 is not a sha256 digest", fp)
				}
			}
		} else if len(v.Files) > 0 {
			ps.add(f, ErrSchema, "%s: only a download_set holds files", p)
		}
		if !v.Produced && (v.Value != nil || len(v.Files) > 0) {
			ps.add(f, ErrInconsistent, "%s is not produced but holds a value", p)
		}
		if v.Produced && v.Value == nil && v.Kind != string(capability.OutputDownloadSet) {
			ps.add(f, ErrInconsistent, "%s is produced but holds no value", p)
		}
		if v.Value != nil {
			checkValueShape(f, p+".value", v.Kind, v.Value, &ps)
		}
	}
	checkOutputsRules(o, &ps)
	return ps
}

// checkValueShape checks the JSON shape of a value by kind (the field
// shape against a capability is checked by VerifyRun).
func checkValueShape(f, p, kind string, v any, ps *problems) {
	switch kind {
	case string(capability.OutputText):
		if _, ok := v.(string); !ok {
			ps.add(f, ErrSchema, "%s: a text output holds a string", p)
		}
	case string(capability.OutputRecord):
		if _, ok := v.(map[string]any); !ok {
			ps.add(f, ErrSchema, "%s: a record output holds an object", p)
		}
	case string(capability.OutputRecordSet):
		xs, ok := v.([]any)
		if !ok {
			ps.add(f, ErrSchema, "%s: a record_set output holds an array", p)
			return
		}
		for i, x := range xs {
			if _, ok := x.(map[string]any); !ok {
				ps.add(f, ErrSchema, "%s[%d]: a record_set holds objects", p, i)
				return
			}
		}
	}
}

// checkLock applies the lock's schema rules.
func checkLock(l *Lock) problems {
	const f = FileLock
	var ps problems
	if l.Algorithm != "sha256" {
		ps.add(f, ErrSchema, "algorithm %s is not sha256", short(l.Algorithm))
	}
	if !validRunID(l.RunID) {
		ps.add(f, ErrSchema, "run_id is not 1 to %d bytes of [A-Za-z0-9._-]", MaxRunIDLen)
	}
	if !canonjson.ValidDigest(l.Receipt) {
		ps.add(f, ErrSchema, "receipt is not a sha256 digest")
	}
	if !canonjson.ValidDigest(l.Outputs) {
		ps.add(f, ErrSchema, "outputs is not a sha256 digest")
	}
	switch l.Schema {
	case SchemaLockV1:
		if l.RecoveryProposals != "" {
			ps.add(f, ErrSchema, "a %s lock has no recovery_proposals", SchemaLockV1)
		}
	case SchemaLockV2:
		if !canonjson.ValidDigest(l.RecoveryProposals) {
			ps.add(f, ErrSchema, "a %s lock needs a recovery_proposals sha256 digest", SchemaLockV2)
		}
	case SchemaLockV3:
		if l.RecoveryProposals != "" && !canonjson.ValidDigest(l.RecoveryProposals) {
			ps.add(f, ErrSchema, "recovery_proposals is not a sha256 digest")
		}
		if !canonjson.ValidDigest(l.Capture) {
			ps.add(f, ErrSchema, "a %s lock needs a capture sha256 digest", SchemaLockV3)
		}
	}
	if l.Schema != SchemaLockV3 && l.Capture != "" {
		ps.add(f, ErrSchema, "a %s lock has no capture", l.Schema)
	}
	return ps
}

// checkProposals applies recovery.proposals.json's schema rules.
func checkProposals(pr *Proposals) problems {
	const f = FileProposals
	var ps problems
	if !validRunID(pr.RunID) {
		ps.add(f, ErrSchema, "run_id is not 1 to %d bytes of [A-Za-z0-9._-]", MaxRunIDLen)
	}
	if len(pr.Proposals) == 0 {
		ps.add(f, ErrSchema, "no proposal recorded")
	}
	for i, p := range pr.Proposals {
		pp := "proposals[" + strconv.Itoa(i) + "]"
		if !validID(p.Target.ActionID) {
			ps.add(f, ErrSchema, "%s.target.action_id is not an action id", pp)
		}
		if p.Target.Field != "" && !validName(p.Target.Field) {
			ps.add(f, ErrSchema, "%s.target.field is not a field name", pp)
		}
		if p.Locator != nil {
			if _, ok := p.Locator.(map[string]any); !ok {
				ps.add(f, ErrSchema, "%s.locator is not a locator object", pp)
			}
			if p.UseResolvedActionRoot {
				ps.add(f, ErrSchema, "%s proposes both a locator and the resolved action root", pp)
			}
		}
		if p.UseResolvedActionRoot && p.Target.Field == "" {
			ps.add(f, ErrSchema, "%s: the resolved action root is a choice for a field only", pp)
		}
		if !validLabel(p.Rationale, MaxProposalTextLen, true) || !validLabel(p.Uncertainty, MaxProposalTextLen, true) {
			ps.add(f, ErrSchema, "%s rationale or uncertainty is not bounded text", pp)
		}
		if !canonjson.ValidDigest(p.ContractHash) {
			ps.add(f, ErrSchema, "%s.contract_hash is not a sha256 digest", pp)
		}
		if p.FailureHash != "" && !canonjson.ValidDigest(p.FailureHash) {
			ps.add(f, ErrSchema, "%s.failure_hash is not a sha256 digest", pp)
		}
		if !proposalOutcomes[p.Outcome] {
			ps.add(f, ErrSchema, "%s.outcome is not recovered, failed or rejected", pp)
		}
	}
	checkProposalsRules(pr, &ps)
	return ps
}

// scanSecrets reports credential-shaped strings in a document that must
// hold none, by path and kind only.
func scanSecrets(file string, raw []byte) problems {
	var ps problems
	for i, fd := range redact.ScanJSON(raw) {
		if i == maxDiffs {
			ps.add(file, ErrSecret, "more secret-shaped strings omitted")
			break
		}
		where := fd.Path
		if where == "" {
			where = "(document)"
		}
		ps.add(file, ErrSecret, "%s-shaped string at %s", fd.Kind, short(where))
	}
	return ps
}
