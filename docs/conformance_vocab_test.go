package docs

import (
	"encoding/json"
	"go/ast"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// Closed vocabularies with both verdicts (FORMAT.md 8, 12.1). For every
// closed set a document carries, TestConformanceClosedSets requires a
// vector where each value of the Go set is accepted in a valid document
// and a vector where a value outside the set is rejected with the set's
// problem code. The Go sets are read from the code (exported constants,
// and the unexported set literals of receipt/check.go by AST), so a value
// added to a set without a vector fails the test.

// capVocabulary is the capability that carries every value of the
// capability enumerations (8.10) the worked capabilities do not.
const capVocabulary = "capabilities/valid/teller-vocabulary.json"

// vocabularyCapability derives, from the worked capability, one that
// uses every operation, input type, output kind, field type, extract
// mode, read kind, condition kind and locator strategy, with provenance
// kind written out and discovery mode autonomous. It validates and runs.
func vocabularyCapability(t *testing.T, worked *capability.Capability) *capability.Capability {
	t.Helper()
	c, err := worked.Clone()
	if err != nil {
		t.Fatal(err)
	}
	c.ID = "teller.member-vocabulary"
	c.Name = "Member statement export with filters"
	c.Goal = "Look up a member by ID, set the statement filters, read the summary and a note, and export the statement."
	c.Provenance.Kind = capability.ProvenanceDiscovery
	c.Provenance.DiscoveryMode = "autonomous"
	c.Authority.MaxEffect = capability.EffectReversible
	lo, hi := 0.0, 100000.0
	c.Inputs = append(c.Inputs,
		capability.Input{Name: "min_amount", Type: capability.InputNumber, Description: "The smallest amount listed", Minimum: &lo, Maximum: &hi},
		capability.Input{Name: "months", Type: capability.InputInteger, Description: "How many months to list", Minimum: &lo, Maximum: &hi},
		capability.Input{Name: "since", Type: capability.InputDate, Description: "The first day listed"},
		capability.Input{Name: "format", Type: capability.InputEnum, Description: "The statement format", Values: []string{"csv", "pdf"}},
		capability.Input{Name: "include_closed", Type: capability.InputBoolean, Description: "Whether closed accounts are listed"},
	)
	c.Outputs[0].Fields = append(c.Outputs[0].Fields,
		capability.OutputField{Name: "visits", Type: capability.FieldInteger},
		capability.OutputField{Name: "active", Type: capability.FieldBoolean})
	c.Outputs = append(c.Outputs, capability.Output{Name: "note", Kind: capability.OutputText, Exposure: capability.ExposureModelSummary})
	label := func(l string) []locator.Candidate {
		return []locator.Candidate{{Strategy: locator.Label, Label: l, Exact: true}}
	}
	visible := func(cs []locator.Candidate) *capability.Condition {
		return &capability.Condition{Kind: capability.CondLocatorVisible, LocatorCandidates: cs}
	}
	filters := []locator.Candidate{{Strategy: locator.Role, Role: "form", Name: "Statement filters", Exact: true}}
	read, _, _, ok := c.Action("read-summary")
	if !ok {
		t.Fatal("no read-summary")
	}
	read.Extract.Fields = append(read.Extract.Fields,
		capability.Field{Name: "visits", Type: capability.FieldInteger, Read: capability.ReadAttribute, Attribute: "data-visits",
			LocatorCandidates: []locator.Candidate{{Strategy: locator.TestID, TestID: "member-visits"}}},
		capability.Field{Name: "active", Type: capability.FieldBoolean, Read: capability.ReadValue,
			LocatorCandidates: []locator.Candidate{{Strategy: locator.TestID, TestID: "member-active"}}})
	read.Extract.Fields[0].Read = capability.ReadText
	m := &c.Milestones[1]
	pre := []capability.Action{
		{ID: "open-statements", Operation: capability.OpNavigate, Intent: "Open the member's statements page", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, URL: "/members/statements",
			Query:         []capability.QueryEntry{{Name: "closed", Value: "{{include_closed|url}}"}},
			Postcondition: &capability.Condition{Kind: capability.CondURLPath, Value: "/members/statements"}},
		{ID: "wait-filters", Operation: capability.OpWait, Intent: "Wait for the loading banner to go", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, Postcondition: &capability.Condition{Kind: capability.CondLocatorHidden,
				LocatorCandidates: []locator.Candidate{{Strategy: locator.Text, Text: "Loading statements", Exact: true}}}},
		{ID: "fill-min-amount", Operation: capability.OpFill, Intent: "Type the smallest amount", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, LocatorCandidates: label("Smallest amount"), Input: "min_amount", Postcondition: visible(filters)},
		{ID: "fill-months", Operation: capability.OpFill, Intent: "Type the number of months", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, LocatorCandidates: []locator.Candidate{{Strategy: locator.Placeholder, Placeholder: "Months", Exact: true}},
			Input: "months", Postcondition: visible(filters)},
		{ID: "fill-since", Operation: capability.OpFill, Intent: "Type the first day", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, LocatorCandidates: label("Since"), Input: "since", Postcondition: visible(filters)},
		{ID: "choose-format", Operation: capability.OpSelect, Intent: "Choose the statement format", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, LocatorCandidates: label("Format"), Input: "format", Postcondition: visible(filters)},
		{ID: "check-summary", Operation: capability.OpCheck, Intent: "Include the summary page", Effect: capability.EffectReversible,
			Confirmation: capability.ConfirmNone, LocatorCandidates: label("Include summary"), Postcondition: visible(filters)},
		{ID: "uncheck-archive", Operation: capability.OpUncheck, Intent: "Leave archived statements out", Effect: capability.EffectReversible,
			Confirmation: capability.ConfirmNone, LocatorCandidates: label("Include archived"), Postcondition: visible(filters)},
		{ID: "apply-filters", Operation: capability.OpPress, Intent: "Apply the filters", Effect: capability.EffectReadOnly,
			Confirmation: capability.ConfirmNone, LocatorCandidates: label("Format"), Key: "Enter",
			Postcondition: &capability.Condition{Kind: capability.CondURLIncludes, Value: "/members/statements"}},
	}
	note := capability.Action{ID: "read-note", Operation: capability.OpExtract, Intent: "Read the statement note", Effect: capability.EffectReadOnly,
		Confirmation: capability.ConfirmNone, LocatorCandidates: []locator.Candidate{{Strategy: locator.Role, Role: "note", Name: "Statement note", Exact: true}},
		Output: "note", Extract: &capability.Extraction{Mode: capability.ExtractText},
		Postcondition: &capability.Condition{Kind: capability.CondOutputProduced, Output: "note"}}
	m.Actions = slices.Concat(pre, m.Actions[:1], []capability.Action{note}, m.Actions[1:])
	return c
}

// goSet returns the string values of the set literal assigned to the
// package-level variable name in the non-test files of dir: every string
// literal and every constant (of dir) named in its initializer.
func goSet(t *testing.T, dir, name string) []string {
	t.Helper()
	consts := map[string]string{}
	for _, af := range parseDir(t, dir) {
		ast.Inspect(af, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || len(vs.Values) != len(vs.Names) {
				return true
			}
			for i, id := range vs.Names {
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
					if v, err := strconv.Unquote(lit.Value); err == nil {
						consts[id.Name] = v
					}
				}
			}
			return true
		})
	}
	var out []string
	for _, af := range parseDir(t, dir) {
		for _, d := range af.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range gd.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for i, id := range vs.Names {
					if id.Name != name || i >= len(vs.Values) {
						continue
					}
					ast.Inspect(vs.Values[i], func(n ast.Node) bool {
						switch x := n.(type) {
						case *ast.BasicLit:
							if v, err := strconv.Unquote(x.Value); err == nil {
								out = append(out, v)
							}
						case *ast.Ident:
							if v, ok := consts[x.Name]; ok {
								out = append(out, v)
							}
						}
						return true
					})
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no values found for the set %s of %s (has it moved?)", name, dir)
	}
	return sortedUnique(out)
}

