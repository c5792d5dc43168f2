package docs

import (
	"testing"

	"strings"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
)

// The vectors of the rules issue 14 names that the other case tables did
// not pin yet: every spelling of coordinates, template-shaped text where
// nothing is substituted, finalized_at, integers written as fractions or
// exponents, line separators in bundled text, and the run-level checks of
// a bundled receipt. docs/conformance/AUDIT.md (audit_test.go) maps each
// rule to its Go check, its FORMAT.md sentence and these vectors.

// validatedState turns c into a validated_local capability with the
// given finalized_at, the other validation members well formed.
func validatedState(c *capability.Capability, finalizedAt string) {
	c.State = capability.StateValidatedLocal
	c.Validation = &capability.Validation{
		Receipts:      []string{"sha256:" + strings.Repeat("1", 64), "sha256:" + strings.Repeat("2", 64)},
		ExecutionMode: string(receipt.ModeLiveConnected), FinalizedAt: finalizedAt, Claim: receipt.ClaimText}
}

func init() {
	coord := func(id, v string, set func(c *capability.Capability, v string), note string) capabilityEdit {
		return capabilityEdit{id: id, edit: func(c *capability.Capability) { set(c, v) }, codes: []string{"locator_coordinates"}, note: note}
	}
	textCand := func(c *capability.Capability, v string) {
		a := lookUp(c)
		a.LocatorCandidates = append(a.LocatorCandidates, locator.Candidate{Strategy: locator.Text, Text: v})
	}
	cssCand := func(c *capability.Capability, v string) {
		a := lookUp(c)
		a.LocatorCandidates = append(a.LocatorCandidates, locator.Candidate{Strategy: locator.CSS, CSS: v})
	}
	capabilityEdits = append(capabilityEdits,
		coord("coordinates-text-signed-pair", "(-10, 20)", textCand, "a text fallback that is a signed pair of numbers in parentheses (3.2)"),
		coord("coordinates-text-space-pair", "@10 20", textCand, "a text fallback that is two numbers separated by a space, after @ (3.2)"),
		coord("coordinates-text-px-pair", "10px 20px", textCand, "a text fallback that is a pixel pair (3.2)"),
		coord("coordinates-text-colon", "x: 10 y: -4", textCand, "a text fallback x: 10 y: -4 (3.2)"),
		coord("coordinates-css-uppercase", "X=10 Y=20", cssCand, "a CSS fallback X=10 Y=20, compared lower-cased (3.2)"),
		coord("coordinates-css-bracket-pair", "[+1.5,2]", cssCand, "a CSS fallback that is a signed decimal pair in brackets (3.2)"),
		coord("coordinates-after-non-ascii-letter", "ñx: 10 y: 4", textCand, "x after ñ: only an ASCII letter, digit, _ or - before the axis letter keeps it from being an axis (3.2)"),
		capabilityEdit{id: "locator-css-before-role", edit: func(c *capability.Capability) {
			a := lookUp(c)
			a.LocatorCandidates = append([]locator.Candidate{{Strategy: locator.CSS, CSS: "button#look-up"}}, a.LocatorCandidates...)
		}, codes: []string{"locator_order"}, note: "a CSS candidate before the role candidate: the list holds a semantic candidate, so only the order rule fails (3.2), not locator_no_semantic_candidate"},
		capabilityEdit{id: "start-over-2048-bytes", edit: func(c *capability.Capability) {
			c.Runtime.Start = "/members/" + strings.Repeat("é", 1100)
		}, codes: []string{"too_long"}, note: "runtime.start of 1109 runes but 2209 bytes: URL bounds count UTF-8 bytes (3.2)"},
		capabilityEdit{id: "query-name-over-200-bytes", edit: func(c *capability.Capability) {
			c.Runtime.StartQuery = []capability.QueryEntry{{Name: strings.Repeat("é", 101), Value: "1"}}
		}, codes: []string{"too_long"}, note: "a query entry name of 101 runes, 202 bytes (3.2)"},
		capabilityEdit{id: "css-visible-alone", edit: func(c *capability.Capability) { cssCand(c, ":visible") },
			codes: []string{"locator_bad_css"}, note: "a CSS candidate that is :visible alone selects nothing the author named (3.2, rule 5)"},
		capabilityEdit{id: "css-visible-after-combinator", edit: func(c *capability.Capability) { cssCand(c, "main > :visible") },
			codes: []string{"locator_bad_css"}, note: ":visible after a dangling > (3.2, rule 5)"},
		capabilityEdit{id: "css-visible-inside", edit: func(c *capability.Capability) { cssCand(c, "button:visible.primary") },
			codes: []string{"locator_bad_css"}, note: ":visible not at the end (3.2, rule 4)"},
		capabilityEdit{id: "runtime-frame-selector-template", edit: func(c *capability.Capability) {
			c.Runtime.FrameSelectors = []string{"iframe[name={{member_id}}]"}
		}, codes: []string{"template_not_substituted"}, note: "a template in runtime.frame_selectors is never substituted (3.2)"},
		capabilityEdit{id: "field-attribute-template", edit: func(c *capability.Capability) {
			a, _, _, _ := c.Action("read-summary")
			a.Extract.Fields[0].Read, a.Extract.Fields[0].Attribute = capability.ReadAttribute, "data-{{member_id}}"
		}, codes: []string{"template_not_substituted"}, note: "a template in an extraction field's attribute name is never substituted (3.2)"},
		capabilityEdit{id: "press-key-template", edit: func(c *capability.Capability) {
			m := &c.Milestones[0]
			m.Actions = append(m.Actions, capability.Action{ID: "press-key", Operation: capability.OpPress, Intent: "Press the member's key",
				Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, LocatorCandidates: fillMember(c).LocatorCandidates,
				Key: "{{member_id}}", Postcondition: fillMember(c).Postcondition})
		}, codes: []string{"invalid_key"}, note: "a press key that is a template: keys are checked against the key grammar at validation time (3.2)"},
		capabilityEdit{id: "press-key-unknown-modifier", edit: func(c *capability.Capability) {
			m := &c.Milestones[0]
			m.Actions = append(m.Actions, capability.Action{ID: "press-key", Operation: capability.OpPress, Intent: "Press a chord",
				Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, LocatorCandidates: fillMember(c).LocatorCandidates,
				Key: "Hyper+Enter", Postcondition: fillMember(c).Postcondition})
		}, codes: []string{"invalid_key"}, note: "Hyper is not a modifier of the key grammar (3.2)"},
		capabilityEdit{id: "finalized-at-fraction", edit: func(c *capability.Capability) { validatedState(c, "2026-03-04T12:00:00.5Z") },
			codes: []string{"invalid_timestamp"}, note: "validation.finalized_at with a fraction: it is UTC to the second (1.4, 3.2)"},
		capabilityEdit{id: "finalized-at-offset", edit: func(c *capability.Capability) { validatedState(c, "2026-03-04T13:00:00+01:00") },
			codes: []string{"invalid_timestamp"}, note: "validation.finalized_at with an offset: a timestamp of 1.4, but not UTC (3.2)"},
		capabilityEdit{id: "integer-as-fraction", stage: stageParse, raw: replaceOnce(`"max_length": 20`, `"max_length": 20.0`),
			codes: []string{"wrong_type"}, note: "an integer member written 20.0 (1.3: an integer member is an integer literal)"},
		capabilityEdit{id: "integer-as-exponent", stage: stageParse, raw: replaceOnce(`"max_length": 20`, `"max_length": 2e1`),
			codes: []string{"wrong_type"}, note: "an integer member written 2e1 (1.3)"},
	)
}

