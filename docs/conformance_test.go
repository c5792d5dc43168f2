package docs

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
)

// The conformance vectors of docs/conformance (FORMAT.md 12.1). This file
// holds the manifest model, the checker every case is run through, the
// up-to-date test and the coverage test; conformance_gen_test.go builds
// the tree from real Vera output and conformance_cases_test.go lists the
// cases.

// conformanceDir is the vector tree, relative to this package.
const conformanceDir = "conformance"

// manifestSchema is the schema of conformance/manifest.json.
const manifestSchema = "vera-conformance/v1"

// The kinds of a conformance case.
const (
	kindCapability = "capability"
	kindRun        = "run"
	kindBundle     = "bundle"
)

// The verdicts.
const (
	verdictValid   = "valid"
	verdictInvalid = "invalid"
)

// The stages of a capability case: where the verdict is decided.
const (
	stageParse     = "parse"     // strict parsing fails; codes holds the one parse code
	stageValidate  = "validate"  // parsing succeeds; codes are Validate's
	stageExecution = "execution" // parsing succeeds, Validate is clean; codes are ValidateForExecution's
)

// manifest is conformance/manifest.json.
type manifest struct {
	Schema string      `json:"schema"`
	Cases  []*confCase `json:"cases"`
}

// confCase is one vector: what to check and the expected result.
type confCase struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// Path is the capability file, run folder or bundle folder, relative
	// to the manifest. A run folder or bundle that does not exist is part
	// of the case (a missing directory).
	Path string `json:"path"`
	// Capability is, for a run, the capability file it is verified
	// against.
	Capability string `json:"capability,omitempty"`
	// Runs are, for a finalize case, the run folders handed to Finalize
	// in order (Path is then the capability).
	Runs []string `json:"runs,omitempty"`
	// Options are, for a compare case, the options handed to
	// receipt.Compare (Runs are then the two run folders, Path the
	// expected comparison document).
	Options *compareOptions `json:"options,omitempty"`
	// Schema is, for a discovery case, the schema the document is read
	// as; Evidence, for a record, the evidence file it is checked against.
	Schema   string `json:"schema,omitempty"`
	Evidence string `json:"evidence,omitempty"`
	// Stage is, for a capability, where the verdict is decided.
	Stage   string   `json:"stage,omitempty"`
	Verdict string   `json:"verdict"`
	Codes   []string `json:"codes"`
	// Rules are the FORMAT.md rule ids (section 10) the case pins.
	Rules []string `json:"rules,omitempty"`
	Note  string   `json:"note,omitempty"`
}

// checkCase runs the Vera verifier of the case's kind on the tree under
// root and returns the verdict, the stage (capabilities only) and the
// sorted distinct problem codes.
func checkCase(root string, cc *confCase) (verdict, stage string, codes []string, err error) {
	p := filepath.Join(root, filepath.FromSlash(cc.Path))
	switch cc.Kind {
	case kindCapability:
		stage, codes, err = capabilityCodes(p)
	case kindRun:
		codes, err = runCodes(p, filepath.Join(root, filepath.FromSlash(cc.Capability)))
	case kindBundle:
		codes, err = bundleCodes(p)
	case kindFinalize:
		codes, err = finalizeCodes(p, finalizeRunDirs(root, cc.Runs))
	case kindDiscovery:
		ev := ""
		if cc.Evidence != "" {
			ev = filepath.Join(root, filepath.FromSlash(cc.Evidence))
		}
		codes, err = discoveryCodes(p, cc.Schema, ev)
	case kindPack:
		codes, err = packCodes(p)
	case kindCompare:
		verdict, codes, err = compareCodes(root, cc)
		return verdict, "", codes, err
	default:
		err = fmt.Errorf("unknown kind %q", cc.Kind)
	}
	if err != nil {
		return "", "", nil, err
	}
	verdict = verdictValid
	if len(codes) > 0 {
		verdict = verdictInvalid
	}
	return verdict, stage, codes, nil
}

