package docs

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/receipt"
)

// Compare cases (kind compare, FORMAT.md 12.1): two run folders of the
// tree compared by receipt.Compare with the case's options; the expected
// result is the canonical comparison document at the case's path, its
// verdict the comparison's verdict and its codes the distinct alignment
// codes. The run folders are run cases of their own; the ones made only
// for a comparison are listed in compareRunCases.

// kindCompare is the kind of a comparison case.
const kindCompare = "compare"

// compareOptions is a compare case's options member: what the caller
// handed receipt.Compare.
type compareOptions struct {
	// Captures compares the runs' step captures too (WithCaptures): each
	// folder's capture.json, none for a folder without one.
	Captures bool `json:"captures,omitempty"`
	// MaxChanges is WithMaxChanges' bound; absent means the default.
	MaxChanges *int `json:"max_changes,omitempty"`
	// Rules are the caller rules (WithRule), in the order given.
	Rules []receipt.Rule `json:"rules,omitempty"`
}

// A compareCase is one comparison vector.
type compareCase struct {
	id   string
	a, b string // run case ids (folders under runs/)
	opts compareOptions
	note string
}

func maxChanges(n int) *int { return &n }

var compareCases = []compareCase{
	{id: "unchanged", a: liveA, b: liveB,
		note: "the two live runs of the validated bundle: only run ids differ, which are ignored"},
	{id: "execution-mode-changed", a: "valid", b: liveA,
		note: "the simulated worked run against a live one: execution_mode changed"},
	{id: "rule-hides-mode", a: "valid", b: liveA,
		opts: compareOptions{Rules: []receipt.Rule{{Kind: receipt.ArtifactMode, Find: "simulated", Replace: "live_connected_chrome"}}},
		note: "a caller rule over execution_mode makes the two modes equal: unchanged, and the policy commits to the rule"},
	{id: "rules-sorted", a: "valid", b: liveA,
		opts: compareOptions{Rules: []receipt.Rule{
			{Kind: receipt.ArtifactMode, Find: "simulated", Replace: "live_connected_chrome"},
			{Kind: receipt.ArtifactEnvironment, Find: "vera conformance", Replace: "vera"},
			{Kind: receipt.ArtifactMode, Find: "simulated", Replace: "live_connected_chrome"},
			{Kind: receipt.ArtifactCapability, Find: "teller", Replace: "bank"},
		}},
		note: "rules given out of order and one twice: the policy lists them sorted by kind, find, replace, without the duplicate"},
	{id: "over-limit", a: liveA, b: liveB,
		opts: compareOptions{Rules: []receipt.Rule{
			{Kind: receipt.ArtifactMode, Find: "e", Replace: strings.Repeat("e", 256)},
			{Kind: receipt.ArtifactMode, Find: "ee", Replace: strings.Repeat("e", 256)},
		}},
		note: "two rules that grow execution_mode beyond 64 KiB: over_limit on both sides, so unknown, never equal"},
	{id: "failed", a: "valid", b: "valid-failed",
		note: "a completed run against a failed one: action, failure, records, milestones, terminal, flags and outputs"},
	{id: "max-changes-1", a: "valid", b: "valid-failed", opts: compareOptions{MaxChanges: maxChanges(1)},
		note: "the same comparison retaining one change: the totals stay complete and count the omitted ones"},
	{id: "max-changes-0", a: "valid", b: "valid-failed", opts: compareOptions{MaxChanges: maxChanges(0)},
		note: "no change retained: changes is empty, omitted counts all of them"},
	{id: "download-changed", a: "valid", b: "valid-download-directory",
		note: "the download step's evidence differs"},
	{id: "approval-changed", a: "close-valid-approved", b: "close-valid-approver-case-differs",
		note: "the consequential step's approval differs"},
	{id: "approval-missing", a: "close-valid-approved", b: "close-valid-stopped-at-gate",
		note: "a run that passed the gate against one that stopped at it"},
	{id: "capability-changed", a: liveA, b: "live-b-version",
		note: "the same capability id at another version: the capability artifact changed, no alignment failure"},
	{id: "capability-mismatch", a: liveA, b: "live-b-capability-id",
		note: "another capability id: capability_mismatch"},
	{id: "environment-changed", a: liveA, b: "live-b-environment",
		note: "the declared environment differs"},
	{id: "flags-changed", a: liveA, b: "live-b-handed-off",
		note: "the run flags differ"},
	{id: "input-missing", a: "valid", b: "input-not-recorded",
		note: "an input recorded in one run only: missing, so unknown"},
	{id: "origins-changed", a: "valid", b: "origin-not-allowed",
		note: "the origins reached differ"},
	{id: "blocked-requests-records-changed", a: liveA, b: "compare-b-blocked-records",
		note: "b blocked two requests and counted two records in read-summary: blocked_requests and records changed"},
	{id: "duplicate-step", a: liveA, b: "compare-b-duplicate-step",
		note: "b records one step twice: duplicate_step (side b)"},
	{id: "duplicate-step-both", a: "compare-b-duplicate-step", b: "compare-b-duplicate-step",
		note: "both runs record one step twice: duplicate_step without a side"},
	{id: "missing-in-b", a: liveA, b: "compare-b-step-dropped",
		note: "b lacks a step: missing_in_b"},
	{id: "missing-in-a", a: "compare-b-step-dropped", b: liveA,
		note: "a lacks a step: missing_in_a"},
	{id: "action-kind-changed", a: liveA, b: "compare-b-operation-changed",
		note: "a step whose operation differs: action_kind_changed"},

	// Step captures (7.1).
	{id: "capture-unchanged", a: "compare-capture-a", b: "compare-capture-b", opts: compareOptions{Captures: true},
		note: "two captures of the same flow: unchanged, elapsed times and event seq ignored"},
	{id: "capture-dom-changed", a: "compare-capture-a", b: "compare-capture-b-changed", opts: compareOptions{Captures: true},
		note: "the page changed after look-up: the dom, url and events of that step changed, the others unchanged"},
	{id: "capture-dom-rule", a: "compare-capture-a", b: "compare-capture-b-changed", opts: compareOptions{Captures: true,
		Rules: []receipt.Rule{{Kind: receipt.ArtifactDOM, Find: "Ada Lovelace", Replace: "Member lookup"}}},
		note: "a caller rule over dom hides the page change there; url and events still changed"},
	{id: "capture-whitespace", a: "compare-capture-a", b: "compare-capture-b-whitespace", opts: compareOptions{Captures: true},
		note: "DOM text differing only in white space runs: unchanged after collapse_whitespace"},
	{id: "capture-truncated", a: "compare-capture-a", b: "compare-capture-b-truncated", opts: compareOptions{Captures: true},
		note: "a truncated DOM section in b: truncated, so unknown, never equal"},
	{id: "capture-sections", a: "compare-capture-a", b: "compare-capture-b-sections", opts: compareOptions{Captures: true},
		note: "b captured screenshot, accessibility, history and storage that a did not: disabled on a's side, unknown; and a missing section"},
	{id: "capture-missing-run", a: liveA, b: "compare-capture-b", opts: compareOptions{Captures: true},
		note: "only b has a capture: capture_missing (side a), every aligned step unknown"},
	{id: "capture-missing-step", a: "valid-capture", b: "capture-steps-mismatch", opts: compareOptions{Captures: true},
		note: "b's capture records one step twice and another not at all: duplicate_step and capture_missing for the steps"},
	{id: "capture-missing-step-both", a: "capture-steps-mismatch", b: "capture-steps-mismatch", opts: compareOptions{Captures: true},
		note: "both captures record one step twice and another not at all: duplicate_step and capture_missing without a side"},
	{id: "capture-context-mismatch", a: "valid-capture", b: "compare-capture-b", opts: compareOptions{Captures: true},
		note: "a simulated capture against a live one: capture_context_mismatch, and execution_mode changed"},
	{id: "capture-ignored-without-option", a: "compare-capture-a", b: "compare-capture-b-changed",
		note: "the same runs compared without captures: the capture is not read, the policy has no capture member"},
}