func init() {
	claim := func(id, note string, rules []string, edit func(r *receipt.Receipt)) bundleCase {
		return bundleCase{id: id, validated: true, edit: func(t *testing.T, b *confBase, bf map[string][]byte) { editReceipt(t, bf, edit) },
			codes: []string{"claim"}, rules: rules, note: note}
	}
	bundleCases = append(bundleCases,
		claim("claim-receipt-inputs-out-of-order", "a bundled receipt recording its inputs in another order than declared (10.2 step 7, run.cap.order)",
			[]string{"claim.run"}, func(r *receipt.Receipt) { r.Inputs[0], r.Inputs[1] = r.Inputs[1], r.Inputs[0] }),
		claim("claim-receipt-record-count", "a bundled receipt whose record extraction counts 2 records (10.2 step 7, run.cap.record-counts)",
			[]string{"claim.run"}, func(r *receipt.Receipt) {
				two := 2
				r.Actions[actionIndex(r, "read-summary")].Records = &two
			}),
		claim("claim-receipt-sequence", "a bundled receipt whose first visit is not of the first milestone (10.2 step 7, run.seq.start)",
			[]string{"claim.run"}, func(r *receipt.Receipt) { r.Milestones[0], r.Milestones[1] = r.Milestones[1], r.Milestones[0] }),
		claim("claim-receipt-input-missing", "a bundled receipt without the member_id input record (10.2 step 7, run.cap.inputs)",
			[]string{"claim.run"}, func(r *receipt.Receipt) { r.Inputs = r.Inputs[1:] }),
		claim("claim-receipt-finished-before-started", "a bundled receipt finished before it started (loaded strictly: 10.2 step 3)",
			[]string{"claim.load"}, func(r *receipt.Receipt) { r.FinishedAt = "2026-03-03T08:59:59Z" }),
		claim("claim-receipt-null-list", "a bundled receipt with origins written null (loaded strictly: 10.2 step 3)",
			[]string{"claim.load"}, func(r *receipt.Receipt) { r.Origins = nil }),
		claim("claim-receipt-unknown-mechanism", "a bundled receipt with a download mechanism outside 8.4 (loaded strictly)",
			[]string{"claim.load"}, func(r *receipt.Receipt) {
				r.Actions[actionIndex(r, "export-statement")].Download.Mechanism = "carrier_pigeon"
			}),
		bundleCase{id: "readme-line-separator", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
			bf["README.md"] = append(bf["README.md"], []byte("one\u2028two\n")...)
			relockBundle(t, bf)
		}, codes: []string{"forbidden"}, rules: []string{"bundle.content"}, note: "a line separator U+2028 in README.md (5.4)"},
		bundleCase{id: "readme-paragraph-separator", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
			bf["README.md"] = append(bf["README.md"], []byte("one\u2029two\n")...)
			relockBundle(t, bf)
		}, codes: []string{"forbidden"}, rules: []string{"bundle.content"}, note: "a paragraph separator U+2029 in README.md (5.4)"},
		bundleCase{id: "readme-html-tag", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
			bf["README.md"] = append(bf["README.md"], []byte("Read <em>carefully</em>.\n")...)
			relockBundle(t, bf)
		}, codes: []string{"forbidden"}, rules: []string{"bundle.content"}, note: "an HTML tag inside README.md's text (5.4)"},
		bundleCase{id: "capability-line-separator", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
			editCapability(t, bf, func(c *capability.Capability) { c.Goal += "\u2028Then stop." })
		}, codes: []string{"capability", "forbidden"}, rules: []string{"bundle.content", "bundle.capability"}, note: "a line separator U+2028 in the capability's goal: a forbidden control of 1.4 (control_character) and content that never travels (5.4)"},
		bundleCase{id: "capability-c1-control", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
			editCapability(t, bf, func(c *capability.Capability) { c.Goal += "\u0085Then stop." })
		}, codes: []string{"capability", "forbidden"}, rules: []string{"bundle.content", "bundle.capability"}, note: "a C1 control NEL (U+0085) in the capability's goal (1.4, 5.4)"},
	)
}