// capabilityCodes parses and validates the capability file at p.
func capabilityCodes(p string) (stage string, codes []string, err error) {
	raw, err := os.ReadFile(p)
	if err != nil {
		return "", nil, err
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		var pe *capability.ParseError
		if !errors.As(err, &pe) {
			return "", nil, fmt.Errorf("parse error without a code: %v", err)
		}
		return stageParse, []string{string(pe.Code)}, nil
	}
	if errs := c.Validate(); len(errs) > 0 {
		return stageValidate, errorCodes(errs), nil
	}
	return stageExecution, errorCodes(c.ValidateForExecution()), nil
}

func errorCodes(errs capability.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, string(e.Code))
	}
	return sortedUnique(out)
}

// runCodes verifies the run folder dir against the capability file cp.
func runCodes(dir, cp string) ([]string, error) {
	raw, err := os.ReadFile(cp)
	if err != nil {
		return nil, err
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		return nil, err
	}
	rep, _ := receipt.VerifyRun(context.Background(), dir, c)
	var out []string
	for _, p := range rep.Problems {
		out = append(out, string(p.Code))
	}
	return sortedUnique(out), nil
}

// bundleCodes verifies the bundle folder dir.
func bundleCodes(dir string) ([]string, error) {
	rep, err := bundle.Verify(context.Background(), dir)
	if err != nil && !errors.Is(err, bundle.ErrVerify) {
		return nil, err
	}
	var out []string
	for _, g := range [][]bundle.FileProblem{rep.Mismatched, rep.Unsafe, rep.Forbidden, rep.LockProblems, rep.Limits} {
		for _, p := range g {
			out = append(out, string(p.Code))
		}
	}
	if len(rep.Missing) > 0 {
		out = append(out, "missing")
	}
	if len(rep.Unlisted) > 0 {
		out = append(out, "unlisted")
	}
	if len(rep.Capability) > 0 {
		out = append(out, "capability")
	}
	if rep.Claim != nil {
		out = append(out, "claim")
	}
	return sortedUnique(out), nil
}

