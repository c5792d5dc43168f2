package docs

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
)

// docs/conformance/AUDIT.md: issue 14, rule by rule. Each row of
// auditRows names a rule, the Go functions that enforce it, the Go tests
// that pin them, the FORMAT.md section and a phrase of that section that
// states it, and the conformance vectors that pin it. TestAudit checks
// every reference (the functions and tests exist, the phrase is in the
// section, the vectors are in the manifest), and that every problem code
// the Go verifiers and validator emit (read from the code) is in the
// table of its FORMAT.md section and has a vector or a justified
// exemption; then it compares AUDIT.md with what it would write (-update
// rewrites it), so the table cannot rot.

// auditFile is the generated audit, relative to this package.
const auditFile = "conformance/AUDIT.md"

// auditRow is one rule of issue 14.
type auditRow struct {
	group string
	rule  string
	// checks are "dir:Func" (a function or method declared in the
	// non-test files of ../dir); tests are "dir:TestFunc" (declared in its
	// _test.go files).
	checks, tests []string
	// section is a FORMAT.md section number; phrase is text of that
	// section (white space normalized) that states the rule.
	section, phrase string
	// vectors are manifest ids; novector says why a vector cannot carry
	// the rule (messages are the implementation's own, 12.1).
	vectors  []string
	novector string
}

const (
	gVerifier = "Verifier gaps to close"
	gValidate = "Validation rules FORMAT.md states but Validate lets through"
	gDecide   = "Decide, write down and enforce"
	gMessages = "Misleading messages"
	gAlone    = "FORMAT.md must be sufficient alone"
)