// withLiveCapture gives a run the conformance capture, then edits it.
func withLiveCapture(edit func(c *receipt.Capture)) func(t *testing.T, b *confBase, rf *runFiles) {
	return func(t *testing.T, b *confBase, rf *runFiles) {
		withCaptureFile(t, b, rf)
		if edit != nil {
			edit(rf.c)
			rf.c.Summarize()
		}
	}
}

// textSection is a captured text section.
func textSection(s string) receipt.CaptureSection {
	return receipt.CaptureSection{State: receipt.CaptureCaptured, Bytes: len(s), SHA256: canonjson.SumBytes([]byte(s)), Content: s}
}

// tinyPNG is a 2x2 PNG for the screenshot section.
func tinyPNG(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{R: 200, A: 255})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// compareRunCases are run folders made for the comparison cases.
var compareRunCases = []runCase{
	{id: "compare-b-duplicate-step", from: liveB, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		a := rf.r.Actions
		rf.r.Actions = append(append(slices.Clone(a[:2]), a[1]), a[2:]...)
	}, codes: []string{"sequence"}, rules: []string{"run.seq.actions"}, note: "the second live run recording fill-passcode twice; a comparison input"},
	{id: "compare-b-blocked-records", from: liveB, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.BlockedRequests, rf.r.Clean = 2, false
		two := 2
		rf.r.Actions[3].Records = &two
	}, codes: []string{"outputs"}, rules: []string{"run.cap.record-counts"}, note: "the second live run with two blocked requests and a record count its output does not have; a comparison input"},
	{id: "compare-b-step-dropped", from: liveB, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Actions = slices.Delete(slices.Clone(rf.r.Actions), 1, 2)
	}, rules: []string{"run.seq.actions"}, note: "the second live run without its fill-passcode record (valid: within a visit skipping is allowed); a comparison input"},
	{id: "compare-b-operation-changed", from: liveB, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		rf.r.Actions[2].Operation = "press"
	}, codes: []string{"sequence"}, rules: []string{"run.seq.actions"}, note: "the second live run recording look-up as a press; a comparison input"},
	{id: "compare-capture-a", from: liveA, edit: withLiveCapture(nil), rules: []string{"run.file.capture"},
		note: "the first live run with the conformance capture; a comparison input"},
	{id: "compare-capture-b", from: liveB, edit: withLiveCapture(func(c *receipt.Capture) {
		for i := range c.Steps {
			c.Steps[i].ElapsedMS += 7
		}
		c.Steps[0].Events.Records[0].Seq = 5
	}), rules: []string{"run.file.capture"},
		note: "the second live run with the same capture at other elapsed times and event seq; a comparison input"},
	{id: "compare-capture-b-changed", from: liveB, edit: withLiveCapture(func(c *receipt.Capture) {
		s := &c.Steps[2]
		s.DOM = textSection("<html><head></head><body><h1>Ada Lovelace</h1></body></html>")
		s.URL = textSection(c.Context.Origins[0] + "/members/M-1001")
		ev := receipt.CaptureEvent{Seq: 2, Kind: receipt.EventConsole, Level: "warn", Text: "member loaded"}
		s.Events = receipt.CaptureEvents{State: receipt.CaptureCaptured, Total: 1, Bytes: ev.Size(), Records: []receipt.CaptureEvent{ev}}
	}), rules: []string{"run.file.capture"},
		note: "the second live run whose page changed after look-up (DOM, URL, a console event); a comparison input"},
	{id: "compare-capture-b-whitespace", from: liveB, edit: withLiveCapture(func(c *receipt.Capture) {
		c.Steps[1].DOM = textSection("\n <html><head></head><body><h1>Member \t\n lookup</h1></body></html>  ")
	}), rules: []string{"run.file.capture"},
		note: "the second live run whose DOM after fill-passcode differs only in white space; a comparison input"},
	{id: "compare-capture-b-truncated", from: liveB, edit: withLiveCapture(func(c *receipt.Capture) {
		d := &c.Steps[1].DOM
		kept := d.Content[:16]
		d.State, d.Reason, d.Content, d.SHA256 = receipt.CaptureTruncated, receipt.CaptureReasonSectionLimit, kept, canonjson.SumBytes([]byte(kept))
	}), rules: []string{"run.file.capture"},
		note: "the second live run with a truncated DOM section; a comparison input"},
	{id: "compare-capture-b-sections", from: liveB, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		withCaptureFile(t, b, rf)
		c := rf.c
		c.Policy.Screenshot, c.Policy.Accessibility, c.Policy.History, c.Policy.Storage = true, true, true, true
		shot := tinyPNG(t)
		for _, s := range c.AllSteps() {
			s.Screenshot = receipt.CaptureSection{State: receipt.CaptureCaptured, Bytes: len(shot), SHA256: canonjson.SumBytes(shot),
				Content: base64.StdEncoding.EncodeToString(shot)}
			s.Accessibility = textSection("heading \"Member lookup\"")
			s.History = textSection(c.Context.Origins[0] + "/members")
			s.Storage = textSection("{}")
		}
		c.Steps[3].Storage = receipt.CaptureSection{State: receipt.CaptureMissing, Reason: receipt.CaptureReasonSectionLimit}
		c.Summarize()
	}, rules: []string{"run.file.capture"},
		note: "the second live run capturing every section, storage missing after read-summary; a comparison input"},
}