// oneOf returns the values of the validate:"oneof=..." tag of field f of
// struct type typ: the set of a member that has no named type.
func oneOf(t *testing.T, typ reflect.Type, f string) []string {
	t.Helper()
	sf, ok := typ.FieldByName(f)
	if !ok {
		t.Fatalf("%s has no field %s", typ, f)
	}
	for _, r := range strings.Split(sf.Tag.Get("validate"), ",") {
		if v, ok := strings.CutPrefix(r, "oneof="); ok {
			return strings.Fields(v)
		}
	}
	t.Fatalf("%s.%s has no oneof rule", typ, f)
	return nil
}

// closedSet is one closed vocabulary a document carries.
type closedSet struct {
	name string
	// values are the Go set's values; "" (an omitted member) is dropped.
	values []string
	// paths are the document member paths that carry it ("." joined
	// member names, array levels dropped), per file kind: "receipt",
	// "proposals" or "capability".
	file  string
	paths []string
	// code is the problem code a value outside the set is rejected with.
	code string
}

// closedSets lists every closed vocabulary of 8.1 to 8.4 and 8.10 that a
// run file or a capability carries.
func closedSets(t *testing.T) []closedSet {
	t.Helper()
	capConsts := func(typ string) []string { return constValues(t, "../capability", typed(typ)) }
	reasons := runtime.Reasons()
	return []closedSet{
		{"execution modes", constValues(t, "../receipt", typed("ExecutionMode")), "receipt", []string{"execution_mode"}, "schema"},
		{"terminal states", constValues(t, "../receipt", typed("TerminalState")), "receipt", []string{"terminal.state"}, "schema"},
		{"failure categories", constValues(t, "../receipt", typed("Category")), "receipt", []string{"terminal.failure.category", "actions.failure.category"}, "schema"},
		{"reason codes", reasons, "receipt", []string{"terminal.failure.reason", "actions.failure.reason"}, "schema"},
		{"action statuses", constValues(t, "../receipt", typed("ActionStatus")), "receipt", []string{"actions.status"}, "schema"},
		{"milestone statuses", goSet(t, "../receipt", "milestoneStatuses"), "receipt", []string{"milestones.status"}, "schema"},
		{"postcondition values", goSet(t, "../receipt", "postconditions"), "receipt", []string{"actions.postcondition"}, "schema"},
		{"download mechanisms", constValues(t, "../download", prefix("Mechanism")), "receipt", []string{"actions.download.mechanism"}, "schema"},
		{"download evidence", constValues(t, "../download", prefix("Evidence")), "receipt", []string{"actions.download.evidence"}, "schema"},
		{"proposal outcomes", goSet(t, "../receipt", "proposalOutcomes"), "proposals", []string{"proposals.outcome"}, "schema"},

		{"capability states", capConsts("State"), "capability", []string{"state"}, "unknown_state"},
		{"provenance kinds", capConsts("ProvenanceKind"), "capability", []string{"provenance.kind"}, "unknown_provenance_kind"},
		{"discovery modes", oneOf(t, reflect.TypeFor[capability.Provenance](), "DiscoveryMode"), "capability", []string{"provenance.discovery_mode"}, "unknown_discovery_mode"},
		{"effects", capConsts("Effect"), "capability", []string{"authority.max_effect", "milestones.actions.effect"}, "unknown_effect"},
		{"confirmations", capConsts("Confirmation"), "capability", []string{"milestones.actions.confirmation"}, "unknown_confirmation"},
		{"operations", capConsts("Operation"), "capability", []string{"milestones.actions.operation"}, "unknown_operation"},
		{"input types", capConsts("InputType"), "capability", []string{"inputs.type"}, "unknown_input_type"},
		{"output kinds", capConsts("OutputKind"), "capability", []string{"outputs.kind"}, "unknown_output_kind"},
		{"exposures", capConsts("Exposure"), "capability", []string{"outputs.exposure"}, "unknown_exposure"},
		{"field types", capConsts("FieldType"), "capability", []string{"outputs.fields.type", "milestones.actions.extract.fields.type"}, "unknown_field_type"},
		{"condition kinds", capConsts("ConditionKind"), "capability", []string{"milestones.actions.postcondition.kind", "milestones.transitions.when.kind"}, "unknown_condition_kind"},
		{"extract modes", capConsts("ExtractMode"), "capability", []string{"milestones.actions.extract.mode"}, "unknown_extract_mode"},
		{"read kinds", capConsts("ReadKind"), "capability", []string{"milestones.actions.extract.fields.read"}, "unknown_read_kind"},
		{"locator strategies", constValues(t, "../locator", typed("Strategy")), "capability", []string{"milestones.actions.locator_candidates.strategy",
			"milestones.actions.postcondition.locator_candidates.strategy", "milestones.transitions.when.locator_candidates.strategy",
			"milestones.actions.extract.fields.locator_candidates.strategy", "business_outcomes.detect.locator_candidates.strategy"}, "locator_unknown_strategy"},
	}
}