func sortedUnique(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	out = slices.Compact(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// readManifest loads conformance/manifest.json.
func readManifest(t *testing.T) *manifest {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(conformanceDir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m manifest
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	if m.Schema != manifestSchema {
		t.Fatalf("manifest schema %q, want %q", m.Schema, manifestSchema)
	}
	return &m
}

// TestConformanceVectors runs every case of the manifest through the Vera
// verifiers and compares the verdict and the codes exactly.
func TestConformanceVectors(t *testing.T) {
	m := readManifest(t)
	seen := map[string]bool{}
	for _, cc := range m.Cases {
		if seen[cc.ID] {
			t.Errorf("case id %s twice", cc.ID)
		}
		seen[cc.ID] = true
		t.Run(cc.ID, func(t *testing.T) {
			if !slices.IsSorted(cc.Codes) || len(slices.Compact(slices.Clone(cc.Codes))) != len(cc.Codes) {
				t.Errorf("codes %v are not sorted and distinct", cc.Codes)
			}
			if cc.Kind == kindCompare {
				if !slices.Contains(compareVerdicts, cc.Verdict) {
					t.Errorf("compare verdict %s is not one of %v", cc.Verdict, compareVerdicts)
				}
			} else if (cc.Verdict == verdictValid) != (len(cc.Codes) == 0) {
				t.Errorf("verdict %s with codes %v", cc.Verdict, cc.Codes)
			}
			verdict, stage, codes, err := checkCase(conformanceDir, cc)
			if err != nil {
				t.Fatal(err)
			}
			if verdict != cc.Verdict || stage != cc.Stage || !slices.Equal(codes, cc.Codes) {
				t.Errorf("got %s %s %v, want %s %s %v", verdict, stage, codes, cc.Verdict, cc.Stage, cc.Codes)
			}
		})
	}
}

// TestConformanceUpToDate regenerates the vector tree and compares it,
// file by file, with docs/conformance; with -update it rewrites the tree.
func TestConformanceUpToDate(t *testing.T) {
	files := generateConformance(t)
	if *update {
		writeConformance(t, files)
		return
	}
	onDisk := readTree(t, conformanceDir)
	for name, b := range files {
		got, ok := onDisk[name]
		if !ok {
			t.Errorf("%s is missing; run go test ./docs -run TestConformanceUpToDate -update", name)
		} else if !bytes.Equal(got, b) {
			t.Errorf("%s is stale; run go test ./docs -run TestConformanceUpToDate -update", name)
		}
	}
	for name := range onDisk {
		if _, ok := files[name]; !ok && !handWritten[name] {
			t.Errorf("%s is not generated; run go test ./docs -run TestConformanceUpToDate -update", name)
		}
	}
}

// handWritten are the files of the tree the generator does not write
// (AUDIT.md is TestAudit's, audit_test.go).
var handWritten = map[string]bool{"README.md": true, ".gitattributes": true, "AUDIT.md": true}

// readTree returns every regular file under dir by slash path. A
// symbolic link or another irregular file fails the test: the tree is
// symlink-free.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", p)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// writeConformance replaces every generated file of the tree.
func writeConformance(t *testing.T, files map[string][]byte) {
	t.Helper()
	for _, sub := range []string{"capabilities", "runs", "bundles", "compare", "discovery", "packs", "manifest.json"} {
		if err := os.RemoveAll(filepath.Join(conformanceDir, sub)); err != nil {
			t.Fatal(err)
		}
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := filepath.Join(conformanceDir, filepath.FromSlash(n))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, files[n], 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestConformanceCoverage fails when a problem code of FORMAT.md section 8
// (Finalize checks 8.5, run verification 8.7, bundle verification 8.8,
// capability parse and validation 8.11) or a rule id of section 10 has no vector, or a closed
// value with two verdicts lacks one of them.
func TestConformanceCoverage(t *testing.T) {
	m := readManifest(t)
	page, err := os.ReadFile(formatFile)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]map[string]bool{kindRun: {}, kindBundle: {}, kindCapability: {}, kindFinalize: {}}
	parseCodes := map[string]bool{}
	rules := map[string]bool{}
	verdicts := map[string]map[string]bool{kindRun: {}, kindBundle: {}, kindCapability: {}, kindFinalize: {}}
	for _, cc := range m.Cases {
		if cc.Kind == kindCompare || cc.Kind == kindDiscovery || cc.Kind == kindPack {
			continue // TestConformanceCompareCoverage, TestConformanceDiscoveryCoverage
		}
		verdicts[cc.Kind][cc.Verdict] = true
		for _, c := range cc.Codes {
			if cc.Stage == stageParse {
				parseCodes[c] = true
			} else {
				codes[cc.Kind][c] = true
			}
		}
		for _, r := range cc.Rules {
			rules[r] = true
		}
	}
	for k, v := range verdicts {
		if !v[verdictValid] || !v[verdictInvalid] {
			t.Errorf("kind %s lacks a valid or an invalid case", k)
		}
	}
	want := func(kind string, list []string, have map[string]bool, exempt map[string]string) {
		for _, c := range list {
			if have[c] {
				if _, ex := exempt[c]; ex {
					t.Errorf("%s code %s is exempt but has a vector: drop the exemption", kind, c)
				}
				continue
			}
			if _, ex := exempt[c]; !ex {
				t.Errorf("%s code %s has no conformance vector", kind, c)
			}
		}
	}
	want(kindRun, tableCodes(t, string(page), "8.7"), codes[kindRun], exemptRunCodes)
	want(kindBundle, tableCodes(t, string(page), "8.8"), codes[kindBundle], exemptBundleCodes)
	want(kindCapability, strs(capability.Codes()), codes[kindCapability], exemptCapabilityCodes)
	want(kindFinalize, tableCodes(t, string(page), "8.5"), codes[kindFinalize], exemptFinalizeChecks)
	want("parse", strs([]capability.Code{capability.ParseCodeDuplicateKey, capability.ParseCodeSyntax, capability.ParseCodeTooLarge,
		capability.ParseCodeTrailingData, capability.ParseCodeUnknownField, capability.ParseCodeUnsupportedSchema,
		capability.ParseCodeWrongType, capability.ParseCodeRead}), parseCodes, exemptParseCodes)
	ids := ruleIDs(string(page))
	if len(ids) < 30 {
		t.Fatalf("FORMAT.md section 10 names %d rule ids, want the rules of 10.2 to 10.5", len(ids))
	}
	for _, id := range ids {
		if !rules[id] {
			if _, ex := exemptRules[id]; !ex {
				t.Errorf("rule %s has no conformance vector", id)
			}
		} else if _, ex := exemptRules[id]; ex {
			t.Errorf("rule %s is exempt but has a vector: drop the exemption", id)
		}
	}
	known := map[string]bool{}
	for _, id := range ids {
		known[id] = true
	}
	for r := range rules {
		if !known[r] {
			t.Errorf("a case names rule %s, which FORMAT.md section 10 does not define", r)
		}
	}
	// Closed sets read by the verifiers, with both verdicts where a value
	// can be valid: every terminal state appears in a valid run.
	terminals := map[string]map[string]bool{}
	for _, cc := range m.Cases {
		if cc.Kind != kindRun {
			continue
		}
		b, err := os.ReadFile(filepath.Join(conformanceDir, filepath.FromSlash(cc.Path), receipt.FileReceipt))
		if err != nil {
			continue
		}
		var r struct {
			Terminal struct {
				State string `json:"state"`
			} `json:"terminal"`
		}
		if json.Unmarshal(b, &r) == nil {
			if terminals[r.Terminal.State] == nil {
				terminals[r.Terminal.State] = map[string]bool{}
			}
			terminals[r.Terminal.State][cc.Verdict] = true
		}
	}
	for _, s := range closedTerminalStates {
		if !terminals[s][verdictValid] || !terminals[s][verdictInvalid] {
			t.Errorf("terminal state %s lacks a valid or an invalid run vector (have %v)", s, terminals[s])
		}
	}
}

// tableCodes returns the first-column codes of the table of FORMAT.md
// section sec ("8.7").
func tableCodes(t *testing.T, page, sec string) []string {
	t.Helper()
	start := strings.Index(page, "\n### "+sec+" ")
	if start < 0 {
		t.Fatalf("FORMAT.md has no section %s", sec)
	}
	body := page[start+1:]
	if end := strings.Index(body[4:], "\n### "); end >= 0 {
		body = body[:end+4]
	}
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cell := strings.TrimSpace(strings.Split(line, "|")[1])
		out = append(out, strings.Trim(cell, "`"))
	}
	if len(out) == 0 {
		t.Fatalf("FORMAT.md section %s has no code table", sec)
	}
	return out
}

// ruleIDs returns the rule ids section 10 defines: each `rule:ID` marker.
func ruleIDs(page string) []string {
	start := strings.Index(page, "\n## 10. ")
	end := strings.Index(page, "\n## 11. ")
	if start < 0 || end < start {
		return nil
	}
	var out []string
	body := page[start:end]
	for {
		i := strings.Index(body, "`rule:")
		if i < 0 {
			break
		}
		body = body[i+len("`rule:"):]
		j := strings.IndexByte(body, '`')
		if j < 0 {
			break
		}
		out = append(out, body[:j])
		body = body[j:]
	}
	return sortedUnique(out)
}

// slashJoin joins manifest path elements.
func slashJoin(elem ...string) string { return path.Join(elem...) }