func init() { runCases = append(runCases, compareRunCases...) }

// compareConfCases computes every comparison from the run folders in
// files, adds the expected documents to files and returns the manifest
// entries.
func compareConfCases(t *testing.T, files map[string][]byte) []*confCase {
	t.Helper()
	var out []*confCase
	for _, cc := range compareCases {
		runs := []string{slashJoin("runs", cc.a), slashJoin("runs", cc.b)}
		get := func(p string) ([]byte, bool) { b, ok := files[p]; return b, ok }
		cmp, err := compareRuns(get, runs, cc.opts)
		if err != nil {
			t.Fatalf("compare.%s: %v", cc.id, err)
		}
		doc, err := cmp.JSON()
		if err != nil {
			t.Fatal(err)
		}
		p := slashJoin("compare", cc.id+".json")
		if _, dup := files[p]; dup {
			t.Fatalf("file %s generated twice", p)
		}
		files[p] = doc
		opts := cc.opts
		out = append(out, &confCase{ID: "compare." + cc.id, Kind: kindCompare, Path: p, Runs: runs, Options: &opts,
			Verdict: string(cmp.Verdict), Codes: alignCodes(cmp), Note: cc.note})
	}
	return out
}

// alignCodes returns the distinct alignment codes of a comparison, sorted.
func alignCodes(c *receipt.Comparison) []string {
	var out []string
	for _, f := range c.AlignmentFailures {
		out = append(out, string(f.Code))
	}
	return sortedUnique(out)
}

