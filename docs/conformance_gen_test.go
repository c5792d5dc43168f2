package docs

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/vera-run/vera/internal/runwrite"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/receipt"
)

// This file builds docs/conformance from real Vera output: the worked
// pipeline of FORMAT.md (generateExamples: discovery, promotion, a run of
// the fake driver), runwrite.WriteRun, receipt.Finalize and bundle.Seal.
// Every invalid case is a tampered copy of one of those outputs; the
// tables of conformance_cases_test.go say what each tamper is and which
// codes Vera must report, and generation fails when Vera disagrees. Only
// fixed values enter: run ids, times, the environment and download paths
// are normalized, Finalize's clock is fixed, so -update twice writes the
// same bytes.

// Fixed values of the conformance runs.
const (
	confRunID       = "run_c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0"
	confRunIDLiveA  = "run_a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1"
	confRunIDLiveB  = "run_b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2"
	confStartedAt   = "2026-03-03T09:00:00Z"
	confFinishedAt  = "2026-03-03T09:00:01.25Z"
	confDurationMS  = 1250
	confDownloadDir = "/var/lib/vera/downloads/"
)

// confFinalizedAt is Finalize's fixed clock.
var confFinalizedAt = time.Date(2026, 3, 4, 12, 0, 0, 0, time.UTC)

// confEnvironment is the declared environment of every conformance run.
var confEnvironment = receipt.Environment{
	Browser: "Chromium 131.0.6778.85", ProtocolVersion: "1.3", Library: "vera conformance",
	GoVersion: "go1.24.0", OS: "linux", Arch: "amd64",
}

// Paths of the shared documents in the tree.
const (
	capDiscovered = "capabilities/valid/teller-discovered.json"
	capValidated  = "capabilities/valid/teller-validated.json"
)

// runFiles is one run folder being built: the documents and raw edits.
type runFiles struct {
	r *receipt.Receipt
	o *receipt.Outputs
	p *receipt.Proposals
	// c is the run's step capture (conformance_capture_test.go), nil for
	// none; with one the lock is v3.
	c *receipt.Capture
	// lockSchema overrides the lock's schema ("" picks v1 or v2).
	lockSchema string
	// edits are applied to the encoded files after the lock was computed
	// (relock false) or before (relock true).
	edits  map[string]func([]byte) []byte
	relock bool
	// drop removes files after encoding; extra adds entries.
	drop  []string
	extra map[string][]byte
	// lockEdit changes the lock document before it is encoded.
	lockEdit func(*receipt.Lock)
}

func cloneJSON[T any](t *testing.T, v *T) *T {
	t.Helper()
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out T
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}

// encode writes the run's files as the runtime would, then applies the
// case's edits.
func (rf *runFiles) encode(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	put := func(name string, v any) {
		b, err := canonjson.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = b
	}
	put(receipt.FileOutputs, rf.o)
	if rf.p != nil {
		put(receipt.FileProposals, rf.p)
	}
	if rf.c != nil {
		put(receipt.FileCapture, rf.c)
	}
	put(receipt.FileReceipt, rf.r)
	apply := func() {
		names := make([]string, 0, len(rf.edits))
		for n := range rf.edits {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if n == receipt.FileLock {
				continue
			}
			out[n] = rf.edits[n](out[n])
		}
	}
	if rf.relock {
		apply()
	}
	l := receipt.Lock{Schema: receipt.SchemaLockV1, Algorithm: "sha256", RunID: rf.r.RunID,
		Receipt: canonjson.SumBytes(out[receipt.FileReceipt]), Outputs: canonjson.SumBytes(out[receipt.FileOutputs])}
	if b, ok := out[receipt.FileProposals]; ok {
		l.Schema = receipt.SchemaLockV2
		l.RecoveryProposals = canonjson.SumBytes(b)
	}
	if b, ok := out[receipt.FileCapture]; ok {
		l.Schema = receipt.SchemaLockV3
		l.Capture = canonjson.SumBytes(b)
	}
	if rf.lockSchema != "" {
		l.Schema = rf.lockSchema
	}
	if rf.lockEdit != nil {
		rf.lockEdit(&l)
	}
	put(receipt.FileLock, &l)
	if e := rf.edits[receipt.FileLock]; e != nil {
		out[receipt.FileLock] = e(out[receipt.FileLock])
	}
	if !rf.relock {
		apply()
	}
	for _, n := range rf.drop {
		delete(out, n)
	}
	for n, b := range rf.extra {
		out[n] = b
	}
	return out
}