// memberValues collects the string values of v by member path.
func memberValues(v any, p string, out map[string][]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			q := k
			if p != "" {
				q = p + "." + k
			}
			if s, ok := e.(string); ok {
				out[q] = append(out[q], s)
			}
			memberValues(e, q, out)
		}
	case []any:
		for _, e := range x {
			memberValues(e, p, out)
		}
	}
}

// vectorDocs returns, for each case of the manifest, the member values of
// the documents of the kind file it holds: a capability's file, a run
// folder's receipt or proposals, a bundle's receipts.
func vectorDocs(t *testing.T, cc *confCase, file string) []map[string][]string {
	t.Helper()
	var paths []string
	root := filepath.Join(conformanceDir, filepath.FromSlash(cc.Path))
	switch {
	case file == "capability" && cc.Kind == kindCapability:
		paths = []string{root}
	case file == "receipt" && cc.Kind == kindRun:
		paths = []string{filepath.Join(root, receipt.FileReceipt)}
	case file == "proposals" && cc.Kind == kindRun:
		paths = []string{filepath.Join(root, receipt.FileProposals)}
	case file == "receipt" && cc.Kind == kindBundle:
		paths, _ = filepath.Glob(filepath.Join(root, "receipts", "*.json"))
	}
	var out []map[string][]string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue // a case without that file
		}
		var v any
		if json.Unmarshal(b, &v) != nil {
			continue
		}
		m := map[string][]string{}
		memberValues(v, "", m)
		out = append(out, m)
	}
	return out
}