var auditRows = []auditRow{
	{gVerifier, "closed sets enforced on read: failure reason", []string{"receipt:checkFailure"}, []string{"receipt:TestVerifyRunStatedRules", "receipt:TestReasonSetIsTheRuntimes"},
		"8.3", "A reader rejects any other code (`schema`), even one of the `[a-z0-9_]{1,64}` syntax", []string{"run.receipt-unknown-reason", "run.valid-reason-download-timeout", "run.valid-reason-unspecified"}, ""},
	{gVerifier, "closed sets enforced on read: download evidence and mechanism", []string{"receipt:checkReceiptRules"}, []string{"receipt:TestVerifyRunStatedRules"},
		"8.4", "a reader rejects any other mechanism, any other evidence and a pair from two rows (`schema`)", []string{"run.receipt-unknown-mechanism", "run.receipt-unknown-evidence", "run.receipt-evidence-of-other-mechanism", "run.valid-download-directory"}, ""},
	{gVerifier, "where an unknown value is tolerated, and how it is written", []string{"receipt:checkFailure"}, []string{"receipt:TestReasonSetIsTheRuntimes"},
		"8", "No reader tolerates an unknown value anywhere", []string{"run.valid-reason-unspecified", "run.valid-mode-omitted", "run.valid-mode-unverified-written"}, ""},
	{gVerifier, "every value of every closed set accepted, a value outside rejected", []string{"receipt:checkReceipt", "capability:Validate"}, []string{"docs:TestConformanceClosedSets"},
		"12.1", "Every closed set a document carries has both verdicts", []string{"capability.valid.teller-vocabulary", "run.receipt-unknown-category", "run.receipt-unknown-terminal-state", "run.proposal-unknown-outcome"}, ""},
	{gVerifier, "bundled receipts get the run-level capability checks (origins, inputs, order, counts, sequence)", []string{"receipt:checkReceiptRun", "receipt:CheckClaim", "bundle:checkClaim"}, []string{"receipt:TestVerifyReceipt", "receipt:TestCheckClaimRejects"},
		"10.4", "a receipt that reached another origin never supports a claim", []string{"bundle.claim-receipt-origin", "bundle.claim-receipt-inputs-out-of-order", "bundle.claim-receipt-input-missing", "bundle.claim-receipt-record-count", "bundle.claim-receipt-sequence"}, ""},
	{gVerifier, "a recovery proposal's contract_hash against the action it targets", []string{"receipt:checkContractHashes"}, []string{"receipt:TestVerifyRunStatedRules"},
		"10.2", "rule:run.cap.proposals", []string{"run.proposal-contract-hash", "run.valid-recovery-proposal"}, ""},
	{gVerifier, "an extract action's record count against its output", []string{"receipt:checkRecordCounts"}, []string{"receipt:TestVerifyRunStatedRules", "receipt:TestVerifyRunStatedRulesAccept"},
		"10.2", "rule:run.cap.record-counts", []string{"run.record-count-above-one", "run.valid-failed", "bundle.claim-receipt-record-count"}, ""},
	{gVerifier, "the terminal-state/failure pairings of 8.1", []string{"receipt:checkTerminalFailure", "receipt:checkTerminal"}, []string{"receipt:TestVerifyRunStatedRules"},
		"8.1", "The last column is a rule a reader enforces (`inconsistent`)", []string{"run.receipt-completed-with-failure", "run.recovery-requested-wrong-failure", "run.blocked-by-unknown-modal-wrong-reason", "run.close-stopped-at-gate-wrong-failure", "run.close-native-gap-with-failure", "run.close-business-outcome-with-failure", "run.valid-recovery-requested", "run.valid-blocked-by-unknown-modal"}, ""},
	{gVerifier, "absolute download paths (4.2)", []string{"receipt:checkOutputsRules"}, []string{"receipt:TestVerifyRunStatedRules"},
		"4.2", "a relative path is `schema`", []string{"run.outputs-relative-path"}, ""},
	{gVerifier, "inputs and outputs in the capability's order", []string{"receipt:checkOrder"}, []string{"receipt:TestVerifyRunStatedRules"},
		"10.2", "rule:run.cap.order", []string{"run.inputs-out-of-order", "run.outputs-out-of-order", "bundle.claim-receipt-inputs-out-of-order"}, ""},
	{gVerifier, "finished_at not before started_at", []string{"receipt:checkReceiptRules"}, []string{"receipt:TestVerifyRunStatedRules"},
		"4.3", "not before `started_at`", []string{"run.receipt-finished-before-started", "run.valid-timestamp-offset", "bundle.claim-receipt-finished-before-started"}, ""},
	{gVerifier, "null never stands for an always-present list", []string{"receipt:checkReceiptRules", "receipt:checkOutputsRules", "receipt:checkProposalsRules"}, []string{"receipt:TestVerifyRunStatedRules"},
		"4.3", "never `null`", []string{"run.receipt-null-list", "run.outputs-null-list", "bundle.claim-receipt-null-list"}, ""},
	{gVerifier, "README and capability strings free of HTML tags", []string{"bundle:findHTML", "bundle:scanReadme", "bundle:scanJSONText"}, []string{"bundle:TestFindHTML", "bundle:TestScanReadme"},
		"5.4", "**HTML tag**, as the rules above mean it", []string{"bundle.capability-html-tag", "bundle.readme-html-tag", "bundle.readme-html-magic"}, ""},
	{gVerifier, "README and capability strings free of U+2028, U+2029 and C1 controls", []string{"bundle:findControl"}, []string{"bundle:TestScanReadme", "bundle:TestScanJSONTextControls"},
		"5.4", "a C1 control character (U+0080 to U+009F, such as NEL U+0085) and the separators U+2028 and U+2029", []string{"bundle.readme-c1-control", "bundle.readme-line-separator", "bundle.readme-paragraph-separator", "bundle.capability-line-separator", "bundle.capability-c1-control", "bundle.readme-nul"}, ""},
	{gVerifier, "an empty query (`?`) in a URL", []string{"bundle:findQueryMark"}, []string{"bundle:TestScanJSONTextControls"},
		"5.4", "followed by a `?`, even with an empty query", []string{"bundle.capability-empty-query"}, ""},

	{gValidate, "finalized_at is UTC to the second", []string{"internal/timestamp:UTCSecond", "capability:identity"}, []string{"internal/timestamp:TestGrammar"},
		"1.4", "`validation.finalized_at` is further UTC to the second: `YYYY-MM-DDThh:mm:ssZ` exactly", []string{"capability.invalid.finalized-at-fraction", "capability.invalid.finalized-at-offset", "capability.valid.teller-validated"}, ""},
	{gValidate, "coordinate-shaped CSS and text candidates in every spelling", []string{"locator:looksLikeCoordinates"}, []string{"locator:TestLooksLikeCoordinates"},
		"3.2", "Coordinates are never a locator", []string{"capability.invalid.locator_coordinates", "capability.invalid.coordinates-text-signed-pair", "capability.invalid.coordinates-text-space-pair", "capability.invalid.coordinates-text-px-pair", "capability.invalid.coordinates-text-colon", "capability.invalid.coordinates-css-uppercase", "capability.invalid.coordinates-css-bracket-pair"}, ""},
	{gValidate, "template-shaped text where nothing is substituted is an error", []string{"capability:unsubstituted"}, []string{"capability:TestIssue14Rules"},
		"3.2", "template-shaped text is an error, never a literal", []string{"capability.invalid.runtime-frame-selector-template", "capability.invalid.milestone_frame_selector_template", "capability.invalid.field-attribute-template", "capability.invalid.url_pattern_template", "capability.invalid.press-key-template"}, ""},
	{gValidate, "press keys validated against the key grammar at validation time", []string{"capability:validKey"}, []string{"capability:TestIssue14Rules"},
		"8.11", "a `press` action's `key` is not a key of the grammar of 3.2", []string{"capability.invalid.press_unknown_key", "capability.invalid.press-key-unknown-modifier", "capability.invalid.press-key-template"}, ""},

	{gDecide, "a partial redaction marker", []string{"capability:literal", "capability:hasMarkerPart"}, []string{"capability:TestRedactionMarkerAnywhere"},
		"8.11", "any string holding U+27E6 `⟦` or U+27E7 `⟧`", []string{"capability.invalid.redaction_marker_partial", "capability.invalid.locator_redaction_marker_partial", "capability.invalid.redaction_marker_embedded"}, ""},
	{gDecide, "`:visible` as a whole CSS candidate", []string{"locator:checkCSS"}, []string{"locator:TestVisibleAloneIsNoSelector"},
		"3.2", "the trimmed value ends in `:visible` and what precedes it, trimmed, is empty", []string{"capability.invalid.css-visible-alone", "capability.invalid.css-visible-after-combinator", "capability.invalid.css-visible-inside"}, ""},
	{gDecide, "`exact` on a role candidate without a name", []string{"locator:Check"}, []string{"locator:TestExactRoleNeedsName"},
		"8.11", "or on a `role` candidate without a (non-blank) `name`", []string{"capability.invalid.locator-exact-role-without-name"}, ""},
	{gDecide, "bidi-override names and labels", []string{"capability:characters", "internal/textrule:Bidi"}, []string{"internal/textrule:TestClasses"},
		"8.11", "a string holds a bidirectional formatting control", []string{"capability.invalid.bidi_override_in_name", "capability.invalid.bidi_isolate_in_intent", "run.receipt-bidi-in-label"}, ""},
	{gDecide, "zero-width-only names and labels are blank", []string{"internal/textrule:Blank"}, []string{"internal/textrule:TestClasses"},
		"1.4", "Text", []string{"capability.invalid.zero_width_only_name", "capability.invalid.zero_width_only_label", "run.receipt-zero-width-label"}, ""},
	{gDecide, "escaped NUL in names", []string{"capability:characters", "internal/textrule:ForbiddenControl"}, []string{"internal/textrule:TestClasses"},
		"8.11", "U+0000 included however it is escaped", []string{"capability.invalid.nul_in_name", "capability.invalid.nul_in_label", "run.receipt-nul-in-label"}, ""},
	{gDecide, "a secret `enum` input", []string{"capability:secretEnums"}, []string{"capability:TestIssue14Rules"},
		"8.11", "a secret input of type `enum`", []string{"capability.invalid.secret_enum"}, ""},
	{gDecide, "integers written `50.0` or `5e1`", []string{"internal/strictjson:Check"}, []string{"capability:TestParseErrors"},
		"1.3", "`50.0` and `5e1` are `wrong_type`", []string{"capability.invalid.integer-as-fraction", "capability.invalid.integer-as-exponent"}, ""},

	{gMessages, "Verify on a missing folder names the folder, not a lock entry", []string{"bundle:verify"}, []string{"bundle:TestMessagesSayWhatIsWrong"},
		"10.5", "reported as the directory missing, never as a lock entry", []string{"bundle.missing-directory"}, "the code (`missing`) is pinned; the message is the implementation's own (12.1)"},
	{gMessages, "past 64 entries the present lock is read, not reported missing", []string{"bundle:readLock", "bundle:lookUp"}, []string{"bundle:TestMessagesSayWhatIsWrong", "bundle:TestReadLockAfterTruncatedListing"},
		"10.5", "a present lock is never reported missing", []string{"bundle.too-many-entries", "run.too-many-entries"}, ""},
	{gMessages, "Seal with an empty destination says so", []string{"bundle:seal"}, []string{"bundle:TestMessagesSayWhatIsWrong"},
		"", "", nil, "Seal writes a bundle; vectors check readers (12.1)"},
	{gMessages, "a byte-order mark is named, with line and column", []string{"internal/strictjson:LineColumn", "receipt:syntaxText"}, []string{"internal/strictjson:TestSyntaxLocation", "capability:TestParseErrorLocation", "receipt:TestLoadNamesBOM"},
		"1.2", "byte-order mark", nil, "messages are the implementation's own (12.1); a BOM is a parse-stage syntax error, pinned by its code where a vector holds one"},

	{gAlone, "content detectors: credential-shaped strings", []string{"receipt:scanSecrets"}, []string{"internal/redact:TestSecretsCorpus"},
		"5.4.1", "", []string{"run.receipt-secret-jwt", "run.receipt-secret-high-entropy-token", "run.valid-near-miss-digest", "run.valid-near-miss-assignment-max-tokens"}, ""},
	{gAlone, "content detectors: the complete list of browser-storage names", []string{"bundle:forbiddenName"}, []string{"bundle:TestForbiddenName"},
		"5.4", "", []string{"bundle.forbidden-browser-storage"}, ""},
	{gAlone, "the timestamp grammar", []string{"internal/timestamp:Parse"}, []string{"internal/timestamp:TestGrammar"},
		"1.4", "no leap second `60`", []string{"run.receipt-timestamp-leap-second", "run.receipt-timestamp-comma-fraction", "run.receipt-timestamp-one-digit-hour", "run.valid-timestamp-offset", "capability.invalid.reviewed-at-lowercase-t", "capability.invalid.reviewed-at-offset-out-of-range"}, ""},
	{gAlone, "non-empty label rules", []string{"receipt:validLabel"}, []string{"receipt:TestVerifyRunStatedRules"},
		"1.4", "The environment's `browser`, `library`, `go_version`, `os` and `arch` are required", []string{"run.receipt-blank-label", "run.valid-empty-protocol-version"}, ""},
	{gAlone, "whether `unverified` may be written", []string{"receipt:checkReceiptHeader"}, []string{"receipt:TestVerifyRunStatedRulesAccept"},
		"8.1", "a reader accepts it written out", []string{"run.valid-mode-unverified-written", "run.valid-mode-omitted"}, ""},
	{gAlone, "which violations map to `schema` and which to `inconsistent`", []string{"receipt:checkReceipt"}, []string{"receipt:TestVerifyRunTamper"},
		"8.7", "a receipt contradicts itself or its proposals", []string{"run.receipt-unknown-member", "run.receipt-finished-before-started"}, ""},
	{gAlone, "how entries of a run folder are counted and where counting stops", []string{"receipt:listRunDir"}, []string{"receipt:TestOverfullRunDirIsOrderFree"},
		"4.1", "", []string{"run.too-many-entries", "run.unexpected-entry"}, ""},
	{gAlone, "the ARIA role list", []string{"locator:KnownRole"}, []string{"docs:TestFormatRoleList"},
		"3.2", "**Roles.**", []string{"capability.invalid.locator-unknown-role"}, ""},
	{gAlone, "what plausible CSS means", []string{"locator:checkCSS"}, []string{"locator:TestVisibleAloneIsNoSelector"},
		"3.2", "**Plausible CSS.**", []string{"capability.invalid.scope_bad_css", "capability.invalid.css-visible-inside"}, ""},
	{gAlone, "where CSS-only candidates are allowed", []string{"locator:CheckList", "capability:cssOnlyReason"}, []string{"capability:TestCSSOnlyReason"},
		"3.2", "A list is *CSS-only* when none of its candidates is semantic", []string{"capability.invalid.interactive_css_only", "capability.invalid.postcondition_css_only", "capability.invalid.transition_css_not_visible", "capability.invalid.list_root_css_not_visible", "capability.valid.teller-decoy"}, ""},
	{gAlone, "the required-output path analysis", []string{"capability:mustProduced", "capability:flow"}, []string{"capability:TestMustProduced"},
		"3.2", "", []string{"capability.invalid.required_output_not_guaranteed"}, ""},
}