// compareRuns loads the receipts (and, with captures, the captures) of
// the two run folders through get and compares them as the case says.
func compareRuns(get func(string) ([]byte, bool), runs []string, o compareOptions) (*receipt.Comparison, error) {
	if len(runs) != 2 {
		return nil, fmt.Errorf("a compare case names %d run folders, want 2", len(runs))
	}
	var rs [2]*receipt.Receipt
	var cs [2]*receipt.Capture
	for i, dir := range runs {
		raw, ok := get(slashJoin(dir, receipt.FileReceipt))
		if !ok {
			return nil, fmt.Errorf("%s has no receipt", dir)
		}
		r, err := receipt.LoadReceipt(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", dir, err)
		}
		rs[i] = r
		if !o.Captures {
			continue
		}
		if raw, ok := get(slashJoin(dir, receipt.FileCapture)); ok {
			c, err := receipt.LoadCapture(raw)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", dir, err)
			}
			cs[i] = c
		}
	}
	var opts []receipt.CompareOption
	if o.MaxChanges != nil {
		opts = append(opts, receipt.WithMaxChanges(*o.MaxChanges))
	}
	for _, r := range o.Rules {
		opts = append(opts, receipt.WithRule(r))
	}
	if o.Captures {
		opts = append(opts, receipt.WithCaptures(cs[0], cs[1]))
	}
	return receipt.Compare(rs[0], rs[1], opts...)
}