// Header detectors (5.4.1 rules 5 and 6) and HTML tags (5.4), each with
// both verdicts.
func init() {
	label := func(id, v string, codes []string, note string) runCase {
		return runCase{id: id, edit: func(t *testing.T, b *confBase, rf *runFiles) { rf.r.Environment.Browser = v },
			codes: codes, rules: []string{"run.file.secret"}, note: note}
	}
	runCases = append(runCases,
		label("receipt-secret-x-authorization", "X-Authorization: Token abc", []string{"secret"},
			"authorization at a word start after -: a scheme and a credential (5.4.1 rule 5)"),
		label("valid-near-miss-pre-authorization", "PreAuthorization: Token abc", nil,
			"authorization inside a word is no header (5.4.1 rule 5)"),
		label("receipt-secret-set-cookie", "Set-Cookie: theme=dark", []string{"secret"},
			"cookie at a word start after -, then name=value (5.4.1 rule 6)"),
		label("valid-near-miss-my-cookie", "MyCookie: theme=dark", nil,
			"cookie inside a word is no header (5.4.1 rule 6)"),
	)
	readme := func(id, text string, codes []string, note string) bundleCase {
		return bundleCase{id: id, edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
			bf["README.md"] = append(bf["README.md"], []byte(text)...)
			relockBundle(t, bf)
		}, codes: codes, rules: []string{"bundle.content"}, note: note}
	}
	bundleCases = append(bundleCases,
		readme("valid-readme-placeholders", "Type <member-id> and <dir>; a < b, and <b and c.\n", nil,
			"placeholders and comparisons, not tags: names outside the element list, and an element name followed by a space with no > after it (5.4)"),
		readme("readme-custom-element-attribute", "See <member-card id=a>.\n", []string{"forbidden"},
			"an opening tag of any name with an attribute before its > (5.4)"),
		readme("readme-self-closing", "A <x/> here.\n", []string{"forbidden"},
			"an opening tag of any name ending /> (5.4)"),
		readme("readme-element-space-then-gt", "Use <b and c> here.\n", []string{"forbidden"},
			"an element name followed by a space with a > later: an HTML parser reads a tag (5.4)"),
	)
}

func init() {
	bundleCases = append(bundleCases, bundleCase{id: "valid-readme-tag-across-lines", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
		bf["README.md"] = append(bf["README.md"], []byte("Use <b and\nc> now.\n")...)
		relockBundle(t, bf)
	}, rules: []string{"bundle.content"}, note: "README.md is scanned for tags line by line: <b and on one line, its > on the next, is no tag (5.4)"},
		bundleCase{id: "readme-bearer-own-line", edit: func(t *testing.T, b *confBase, bf map[string][]byte) {
			bf["README.md"] = append(bf["README.md"], []byte("Authorization:\n  Bearer abc123def4xyz\n")...)
			relockBundle(t, bf)
		}, codes: []string{"forbidden"}, rules: []string{"bundle.content"}, note: "a header name on one line and a bearer token on the next: the token's line is credential-shaped by itself (5.4.1 rule 10)"})
}

// self_approved compares the two labels byte for byte (4.3).
func init() {
	runCases = append(runCases, runCase{id: "close-valid-approver-case-differs", from: closeApproved, edit: func(t *testing.T, b *confBase, rf *runFiles) {
		ap := closeApproval(rf)
		ap.Approver = strings.ToUpper(ap.Requester[:1]) + ap.Requester[1:]
	}, rules: []string{"run.file.receipt"}, note: "the approver's label differs from the requester's only in case: two labels, not self-approved (4.3)"})
}