// goDecls returns the names of the functions and methods declared in the
// Go files of dir (test files when tests).
func goDecls(t *testing.T, dir string, tests bool) map[string]bool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") != tests {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range af.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				out[fd.Name.Name] = true
			}
		}
	}
	return out
}

// formatSection returns the text of FORMAT.md section sec ("10.2"),
// white space collapsed: from its heading to the next heading of the
// same or a higher level.
func formatSection(page, sec string) (string, bool) {
	lines := strings.Split(page, "\n")
	re := regexp.MustCompile(`^(#+) ` + regexp.QuoteMeta(sec) + `\.? `)
	for i, l := range lines {
		m := re.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		level := len(m[1])
		var body []string
		for _, x := range lines[i+1:] {
			if h := strings.IndexFunc(x, func(r rune) bool { return r != '#' }); h > 0 && h <= level && strings.HasPrefix(x[h:], " ") {
				break
			}
			body = append(body, x)
		}
		return strings.Join(strings.Fields(strings.Join(body, "\n")), " "), true
	}
	return "", false
}

// emitted returns the problem codes the Go code can emit, by kind: for
// run verification the 8.7 codes whose sentinels are passed to a problem
// constructor in package receipt; for bundles the 8.8 codes of the
// sentinels bundle passes; for capabilities every Code constant of
// packages capability and locator referenced outside its declaration.
func emitted(t *testing.T, page string) map[string][]string {
	t.Helper()
	sentinels := func(sec string) map[string]string {
		out := map[string]string{}
		start := strings.Index(page, "\n### "+sec+" ")
		body := page[start+1:]
		body = body[:strings.Index(body[4:], "\n### ")+4]
		for _, line := range strings.Split(body, "\n") {
			cells := strings.Split(line, "|")
			if len(cells) > 3 && strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
				out[strings.Trim(strings.TrimSpace(cells[2]), "`")] = strings.Trim(strings.TrimSpace(cells[1]), "`")
			}
		}
		return out
	}
	idents := func(dir string) map[string]int {
		out := map[string]int{}
		for _, af := range parseDir(t, dir) {
			ast.Inspect(af, func(n ast.Node) bool {
				if vs, ok := n.(*ast.ValueSpec); ok {
					// Skip the declared names, visit the values.
					for _, v := range vs.Values {
						ast.Inspect(v, func(m ast.Node) bool {
							if id, ok := m.(*ast.Ident); ok {
								out[id.Name]++
							}
							return true
						})
					}
					return false
				}
				if id, ok := n.(*ast.Ident); ok {
					out[id.Name]++
				}
				return true
			})
		}
		return out
	}
	res := map[string][]string{}
	for kind, v := range map[string]struct{ dir, sec string }{kindRun: {"../receipt", "8.7"}, kindBundle: {"../bundle", "8.8"}} {
		used := idents(v.dir)
		for sent, code := range sentinels(v.sec) {
			if used[sent] > 0 {
				res[kind] = append(res[kind], code)
			}
		}
		sort.Strings(res[kind])
	}
	// A Code constant counts as emitted when the package declaring it, or
	// package capability (which reports the locator codes), names it.
	capUsed := idents("../capability")
	for _, dir := range []string{"../capability", "../locator"} {
		used := idents(dir)
		for _, af := range parseDir(t, dir) {
			for _, d := range af.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.CONST {
					continue
				}
				for _, s := range gd.Specs {
					vs := s.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if i >= len(vs.Values) || !strings.HasPrefix(n.Name, "Code") || used[n.Name] == 0 {
							continue
						}
						if dir == "../locator" && capUsed["CheckList"]+capUsed["Check"] == 0 {
							continue
						}
						if lit, ok := vs.Values[i].(*ast.BasicLit); ok {
							if v, err := strconv.Unquote(lit.Value); err == nil {
								res[kindCapability] = append(res[kindCapability], v)
							}
						}
					}
				}
			}
		}
	}
	res[kindCapability] = sortedUnique(res[kindCapability])
	return res
}