// accepted reports whether a case's documents count as accepting their
// values: a valid run or bundle, or a capability that passes parsing and
// Validate (stage execution: a scaffold or draft is refused for running
// by its state, not by its vocabulary).
func accepted(cc *confCase) bool {
	if cc.Kind == kindCapability {
		return cc.Stage == stageExecution
	}
	return cc.Verdict == verdictValid && (cc.Kind == kindRun || cc.Kind == kindBundle)
}

// TestConformanceClosedSets fails when a value of a closed set has no
// vector accepting it, or a set has no vector rejecting a value outside
// it with its code.
func TestConformanceClosedSets(t *testing.T) {
	m := readManifest(t)
	for _, s := range closedSets(t) {
		in := map[string]bool{}
		for _, v := range s.values {
			in[v] = true
		}
		seen := map[string]bool{}
		var rejected []string
		for _, cc := range m.Cases {
			for _, doc := range vectorDocs(t, cc, s.file) {
				for _, p := range s.paths {
					for _, v := range doc[p] {
						if accepted(cc) {
							if !in[v] {
								t.Errorf("%s: %s accepts %s %q, which is not in the Go set", cc.ID, p, s.name, v)
							}
							seen[v] = true
						} else if !in[v] && cc.Verdict == verdictInvalid && slices.Contains(cc.Codes, s.code) {
							rejected = append(rejected, cc.ID)
						}
					}
				}
			}
		}
		var missing []string
		for _, v := range s.values {
			if v != "" && !seen[v] {
				missing = append(missing, v)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%s: no valid vector accepts %s", s.name, strings.Join(missing, ", "))
		}
		if len(rejected) == 0 {
			t.Errorf("%s: no invalid vector holds a value outside the set rejected with %s", s.name, s.code)
		}
	}
}

// reasonCategories maps each reason code of the 8.3 table to the first
// category of its row ("any" is internal); download reason codes (8.4)
// go with download_failed.
func reasonCategories() map[string]receipt.Category {
	raw, err := os.ReadFile(formatFile)
	if err != nil {
		panic(err)
	}
	page := string(raw)
	start := strings.Index(page, "\n### 8.3 ")
	end := strings.Index(page, "\n### 8.4 ")
	out := map[string]receipt.Category{}
	if start < 0 || end < start {
		return out
	}
	for _, line := range strings.Split(page[start:end], "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		r := strings.Trim(strings.TrimSpace(cells[1]), "`")
		cat := strings.Trim(strings.Fields(strings.TrimSpace(cells[2]))[0], "`")
		if cat == "any" {
			cat = string(receipt.CategoryInternal)
		}
		out[r] = receipt.Category(cat)
	}
	for _, r := range runtime.Reasons() {
		if _, ok := out[r]; !ok {
			out[r] = receipt.CategoryDownloadFailed
		}
	}
	return out
}

// The closed-set run vectors: one valid run per reason code (so per
// category as well), one per remaining value, and one invalid run per
// set with a value outside it.
func init() {
	cats := reasonCategories()
	for _, r := range runtime.Reasons() {
		reason, cat := r, cats[r]
		if reason == receipt.ReasonOutcomeUnconfirmed {
			// Only a dispatched consequential action fails this way: the
			// close capability's approved click that changed nothing.
			runCases = append(runCases, runCase{id: "valid-reason-" + strings.ReplaceAll(reason, "_", "-"), from: closeUnconfirmed,
				rules: []string{"run.file.receipt", "run.cap.approvals"},
				note:  "the approved close click was dispatched and its postcondition never held: effect_unconfirmed, " + reason + " (8.2, 8.3)"})
			continue
		}
		runCases = append(runCases, runCase{id: "valid-reason-" + strings.ReplaceAll(reason, "_", "-"),
			edit: func(t *testing.T, b *confBase, rf *runFiles) {
				failAt(t, rf, "export-statement", receipt.Failure{Category: cat, Reason: reason})
				if reason == "postcondition_failed" {
					rf.r.Actions[len(rf.r.Actions)-1].Postcondition = "failed"
				}
			},
			rules: []string{"run.file.receipt"},
			note:  "a run failed at the download with category " + string(cat) + " and reason " + reason + " (8.2, 8.3, 8.4)"})
	}
	unknown := func(id, note string, edit func(rf *runFiles)) runCase {
		return runCase{id: id, edit: func(t *testing.T, b *confBase, rf *runFiles) { edit(rf) },
			codes: []string{"schema"}, rules: []string{"run.file.receipt"}, note: note}
	}
	download := func(rf *runFiles) *receipt.DownloadProof {
		return rf.r.Actions[actionIndex(rf.r, "export-statement")].Download
	}
	runCases = append(runCases,
		runCase{id: "valid-mode-live-launched", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.ExecutionMode = receipt.ModeLiveLaunched },
			rules: []string{"run.file.receipt"}, note: "execution_mode live_launched_browser (8.1)"},
		runCase{id: "valid-action-blocked", edit: func(t *testing.T, b *confBase, rf *runFiles) {
			endAt(t, rf, "look-up", receipt.TerminalBlockedByUnknownModal, receipt.Failure{Category: receipt.CategoryUIAssertionFailed, Reason: "native_dialog"})
			a := &rf.r.Actions[len(rf.r.Actions)-1]
			a.Status, a.Failure = receipt.ActionBlocked, nil
		}, rules: []string{"run.file.receipt"}, note: "a native dialog blocked the look-up click: the action is blocked, the terminal carries the failure (8.1)"},
		runCase{id: "valid-download-directory", edit: func(t *testing.T, b *confBase, rf *runFiles) {
			d := download(rf)
			d.Mechanism, d.Evidence = "directory", "download-directory-bytes-verified"
		}, rules: []string{"run.file.receipt", "run.cap.download-evidence"}, note: "a download attributed by directory correlation (8.4)"},
		runCase{id: "valid-proposal-failed", edit: func(t *testing.T, b *confBase, rf *runFiles) {
			withProposals(t, b, rf)
			rf.p.Proposals[0].Outcome = "failed"
		}, rules: []string{"run.file.proposals", "run.proposals"}, note: "a recovery proposal that was tried and did not resolve (8.1)"},
		runCase{id: "valid-proposal-recovered", edit: func(t *testing.T, b *confBase, rf *runFiles) {
			withProposals(t, b, rf)
			rf.p.Proposals[0].Outcome = "recovered"
			rf.r.Recovered = true
			rf.r.Actions[actionIndex(rf.r, "look-up")].Recovered = true
		}, rules: []string{"run.file.proposals", "run.proposals"}, note: "a recovery proposal that resolved look-up: the action and the run are recovered (8.1)"},

		unknown("receipt-unknown-mode", "execution_mode live_remote_chrome is outside 8.1", func(rf *runFiles) { rf.r.ExecutionMode = "live_remote_chrome" }),
		unknown("receipt-unknown-terminal-state", "terminal state aborted is outside 8.1 (the run is not clean)", func(rf *runFiles) {
			rf.r.Terminal.State, rf.r.Clean = "aborted", false
		}),
		unknown("receipt-unknown-category", "a failure category network_error outside 8.2", func(rf *runFiles) {
			rf.r.Terminal.Failure = &receipt.Failure{Category: "network_error", Reason: "navigation_failed"}
			rf.r.Terminal.State, rf.r.Clean = receipt.TerminalFailed, false
		}),
		runCase{id: "receipt-unknown-action-status", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Actions[0].Status = "skipped" },
			codes: []string{"schema", "sequence"}, rules: []string{"run.file.receipt", "run.seq.last"},
			note: "action status skipped is outside 8.1; a completed run's action that did not pass is also out of sequence"},
		runCase{id: "receipt-unknown-milestone-status", edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Milestones[0].Status = "skipped" },
			codes: []string{"schema", "sequence"}, rules: []string{"run.file.receipt", "run.seq.completed"},
			note: "milestone status skipped is outside 8.1; a completed run's visit that did not complete is also out of sequence"},
		unknown("receipt-unknown-postcondition", "postcondition value assumed is outside 8.1", func(rf *runFiles) { rf.r.Actions[0].Postcondition = "assumed" }),
		unknown("receipt-unknown-evidence", "download evidence download-bytes-verified is outside 8.4", func(rf *runFiles) { download(rf).Evidence = "download-bytes-verified" }),
		runCase{id: "proposal-unknown-outcome", edit: func(t *testing.T, b *confBase, rf *runFiles) {
			withProposals(t, b, rf)
			rf.p.Proposals[0].Outcome = "accepted"
		}, codes: []string{"schema"}, rules: []string{"run.file.proposals"}, note: "a recovery proposal outcome accepted is outside 8.1"},
	)
}