// compareCodes runs a compare case on the tree under root: the verdict,
// the alignment codes, and an error when the comparison is not byte for
// byte the expected document.
func compareCodes(root string, cc *confCase) (string, []string, error) {
	if cc.Options == nil {
		return "", nil, fmt.Errorf("a compare case needs options")
	}
	get := func(p string) ([]byte, bool) {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		return b, err == nil
	}
	cmp, err := compareRuns(get, cc.Runs, *cc.Options)
	if err != nil {
		return "", nil, err
	}
	got, err := cmp.JSON()
	if err != nil {
		return "", nil, err
	}
	want, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(cc.Path)))
	if err != nil {
		return "", nil, err
	}
	if !bytes.Equal(got, want) {
		return "", nil, fmt.Errorf("the comparison differs from %s", cc.Path)
	}
	if c, err := canonjson.Transform(want); err != nil || !bytes.Equal(c, want) {
		return "", nil, fmt.Errorf("%s is not canonical JSON", cc.Path)
	}
	return string(cmp.Verdict), alignCodes(cmp), nil
}

// compareVerdicts are the verdicts of a compare case (8.6).
var compareVerdicts = []string{string(receipt.StatusChanged), string(receipt.StatusUnchanged), string(receipt.StatusUnknown)}

// compareTypes are the Go types of the comparison codes of 8.6, with
// the label 8.6 lists them under.
var compareTypes = []struct{ typ, label string }{{"ArtifactKind", "Artifact kinds:"}, {"ChangeStatus", "Statuses and verdicts:"},
	{"Presence", "Artifact states:"}, {"AlignCode", "Alignment codes:"}}

// compareVocab returns the comparison codes of package receipt by type,
// read from its const declarations, so a value added there is seen here.
func compareVocab(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, ct := range compareTypes {
		out[ct.typ] = sortedUnique(constValues(t, "../receipt", typed(ct.typ)))
	}
	return out
}

// compareSeen returns, for each type of compareTypes and each value, the
// compare cases whose expected document carries it where
// TestConformanceCompareCoverage demands it (AlignCode: an alignment
// failure; ArtifactKind and Presence: a change; ChangeStatus: the
// verdict), and the cases by what else they show ("step:" a step status,
// "change:" a change status, "omitted" changes left out).
func compareSeen(t *testing.T, m *manifest) map[string]map[string][]string {
	t.Helper()
	seen := map[string]map[string][]string{}
	add := func(typ, v, id string) {
		if seen[typ] == nil {
			seen[typ] = map[string][]string{}
		}
		if l := seen[typ][v]; len(l) == 0 || l[len(l)-1] != id {
			seen[typ][v] = append(l, id)
		}
	}
	for _, cc := range m.Cases {
		if cc.Kind != kindCompare {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(conformanceDir, filepath.FromSlash(cc.Path)))
		if err != nil {
			t.Fatal(err)
		}
		c, err := decodeComparison(raw)
		if err != nil {
			t.Fatalf("%s: %v", cc.ID, err)
		}
		add("ChangeStatus", string(c.Verdict), cc.ID)
		for _, f := range c.AlignmentFailures {
			add("AlignCode", string(f.Code), cc.ID)
		}
		for _, s := range c.Steps {
			add("step", string(s.Status), cc.ID)
		}
		for _, ch := range c.Changes {
			add("change", string(ch.Status), cc.ID)
			add("ArtifactKind", string(ch.Kind), cc.ID)
			add("Presence", string(ch.Before.State), cc.ID)
			add("Presence", string(ch.After.State), cc.ID)
		}
		if c.Totals.Omitted > 0 {
			add("omitted", "omitted", cc.ID)
		}
	}
	for _, byVal := range seen {
		for v := range byVal {
			byVal[v] = sortedUnique(byVal[v])
		}
	}
	return seen
}