// TestAudit checks the rows and the code inventory, and AUDIT.md.
func TestAudit(t *testing.T) {
	raw, err := os.ReadFile(formatFile)
	if err != nil {
		t.Fatal(err)
	}
	page := string(raw)
	m := readManifest(t)
	ids := map[string]*confCase{}
	for _, cc := range m.Cases {
		ids[cc.ID] = cc
	}
	decls := map[string]map[string]bool{}
	has := func(ref string, tests bool) bool {
		dir, name, ok := strings.Cut(ref, ":")
		if !ok {
			return false
		}
		k := fmt.Sprint(dir, tests)
		if decls[k] == nil {
			decls[k] = goDecls(t, dir, tests)
		}
		return decls[k][name]
	}
	for _, r := range auditRows {
		for _, c := range r.checks {
			if !has(c, false) {
				t.Errorf("%q: no Go function %s", r.rule, c)
			}
		}
		for _, c := range r.tests {
			if !has(c, true) {
				t.Errorf("%q: no Go test %s", r.rule, c)
			}
		}
		if len(r.tests) == 0 {
			t.Errorf("%q: no Go test", r.rule)
		}
		if r.section != "" {
			body, ok := formatSection(page, r.section)
			if !ok {
				t.Errorf("%q: FORMAT.md has no section %s", r.rule, r.section)
			} else if !strings.Contains(body, strings.Join(strings.Fields(r.phrase), " ")) {
				t.Errorf("%q: FORMAT.md section %s does not say %q", r.rule, r.section, r.phrase)
			}
		}
		for _, v := range r.vectors {
			if ids[v] == nil {
				t.Errorf("%q: no conformance case %s", r.rule, v)
			}
		}
		if len(r.vectors) == 0 && r.novector == "" {
			t.Errorf("%q: no vector and no reason", r.rule)
		}
	}

	// The other way: every code the Go code emits is documented in its
	// table and pinned by a vector or exempt.
	em := emitted(t, page)
	documented := map[string][]string{
		kindRun: tableCodes(t, page, "8.7"), kindBundle: tableCodes(t, page, "8.8"), kindCapability: capabilityTableCodes(t, page),
	}
	vectors := map[string]map[string][]string{kindRun: {}, kindBundle: {}, kindCapability: {}, kindFinalize: {}, kindCompare: {}, kindDiscovery: {}, kindPack: {}, "parse": {}}
	for _, cc := range m.Cases {
		k := cc.Kind
		if cc.Stage == stageParse {
			k = "parse"
		}
		for _, c := range cc.Codes {
			vectors[k][c] = append(vectors[k][c], cc.ID)
		}
	}
	exempt := map[string]map[string]string{kindRun: exemptRunCodes, kindBundle: exemptBundleCodes, kindCapability: exemptCapabilityCodes,
		kindFinalize: exemptFinalizeChecks, "parse": exemptParseCodes}
	for _, kind := range []string{kindRun, kindBundle, kindCapability} {
		if len(em[kind]) < 5 {
			t.Fatalf("found only %d emitted %s codes: has the code moved?", len(em[kind]), kind)
		}
		for _, c := range em[kind] {
			if why, ok := hostOnlyCapabilityCodes[c]; ok && kind == kindCapability {
				// Outside capability.Codes and its table on purpose: the
				// 8.11 preamble names it, and no vector can carry it.
				if !strings.Contains(page, "`"+c+"` (") || why == "" {
					t.Errorf("capability code %s: the 8.11 preamble must name it", c)
				}
				continue
			}
			if !slices.Contains(documented[kind], c) {
				t.Errorf("%s code %s is emitted by the Go code but not in its FORMAT.md table", kind, c)
			}
			if len(vectors[kind][c]) == 0 && exempt[kind][c] == "" {
				t.Errorf("%s code %s is emitted but has no vector and no exemption", kind, c)
			}
		}
		for _, c := range documented[kind] {
			if !slices.Contains(em[kind], c) {
				t.Errorf("%s code %s is in FORMAT.md but the Go code never emits it", kind, c)
			}
		}
	}

	var buf bytes.Buffer
	writeAudit(&buf, page, documented, vectors, exempt)
	writeCompareAudit(&buf, compareVocab(t), compareSeen(t, m))
	if *update {
		if err := os.WriteFile(auditFile, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(auditFile)
	if err != nil || !bytes.Equal(got, buf.Bytes()) {
		t.Errorf("%s is stale; run go test ./docs -run TestAudit -update", auditFile)
	}
}

// capabilityTableCodes returns the validation codes of the 8.11 table.
// hostOnlyCapabilityCodes are capability codes no document can produce:
// they judge a capability against the host's configuration, which no
// file carries, so they have no vector and are not in capability.Codes.
var hostOnlyCapabilityCodes = map[string]string{
	"secret_env_not_allowed": "reported by capability.CheckSecretEnv (and the runtime before a run) against the host's allowed list of environment variables, which no document carries",
}

func capabilityTableCodes(t *testing.T, page string) []string {
	t.Helper()
	start := strings.Index(page, "Validation codes (`capability.Error.Code`")
	if start < 0 {
		t.Fatal("FORMAT.md 8.11 has no validation code table")
	}
	var out []string
	for _, line := range strings.Split(page[start:], "\n")[1:] {
		if strings.HasPrefix(line, "#") {
			break
		}
		if strings.HasPrefix(line, "| `") {
			out = append(out, strings.Trim(strings.TrimSpace(strings.Split(line, "|")[1]), "`"))
		}
	}
	if want := strs(capability.Codes()); !slices.Equal(sortedUnique(out), sortedUnique(want)) {
		t.Errorf("the 8.11 table lists %d codes, capability.Codes %d: they differ", len(out), len(want))
	}
	return out
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func codeList(ids []string, max int) string {
	if len(ids) == 0 {
		return ""
	}
	var b []string
	for i, id := range ids {
		if i == max {
			b = append(b, fmt.Sprintf("and %d more", len(ids)-max))
			break
		}
		b = append(b, "`"+id+"`")
	}
	return strings.Join(b, ", ")
}

// writeAudit writes AUDIT.md.
func writeAudit(buf *bytes.Buffer, page string, documented map[string][]string, vectors map[string]map[string][]string, exempt map[string]map[string]string) {
	p := func(format string, args ...any) { fmt.Fprintf(buf, format, args...) }
	p("# Issue 14 audit: rule, Go check, FORMAT.md, vector\n\n")
	p("Generated by `go test ./docs -run TestAudit -update` from `docs/audit_test.go`;\n")
	p("do not edit. The test fails when a named Go function or test is gone, a\n")
	p("FORMAT.md section no longer says what the row quotes, a vector id is not\n")
	p("in `manifest.json`, or a problem code the Go code emits is undocumented\n")
	p("or unpinned.\n\n")
	p("## Rules of issue 14\n\n")
	group := ""
	for _, r := range auditRows {
		if r.group != group {
			group = r.group
			p("### %s\n\n| rule | Go check | Go test | FORMAT.md | vectors |\n|---|---|---|---|---|\n", group)
		}
		f := "—"
		if r.section != "" {
			f = "§" + r.section
			if r.phrase != "" {
				f += ": “" + cell(r.phrase) + "”"
			}
		}
		v := codeList(r.vectors, 8)
		if r.novector != "" {
			if v != "" {
				v += "; "
			}
			v += "(" + cell(r.novector) + ")"
		}
		p("| %s | %s | %s | %s | %s |\n", cell(r.rule), codeList(r.checks, 8), codeList(r.tests, 8), f, v)
		if i := slices.IndexFunc(auditRows, func(x auditRow) bool { return x.group == group }); i >= 0 {
			next := slices.IndexFunc(auditRows, func(x auditRow) bool { return x.rule == r.rule }) + 1
			if next == len(auditRows) || auditRows[next].group != group {
				p("\n")
			}
		}
	}
	p("## Problem codes\n\n")
	p("Every code of FORMAT.md 8.5, 8.7, 8.8, 8.9 and 8.11, the cases that pin it\n")
	p("(at most five named), or why none can. The run, bundle and capability\n")
	p("codes are also read from the Go code (the sentinels and `Code` constants\n")
	p("it passes when reporting): each emitted code is in its table.\n\n")
	secs := []struct{ kind, title, sec string }{
		{kindRun, "Run verification (8.7)", "8.7"}, {kindBundle, "Bundle verification (8.8)", "8.8"},
		{kindFinalize, "Finalize and CheckClaim checks (8.5)", "8.5"}, {"parse", "Capability parse codes (8.11)", "8.11"},
		{kindCapability, "Capability validation codes (8.11)", "8.11"},
	}
	for _, s := range secs {
		codes := documented[s.kind]
		switch s.kind {
		case kindFinalize:
			codes = finalizeTableCodes(page)
		case "parse":
			codes = strs([]capability.Code{capability.ParseCodeRead, capability.ParseCodeTooLarge, capability.ParseCodeSyntax,
				capability.ParseCodeDuplicateKey, capability.ParseCodeTrailingData, capability.ParseCodeUnsupportedSchema,
				capability.ParseCodeUnknownField, capability.ParseCodeWrongType})
		}
		p("### %s\n\n| code | FORMAT.md | cases | vectors |\n|---|---|---|---|\n", s.title)
		for _, c := range codes {
			ids := vectors[s.kind][c]
			v := codeList(ids, 5)
			if why := exempt[s.kind][c]; why != "" && len(ids) == 0 {
				v = "exempt: " + cell(why)
			}
			p("| `%s` | §%s | %d | %s |\n", c, s.sec, len(ids), v)
		}
		p("\n")
	}
	writeDiscoveryAudit(buf, page, vectors)
}

// finalizeTableCodes returns the checks of the 8.5 table.
func finalizeTableCodes(page string) []string {
	start := strings.Index(page, "\n### 8.5 ")
	body := page[start+1:]
	body = body[:strings.Index(body[4:], "\n### ")+4]
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if strings.HasPrefix(line, "| `") {
			out = append(out, strings.Trim(strings.TrimSpace(strings.Split(line, "|")[1]), "`"))
		}
	}
	return out
}

// TestFormatCodeTables holds the code tables of FORMAT.md 8.5, 8.7 and
// 8.8 equal to the Go constants (Check, receipt Code, bundle Code), so a
// code added in Go without its row (and so without the coverage tests'
// demand for a vector) fails.
func TestFormatCodeTables(t *testing.T) {
	raw, err := os.ReadFile(formatFile)
	if err != nil {
		t.Fatal(err)
	}
	page := string(raw)
	for _, tc := range []struct {
		sec  string
		code []string
	}{
		{"8.5", constValues(t, "../receipt", typed("Check"))},
		{"8.7", constValues(t, "../receipt", typed("Code"))},
		{"8.8", constValues(t, "../bundle", typed("Code"))},
	} {
		got, want := sortedUnique(tableCodes(t, page, tc.sec)), sortedUnique(tc.code)
		if len(want) < 5 || !slices.Equal(got, want) {
			t.Errorf("the code table of %s differs from the Go constants:\n page %q\n Go   %q", tc.sec, got, want)
		}
	}
}