// normalizeRun fixes everything of a run that differs between two
// executions: the run id, the times, the declared environment, the
// action durations and the local download paths.
func normalizeRun(r *receipt.Receipt, o *receipt.Outputs, runID string) {
	r.RunID, o.RunID = runID, runID
	r.StartedAt, r.FinishedAt, r.DurationMS = confStartedAt, confFinishedAt, confDurationMS
	r.Environment = confEnvironment
	for i := range r.Actions {
		r.Actions[i].DurationMS = int64(100 * (i + 1))
	}
	n := 0
	for i := range o.Outputs {
		for j := range o.Outputs[i].Files {
			n++
			o.Outputs[i].Files[j].Path = fmt.Sprintf("%sstatement-%d.csv", confDownloadDir, n)
		}
	}
}

// confBase is what every case is derived from.
type confBase struct {
	discovered, validated *capability.Capability
	capFiles              map[string][]byte // path -> bytes of the shared capabilities
	run                   *runFiles         // the normalized simulated run
	discoveredBundle      map[string][]byte // rel path -> bytes
	validatedBundle       map[string][]byte
	close                 *capability.Capability // the second worked capability
	closeRuns             map[string]*runFiles   // its normalized runs by base name
	liveRuns              map[string]*runFiles   // the two live runs Finalize promotes, by base name
	decoyRuns             map[string]*runFiles   // the two live runs of the decoy capability
	pack                  map[string][]byte      // the worked developer pack (6.5) by file name
	packApproval          []byte                 // its transfer approval
}

// buildBase runs the real pipeline once.
func buildBase(t *testing.T) *confBase {
	t.Helper()
	ctx := context.Background()
	tmp := t.TempDir()
	if err := os.Mkdir(filepath.Join(tmp, "examples"), 0o700); err != nil {
		t.Fatal(err)
	}
	ex, err := generateExamples(filepath.Join(tmp, "examples"))
	if err != nil {
		t.Fatal(err)
	}
	b := &confBase{capFiles: map[string][]byte{}}
	b.pack, b.packApproval = loadPackBase(t, ex)
	if b.discovered, err = capability.ParseBytes(ex["capability.json"]); err != nil {
		t.Fatal(err)
	}
	b.capFiles[capDiscovered] = ex["capability.json"]

	load := func(name string) []byte {
		c, err := canonjson.Transform(ex["run/"+name])
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	r, err := receipt.LoadReceipt(load(receipt.FileReceipt))
	if err != nil {
		t.Fatal(err)
	}
	o, err := receipt.LoadOutputs(load(receipt.FileOutputs))
	if err != nil {
		t.Fatal(err)
	}
	normalizeRun(r, o, confRunID)
	b.run = &runFiles{r: r, o: o}

	// The encoder must write exactly what runwrite.WriteRun writes.
	dir, _, err := runwrite.WriteRun(filepath.Join(tmp, "written"), &runwrite.Run{Receipt: cloneJSON(t, r), Outputs: cloneJSON(t, o)})
	if err != nil {
		t.Fatal(err)
	}
	enc := (&runFiles{r: r, o: o}).encode(t)
	for _, name := range []string{receipt.FileLock, receipt.FileReceipt, receipt.FileOutputs} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, enc[name]) {
			t.Fatalf("the conformance encoder differs from runwrite.WriteRun on %s", name)
		}
	}
	if rep, err := receipt.VerifyRun(context.Background(), dir, b.discovered); err != nil {
		t.Fatalf("the normalized run does not verify: %v %+v", err, rep)
	}

	// Two live runs (the mode is a declaration, 9), promoted by Finalize
	// and sealed with their receipts.
	var live []string
	b.liveRuns, b.decoyRuns = map[string]*runFiles{}, map[string]*runFiles{}
	for i, id := range []string{confRunIDLiveA, confRunIDLiveB} {
		lr, lo := cloneJSON(t, r), cloneJSON(t, o)
		normalizeRun(lr, lo, id)
		lr.ExecutionMode = receipt.ModeLiveConnected
		b.liveRuns[[]string{liveA, liveB}[i]] = &runFiles{r: cloneJSON(t, lr), o: cloneJSON(t, lo)}
		d, _, err := runwrite.WriteRun(filepath.Join(tmp, "live"), &runwrite.Run{Receipt: lr, Outputs: lo})
		if err != nil {
			t.Fatal(err)
		}
		live = append(live, d)
	}
	if b.validated, err = receipt.Finalize(context.Background(), b.discovered, live, receipt.WithClock(func() time.Time { return confFinalizedAt })); err != nil {
		t.Fatal(err)
	}
	vj, err := b.validated.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	b.capFiles[capValidated] = vj
	seal := func(name string, c *capability.Capability, runs []string) map[string][]byte {
		d := filepath.Join(tmp, name)
		if _, err := bundle.Seal(ctx, d, c, runs); err != nil {
			t.Fatal(err)
		}
		return readTree(t, d)
	}
	b.discoveredBundle = seal("bundle-discovered", b.discovered, nil)
	b.validatedBundle = seal("bundle-validated", b.validated, live)
	b.close = closeCapability(t, b.discovered)
	if b.capFiles[capClose], err = b.close.Marshal(); err != nil {
		t.Fatal(err)
	}
	b.closeRuns = buildCloseRuns(t, b.close)
	b.addNoteBase(t)
	b.addExtractFailedBase(t)
	decoy := decoyCapability(t, b.discovered)
	if b.capFiles[capDecoy], err = decoy.Marshal(); err != nil {
		t.Fatal(err)
	}
	for k, v := range buildDecoyRuns(t, decoy) {
		b.decoyRuns[k] = v
	}
	if b.capFiles[capVocabulary], err = vocabularyCapability(t, b.discovered).Marshal(); err != nil {
		t.Fatal(err)
	}
	return b
}