// section86 returns the backquoted values FORMAT.md 8.6 lists after each
// label ("Artifact kinds:", ...), up to the next label.
func section86(t *testing.T, page string) map[string][]string {
	t.Helper()
	body, ok := formatSection(page, "8.6")
	if !ok {
		t.Fatal("FORMAT.md has no section 8.6")
	}
	body = strings.Join(strings.Fields(body), " ")
	out := map[string][]string{}
	for i, l := range compareTypes {
		start := strings.Index(body, l.label)
		if start < 0 {
			t.Fatalf("FORMAT.md 8.6 has no %q", l.label)
		}
		seg := body[start+len(l.label):]
		if i+1 < len(compareTypes) {
			if end := strings.Index(seg, compareTypes[i+1].label); end >= 0 {
				seg = seg[:end]
			}
		}
		for _, m := range regexp.MustCompile("`([a-z_]+)`").FindAllStringSubmatch(seg, -1) {
			out[l.typ] = append(out[l.typ], m[1])
		}
		out[l.typ] = sortedUnique(out[l.typ])
	}
	return out
}

// TestConformanceCompareCoverage fails when a comparison code of FORMAT.md
// 8.6 (or of package receipt) has no compare vector: every alignment code
// in an alignment failure, every status as a verdict and as a step
// status (changed and unknown also as an artifact status), every artifact
// state on a side of a change and every artifact kind in a change; and
// when 8.6 and package receipt list different values.
func TestConformanceCompareCoverage(t *testing.T) {
	page, err := os.ReadFile(formatFile)
	if err != nil {
		t.Fatal(err)
	}
	doc := section86(t, string(page))
	code := compareVocab(t)
	for _, ct := range compareTypes {
		typ := ct.typ
		if len(code[typ]) == 0 || !slices.Equal(doc[typ], code[typ]) {
			t.Errorf("FORMAT.md 8.6 lists %s %v, package receipt declares %v", typ, doc[typ], code[typ])
		}
	}
	m := readManifest(t)
	if !slices.ContainsFunc(m.Cases, func(cc *confCase) bool { return cc.Kind == kindCompare }) {
		t.Fatal("no compare case")
	}
	seen := compareSeen(t, m)
	has := func(typ string) map[string]bool {
		out := map[string]bool{}
		for v := range seen[typ] {
			out[v] = true
		}
		return out
	}
	need := func(what string, vals []string, have map[string]bool) {
		for _, v := range vals {
			if !have[v] {
				t.Errorf("%s %s has no compare vector", what, v)
			}
		}
	}
	need("alignment code", code["AlignCode"], has("AlignCode"))
	need("artifact kind (in a change)", code["ArtifactKind"], has("ArtifactKind"))
	need("artifact state (in a change)", code["Presence"], has("Presence"))
	need("verdict", code["ChangeStatus"], has("ChangeStatus"))
	need("step status", code["ChangeStatus"], has("step"))
	need("artifact status (in a change)", []string{string(receipt.StatusChanged), string(receipt.StatusUnknown)}, has("change"))
	if len(seen["omitted"]) == 0 {
		t.Error("no compare vector omits changes (max_changes)")
	}
}

// decodeComparison decodes an expected comparison document strictly.
func decodeComparison(raw []byte) (*receipt.Comparison, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var c receipt.Comparison
	if err := dec.Decode(&c); err != nil {
		return nil, err
	}
	if c.Schema != receipt.SchemaComparison {
		return nil, fmt.Errorf("schema %q", c.Schema)
	}
	return &c, nil
}

// writeCompareAudit writes AUDIT.md's section on the comparison codes of
// 8.6: each value with the compare cases that carry it.
func writeCompareAudit(buf *bytes.Buffer, code map[string][]string, seen map[string]map[string][]string) {
	p := func(format string, args ...any) { fmt.Fprintf(buf, format, args...) }
	p("### Comparison codes (8.6)\n\n")
	p("Each value with the `compare` cases whose expected document carries it:\n")
	p("an alignment code in `alignment_failures`, an artifact kind or state in\n")
	p("`changes`, a status as the verdict.\n\n")
	p("| code | FORMAT.md | cases | vectors |\n|---|---|---|---|\n")
	for _, ct := range compareTypes {
		for _, v := range code[ct.typ] {
			ids := seen[ct.typ][v]
			p("| `%s` (%s) | §8.6 | %d | %s |\n", v, strings.ToLower(strings.TrimSuffix(ct.label, ":")), len(ids), codeList(ids, 5))
		}
	}
	p("\n")
}