// generateConformance builds every file of the tree, checks each case
// against the Vera verifiers and returns the files by slash path.
func generateConformance(t *testing.T) map[string][]byte {
	t.Helper()
	base := buildBase(t)
	files := map[string][]byte{}
	add := func(p string, b []byte) {
		if _, dup := files[p]; dup {
			t.Fatalf("file %s generated twice", p)
		}
		files[p] = b
	}
	for p, b := range base.capFiles {
		add(p, b)
	}
	var cases []*confCase

	// Capabilities: the valid and invalid corpus of package capability,
	// then this package's own cases.
	for _, c := range capabilityCases(t, base) {
		if c.raw != nil {
			add(c.Path, c.raw)
		}
		cases = append(cases, &c.confCase)
	}

	// Runs.
	for _, rc := range runCases {
		src := base.runBase(t, rc.from)
		rf := &runFiles{r: cloneJSON(t, src.r), o: cloneJSON(t, src.o), relock: true}
		cp := capDiscovered
		if _, ok := base.closeRuns[rc.from]; ok {
			cp = capClose
		}
		if _, ok := base.decoyRuns[rc.from]; ok {
			cp = capDecoy
		}
		if rc.edit != nil {
			rc.edit(t, base, rf)
		}
		if rc.capability != "" {
			cp = rc.capability
		}
		dir := slashJoin("runs", rc.id)
		if rc.asFile != nil {
			add(dir, rc.asFile)
		} else if !rc.absent {
			for name, b := range rf.encode(t) {
				add(slashJoin(dir, name), b)
			}
		}
		cases = append(cases, &confCase{ID: "run." + rc.id, Kind: kindRun, Path: dir, Capability: cp,
			Codes: sortedUnique(rc.codes), Rules: sortedUnique(rc.rules), Note: rc.note})
	}

	// Bundles.
	for _, bc := range bundleCases {
		src := base.discoveredBundle
		if bc.validated {
			src = base.validatedBundle
		}
		bf := map[string][]byte{}
		for p, b := range src {
			bf[p] = slices.Clone(b)
		}
		if bc.edit != nil {
			bc.edit(t, base, bf)
		}
		dir := slashJoin("bundles", bc.id)
		if bc.asFile != nil {
			add(dir, bc.asFile)
		} else if !bc.absent {
			for name, b := range bf {
				add(slashJoin(dir, name), b)
			}
		}
		cases = append(cases, &confCase{ID: "bundle." + bc.id, Kind: kindBundle, Path: dir,
			Codes: sortedUnique(bc.codes), Rules: sortedUnique(bc.rules), Note: bc.note})
	}

	// Finalize.
	cases = append(cases, finalizeConfCases()...)

	// Comparisons of run folders above (their expected documents join
	// the tree).
	cases = append(cases, compareConfCases(t, files)...)

	// Discovery documents and developer packs.
	cases = append(cases, discoveryConfCases(t, base, add)...)
	cases = append(cases, packConfCases(t, base, add)...)

	// Check every case against Vera on a materialized tree.
	tree := t.TempDir()
	for p, b := range files {
		fp := filepath.Join(tree, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(fp), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(fp, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var bad []string
	for _, cc := range cases {
		if cc.Kind != kindCompare {
			cc.Verdict = verdictValid
			if len(cc.Codes) > 0 {
				cc.Verdict = verdictInvalid
			}
		}
		verdict, stage, codes, err := checkCase(tree, cc)
		if err != nil {
			t.Fatalf("%s: %v", cc.ID, err)
		}
		if cc.Kind != kindCapability {
			stage = ""
		}
		if verdict != cc.Verdict || stage != cc.Stage || !slices.Equal(codes, cc.Codes) {
			bad = append(bad, fmt.Sprintf("%s: Vera says %s %s %q, the case table %s %s %q", cc.ID, verdict, stage, codes, cc.Verdict, cc.Stage, cc.Codes))
		}
	}
	if len(bad) > 0 {
		t.Fatalf("%d cases disagree with Vera:\n%s", len(bad), strings.Join(bad, "\n"))
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].ID < cases[j].ID })
	mj, err := json.MarshalIndent(&manifest{Schema: manifestSchema, Cases: cases}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	add("manifest.json", append(mj, '\n'))
	return files
}

// capCase is a capability case with its bytes.
type capCase struct {
	confCase
	raw []byte
}

// corpusExpectation is an entry of capability/testdata/invalid/expected.json.
type corpusExpectation struct {
	Stage string `json:"stage"`
	Code  string `json:"code"`
	Base  string `json:"base"`
	Note  string `json:"note"`
}

// capabilityCases returns the capability vectors: the shared documents,
// the capability package's corpus (each file compacted when it is valid
// JSON, so the tree stays small; a file that is not is copied byte for
// byte) and the cases of capabilityEdits.
func capabilityCases(t *testing.T, base *confBase) []capCase {
	t.Helper()
	var out []capCase
	out = append(out,
		capCase{confCase: confCase{ID: "capability.valid.teller-discovered", Kind: kindCapability, Path: capDiscovered, Stage: stageExecution, Codes: []string{},
			Note: "the worked capability of 3.6"}},
		capCase{confCase: confCase{ID: "capability.valid.teller-validated", Kind: kindCapability, Path: capValidated, Stage: stageExecution, Codes: []string{},
			Note: "the worked capability promoted by receipt.Finalize from two live runs"}},
		capCase{confCase: confCase{ID: "capability.valid.teller-close", Kind: kindCapability, Path: capClose, Stage: stageExecution, Codes: []string{},
			Note: "the second worked capability: a business outcome, a consequential action behind the approval gate, a native action"}},
		capCase{confCase: confCase{ID: "capability.valid.teller-decoy", Kind: kindCapability, Path: capDecoy, Stage: stageExecution, Codes: []string{},
			Note: "the worked capability with a CSS fallback after look-up's role candidate; valid, and a decoy on a page that repeats the button (finalize.decoy-candidate)"}},
		capCase{confCase: confCase{ID: "capability.valid.teller-close-note", Kind: kindCapability, Path: capNote, Stage: stageExecution, Codes: []string{},
			Note: "the close capability with a required text output (balance_line): a completed run never holds it blank (3.2 \"Blank values\")"}},
		capCase{confCase: confCase{ID: "capability.valid.teller-vocabulary", Kind: kindCapability, Path: capVocabulary, Stage: stageExecution, Codes: []string{},
			Note: "the worked capability extended to use every value of the capability enumerations (8.10) the other worked capabilities leave out"}})
	valid, err := filepath.Glob(filepath.Join("..", "capability", "testdata", "valid", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range valid {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		out = append(out, capCase{confCase: confCase{ID: "capability.valid." + name, Kind: kindCapability,
			Path: "capabilities/valid/" + filepath.Base(f), Stage: stageExecution, Codes: []string{}}, raw: compact(raw)})
	}
	expRaw, err := os.ReadFile(filepath.Join("..", "capability", "testdata", "invalid", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exp map[string]corpusExpectation
	if err := json.Unmarshal(expRaw, &exp); err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(exp))
	for n := range exp {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		e := exp[n]
		raw, err := os.ReadFile(filepath.Join("..", "capability", "testdata", "invalid", n))
		if err != nil {
			t.Fatal(err)
		}
		stage := e.Stage
		if stage == "" {
			stage = stageValidate
		}
		out = append(out, capCase{confCase: confCase{ID: "capability.invalid." + strings.TrimSuffix(n, ".json"), Kind: kindCapability,
			Path: "capabilities/invalid/" + n, Stage: stage, Codes: []string{e.Code}, Note: e.Note}, raw: compact(raw)})
	}
	for _, ce := range capabilityEdits {
		c, err := base.discovered.Clone()
		if err != nil {
			t.Fatal(err)
		}
		if ce.edit != nil {
			ce.edit(c)
		}
		raw, err := c.Marshal()
		if err != nil {
			t.Fatalf("%s: %v", ce.id, err)
		}
		if ce.raw != nil {
			raw = ce.raw(raw)
		}
		stage := ce.stage
		if stage == "" {
			stage = stageValidate
		}
		out = append(out, capCase{confCase: confCase{ID: "capability.invalid." + ce.id, Kind: kindCapability,
			Path: "capabilities/invalid/" + ce.id + ".json", Stage: stage, Codes: sortedUnique(ce.codes), Note: ce.note}, raw: compact(raw)})
	}
	// The shared documents (raw nil) are added by the caller.
	return out
}

// compact removes insignificant white space from a valid JSON text; any
// other text is returned as it is.
func compact(raw []byte) []byte {
	if !json.Valid(raw) {
		return raw
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return raw
	}
	return buf.Bytes()
}
