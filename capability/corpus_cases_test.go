package capability

import (
	"encoding/json"
	"strings"

	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/locator"
)

// Stages of an invalid corpus case: where the one broken rule is caught.
const (
	stageParse     = "parse"     // Parse fails with ParseError.Code == code
	stageValidate  = "validate"  // Validate reports exactly {code}
	stageExecution = "execution" // Validate is clean; ValidateForExecution reports exactly {code}
)

// corpusCase derives one invalid document from a valid one by one change.
// The files under testdata/invalid are generated from this table with
// -update; TestInvalidCorpus reads only the files and expected.json.
type corpusCase struct {
	name  string
	base  string // key of validFiles
	stage string // "" means stageValidate
	code  Code
	edit  func(c *Capability)     // applied to the parsed base
	raw   func(doc string) string // applied to the (edited, marshalled) text
	note  string                  // what changed, for expected.json
}

func must(ok bool) {
	if !ok {
		panic("corpus case: precondition failed")
	}
}

func action(c *Capability, id string) *Action {
	a, _, _, ok := c.Action(id)
	must(ok)
	return a
}

func milestone(c *Capability, id string) *Milestone {
	m, _, ok := c.Milestone(id)
	must(ok)
	return m
}

// perMilestoneFrames moves runtime.frame_selectors onto every milestone.
func perMilestoneFrames(c *Capability) {
	for i := range c.Milestones {
		c.Milestones[i].FrameSelectors = append([]string(nil), c.Runtime.FrameSelectors...)
	}
	c.Runtime.FrameSelectors = nil
}

func output(c *Capability, name string) *Output {
	o, ok := c.Output(name)
	must(ok)
	return o
}

func input(c *Capability, name string) *Input {
	i, ok := c.Input(name)
	must(ok)
	return i
}

func replaceOnce(doc, old, new string) string {
	must(strings.Count(doc, old) == 1)
	return strings.Replace(doc, old, new, 1)
}

func candRole(r, name string) locator.Candidate {
	return locator.Candidate{Strategy: locator.Role, Role: r, Name: name, Exact: true}
}

func waitAction(id, text string) Action {
	return Action{ID: id, Operation: OpWait, Intent: "Wait for " + text, Effect: EffectReadOnly,
		Confirmation: ConfirmNone, Postcondition: &Condition{Kind: CondTextVisible, Text: text}}
}

var corpusCases = []corpusCase{
	// Parse-level problems.
	{name: "parse_unknown_field", base: "teller", stage: stageParse, code: ParseCodeUnknownField, note: "extra top-level member goal_text",
		raw: func(d string) string { return replaceOnce(d, `  "goal": `, `  "goal_text": "x",`+"\n"+`  "goal": `) }},
	{name: "parse_unknown_field_case", base: "teller", stage: stageParse, code: ParseCodeUnknownField, note: `member "ID" instead of "id" (names match exactly)`,
		raw: func(d string) string {
			return replaceOnce(d, `  "id": "teller.member-balances"`, `  "ID": "teller.member-balances"`)
		}},
	{name: "parse_duplicate_key", base: "teller", stage: stageParse, code: ParseCodeDuplicateKey, note: "version twice",
		raw: func(d string) string {
			return replaceOnce(d, `  "version": "1.2.1",`, `  "version": "1.2.1",`+"\n"+`  "version": "1.2.2",`)
		}},
	{name: "parse_trailing_data", base: "teller", stage: stageParse, code: ParseCodeTrailingData, note: "a second value after the document",
		raw: func(d string) string { return d + "{}\n" }},
	{name: "parse_wrong_schema", base: "teller", stage: stageParse, code: ParseCodeUnsupportedSchema, note: "schema browser-capability/v2",
		raw: func(d string) string { return replaceOnce(d, `"browser-capability/v1"`, `"browser-capability/v2"`) }},
	{name: "parse_wrong_type", base: "invoice", stage: stageParse, code: ParseCodeWrongType, note: "max_visits as a string",
		raw: func(d string) string { return replaceOnce(d, `"max_visits": 5`, `"max_visits": "5"`) }},
	{name: "parse_syntax", base: "teller", stage: stageParse, code: ParseCodeSyntax, note: "truncated document",
		raw: func(d string) string { return d[:len(d)/2] }},

	// Identity.
	{name: "id_uppercase", base: "teller", code: CodeInvalidID, note: "id with uppercase letters",
		edit: func(c *Capability) { c.ID = "Teller.Member-Balances" }},
	{name: "id_too_long", base: "teller", code: CodeInvalidID, note: "id of 65 bytes",
		edit: func(c *Capability) { c.ID = strings.Repeat("a", 65) }},
	{name: "version_not_semver", base: "teller", code: CodeInvalidVersion, note: "version 1.2",
		edit: func(c *Capability) { c.Version = "1.2" }},
	{name: "name_blank", base: "teller", code: CodeRequired, note: "blank name",
		edit: func(c *Capability) { c.Name = "   " }},
	{name: "goal_too_long", base: "teller", code: CodeTooLong, note: "goal over 2000 characters",
		edit: func(c *Capability) { c.Goal = strings.Repeat("Read the balances. ", 120) }},

	// States, provenance and validation metadata.
	{name: "state_unknown", base: "teller", code: CodeUnknownState, note: "state approved",
		edit: func(c *Capability) { c.State = "approved" }},
	{name: "draft_without_provenance", base: "mail", code: CodeProvenanceRequired, note: "mail capability turned draft without provenance",
		edit: func(c *Capability) { c.State = StateDraft; c.Provenance = nil }},
	{name: "discovery_hash_invalid", base: "teller", code: CodeInvalidDigest, note: "discovery_hash not a sha256 digest",
		edit: func(c *Capability) { c.Provenance.DiscoveryHash = "sha256:35AA15F9" }},
	{name: "discovered_without_model", base: "teller", code: CodeProvenanceIncomplete, note: "discovery_model removed",
		edit: func(c *Capability) { c.Provenance.DiscoveryModel = "" }},
	{name: "discovered_without_review", base: "teller", code: CodeReviewRequired, note: "review removed",
		edit: func(c *Capability) { c.Provenance.Review = nil }},
	{name: "review_bad_timestamp", base: "teller", code: CodeInvalidTimestamp, note: "reviewed_at not RFC 3339",
		edit: func(c *Capability) { c.Provenance.Review.ReviewedAt = "28/03/2026 10:15" }},
	{name: "review_record_mismatch", base: "teller", code: CodeReviewRecordMismatch, note: "review of another record",
		edit: func(c *Capability) {
			c.Provenance.Review.RecordHash = "sha256:076b259783a7f22247252043b654659f21339f70c9b2e99399981257a9a87458"
		}},
	{name: "review_not_approved", base: "teller", code: CodeAuthoringNotApproved, note: "authoring_approved false",
		edit: func(c *Capability) { c.Provenance.Review.AuthoringApproved = false }},
	{name: "discovery_mode_unknown", base: "teller", code: CodeUnknownDiscoveryMode, note: "discovery_mode manual",
		edit: func(c *Capability) { c.Provenance.DiscoveryMode = "manual" }},
	{name: "authored_with_discovery_provenance", base: "teller", code: CodeProvenanceKindMismatch, note: "state authored over a discovery provenance",
		edit: func(c *Capability) { c.State = StateAuthored }},
	{name: "hand_authored_with_discovery_hash", base: "mail", code: CodeProvenanceKindMismatch, note: "hand_authored provenance with an invented discovery_hash",
		edit: func(c *Capability) {
			c.Provenance.DiscoveryHash = "sha256:7d1c0a5e9b6f4e2c8a3d5f1b0c9e8d7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e"
		}},
	{name: "discovered_hand_authored", base: "mail", code: CodeProvenanceKindMismatch, note: "state discovered over a hand_authored provenance",
		edit: func(c *Capability) { c.State = StateDiscovered }},
	{name: "hand_authored_without_author", base: "mail", code: CodeProvenanceIncomplete, note: "author removed",
		edit: func(c *Capability) { c.Provenance.Author = "" }},
	{name: "hand_authored_without_review", base: "mail", code: CodeReviewRequired, note: "review removed",
		edit: func(c *Capability) { c.Provenance.Review = nil }},
	{name: "provenance_kind_unknown", base: "mail", code: CodeUnknownProvenanceKind, note: "provenance kind manual",
		edit: func(c *Capability) { c.Provenance.Kind = "manual" }},
	{name: "validated_without_validation", base: "invoice", code: CodeValidationRequired, note: "validation removed",
		edit: func(c *Capability) { c.Validation = nil }},
	{name: "validation_below_validated", base: "invoice", code: CodeValidationNotAllowed, note: "state discovered with validation metadata",
		edit: func(c *Capability) { c.State = StateDiscovered }},
	{name: "validation_one_receipt", base: "invoice", code: CodeInvalidReceipts, note: "one receipt",
		edit: func(c *Capability) { c.Validation.Receipts = c.Validation.Receipts[:1] }},
	{name: "validation_same_receipt", base: "invoice", code: CodeInvalidReceipts, note: "the same receipt twice",
		edit: func(c *Capability) { c.Validation.Receipts[1] = c.Validation.Receipts[0] }},
	{name: "validation_receipts_not_sorted", base: "invoice", code: CodeReceiptsNotSorted, note: "the two receipts in descending order",
		edit: func(c *Capability) {
			r := c.Validation.Receipts
			if r[0] < r[1] {
				r[0], r[1] = r[1], r[0]
			}
		}},
	{name: "validation_simulated", base: "invoice", code: CodeInvalidExecutionMode, note: "execution_mode simulated",
		edit: func(c *Capability) { c.Validation.ExecutionMode = "simulated" }},
	{name: "execution_draft", base: "teller", stage: stageExecution, code: CodeStateNotExecutable, note: "state draft (valid document, never executable)",
		edit: func(c *Capability) { c.State = StateDraft }},
	{name: "execution_risky_scaffold", base: "invoice", stage: stageExecution, code: CodeRiskyBelowDiscovered, note: "consequential capability as scaffold",
		edit: func(c *Capability) { c.State, c.Validation = StateScaffold, nil }},

	// Origins and navigation targets.
	{name: "origin_trailing_slash", base: "teller", code: CodeInvalidOrigin, note: "http://127.0.0.1:4010/",
		edit: func(c *Capability) { c.Site.AllowedOrigins[0] = "http://127.0.0.1:4010/" }},
	{name: "origin_with_path", base: "teller", code: CodeInvalidOrigin, note: "origin with a path",
		edit: func(c *Capability) { c.Site.AllowedOrigins[0] = "https://teller.example.com/console" }},
	{name: "origin_uppercase_host", base: "teller", code: CodeInvalidOrigin, note: "uppercase host",
		edit: func(c *Capability) { c.Site.AllowedOrigins[0] = "https://Teller.example.com" }},
	{name: "origin_userinfo", base: "teller", code: CodeInvalidOrigin, note: "user information in the origin",
		edit: func(c *Capability) { c.Site.AllowedOrigins[0] = "https://ops@teller.example.com" }},
	{name: "origin_default_port", base: "teller", code: CodeInvalidOrigin, note: "explicit default port 443",
		edit: func(c *Capability) { c.Site.AllowedOrigins[0] = "https://teller.example.com:443" }},
	{name: "origin_http_remote", base: "teller", code: CodeInsecureOrigin, note: "HTTP on a non-loopback host",
		edit: func(c *Capability) { c.Site.AllowedOrigins[0] = "http://teller.example.com" }},
	{name: "origin_loopback_without_port", base: "teller", code: CodeInsecureOrigin, note: "http://127.0.0.1 without port",
		edit: func(c *Capability) { c.Site.AllowedOrigins[0] = "http://127.0.0.1" }},
	{name: "origin_duplicate", base: "invoice", code: CodeDuplicateOrigin, note: "origin listed twice",
		edit: func(c *Capability) { c.Site.AllowedOrigins = append(c.Site.AllowedOrigins, "http://localhost:4031") }},
	{name: "subresource_origin_insecure", base: "mail", code: CodeInsecureOrigin, note: "HTTP subresource origin",
		edit: func(c *Capability) { c.Site.SubresourceOrigins = []string{"http://cdn.example.com"} }},
	{name: "no_allowed_origins", base: "teller", code: CodeRequired, note: "empty allowed_origins",
		edit: func(c *Capability) { c.Site.AllowedOrigins = []string{} }},
	{name: "start_with_query", base: "teller", code: CodeURLQuery, note: "start /login?next=/members",
		edit: func(c *Capability) { c.Runtime.Start = "/login?next=/members" }},
	{name: "start_foreign_origin", base: "invoice", code: CodeOriginNotAllowed, note: "start on an origin that is not allowed",
		edit: func(c *Capability) { c.Runtime.Start = "http://127.0.0.1:4099/billing" }},
	{name: "start_relative", base: "teller", code: CodeInvalidURL, note: "start login without a slash",
		edit: func(c *Capability) { c.Runtime.Start = "login" }},
	{name: "start_userinfo", base: "mail", code: CodeInvalidURL, note: "user information in the start URL",
		edit: func(c *Capability) { c.Runtime.Start = "http://ops@127.0.0.1:4020/mail" }},
	{name: "start_template_in_path", base: "mail", code: CodeTemplateInPath, note: "template in the start path",
		edit: func(c *Capability) { c.Runtime.Start = "/mail/{{query}}" }},

	// Query entries (runtime.start_query, a navigate action's query).
	{name: "query_secret_input", base: "teller", code: CodeSecretInputExposed, note: "start_query value templates the secret password",
		edit: func(c *Capability) { c.Runtime.StartQuery = []QueryEntry{{Name: "q", Value: "{{password}}"}} }},
	{name: "query_undeclared_input", base: "mail", code: CodeUndeclaredInput, note: "start_query value templates an undeclared input",
		edit: func(c *Capability) { c.Runtime.StartQuery = []QueryEntry{{Name: "q", Value: "{{client}}"}} }},
	{name: "query_blank_name", base: "mail", code: CodeRequired, note: "start_query entry with a blank name",
		edit: func(c *Capability) { c.Runtime.StartQuery = []QueryEntry{{Name: " ", Value: "x"}} }},
	{name: "query_templated_name", base: "mail", code: CodeInvalidQueryEntry, note: "start_query entry name {{query}}",
		edit: func(c *Capability) {
			c.Runtime.StartQuery = []QueryEntry{{Name: "{{query}}", Value: "x"}}
		}},
	{name: "query_duplicate_name", base: "mail", code: CodeDuplicateQueryName, note: "two start_query entries named q",
		edit: func(c *Capability) {
			c.Runtime.StartQuery = []QueryEntry{{Name: "q", Value: "a"}, {Name: "q", Value: "b"}}
		}},
	{name: "query_credential_name", base: "mail", code: CodeCredentialQueryName, note: "start_query entry named access_token",
		edit: func(c *Capability) { c.Runtime.StartQuery = []QueryEntry{{Name: "access_token", Value: "{{query}}"}} }},
	{name: "query_too_many", base: "mail", code: CodeTooMany, note: "33 start_query entries",
		edit: func(c *Capability) {
			for i := 0; i <= MaxQueryEntries; i++ {
				c.Runtime.StartQuery = append(c.Runtime.StartQuery, QueryEntry{Name: "f" + strings.Repeat("x", i), Value: "1"})
			}
		}},
	{name: "query_on_click", base: "teller", code: CodeUnexpectedField, note: "a click action with a query",
		edit: func(c *Capability) { action(c, "sign-in").Query = []QueryEntry{{Name: "q", Value: "1"}} }},

	// Frame-scoped URL conditions.
	{name: "frame_scope_without_frames", base: "teller", code: CodeFrameScope, note: "url_path scope frame without frame_selectors",
		edit: func(c *Capability) { action(c, "sign-in").Postcondition.Scope = ScopeFrame }},
	{name: "frame_scope_unknown", base: "invoice", code: CodeFrameScope, note: "condition scope window",
		edit: func(c *Capability) {
			m := milestone(c, "next_page")
			m.Actions[0].Postcondition = &Condition{Kind: CondURLIncludes, Value: "page=2", Scope: "window"}
		}},
	{name: "frame_scope_on_locator", base: "invoice", code: CodeFrameScope, note: "scope frame on a locator_visible condition",
		edit: func(c *Capability) { action(c, "click-next-page").Postcondition.Scope = ScopeFrame }},

	// Per-milestone frame paths.
	{name: "frame_path_mixed", base: "invoice", code: CodeFramePathMixed, note: "runtime.frame_selectors and a milestone frame_selectors",
		edit: func(c *Capability) { milestone(c, "next_page").FrameSelectors = []string{"iframe#workspace"} }},
	{name: "milestone_frames_too_many", base: "invoice", code: CodeTooManyFrames, note: "per-milestone paths, one with six selectors",
		edit: func(c *Capability) {
			perMilestoneFrames(c)
			milestone(c, "export").FrameSelectors = []string{"iframe#a", "iframe#b", "iframe#c", "iframe#d", "iframe#e", "iframe#f"}
		}},
	{name: "milestone_frame_selector_blank", base: "invoice", code: CodeInvalidFrameSelector, note: "per-milestone paths, one blank selector",
		edit: func(c *Capability) { perMilestoneFrames(c); milestone(c, "read_page").FrameSelectors[0] = "  " }},
	{name: "milestone_frame_selector_long", base: "invoice", code: CodeInvalidFrameSelector, note: "per-milestone paths, a 301-byte selector",
		edit: func(c *Capability) {
			perMilestoneFrames(c)
			milestone(c, "read_page").FrameSelectors[1] = "iframe#" + strings.Repeat("x", 294)
		}},
	{name: "milestone_frame_selector_template", base: "invoice", code: CodeTemplateNotSubstituted, note: "per-milestone paths, a templated selector",
		edit: func(c *Capability) {
			perMilestoneFrames(c)
			milestone(c, "next_page").FrameSelectors[1] = "iframe#{{ledger}}"
		}},
	{name: "frame_scope_top_level_milestone", base: "invoice", code: CodeFrameScope, note: "per-milestone paths, scope frame in a milestone without one",
		edit: func(c *Capability) {
			perMilestoneFrames(c)
			milestone(c, "next_page").FrameSelectors = nil
			action(c, "click-next-page").Postcondition = &Condition{Kind: CondURLIncludes, Value: "page=2", Scope: ScopeFrame}
		}},

	// Runtime parameters.
	{name: "frames_too_many", base: "invoice", code: CodeTooManyFrames, note: "six frame selectors",
		edit: func(c *Capability) {
			c.Runtime.FrameSelectors = []string{"iframe#a", "iframe#b", "iframe#c", "iframe#d", "iframe#e", "iframe#f"}
		}},
	{name: "frame_selector_blank", base: "invoice", code: CodeInvalidFrameSelector, note: "blank frame selector",
		edit: func(c *Capability) { c.Runtime.FrameSelectors[1] = " " }},
	{name: "action_timeout_too_small", base: "teller", code: CodeTimeoutOutOfRange, note: "runtime.action_timeout_ms 50",
		edit: func(c *Capability) { c.Runtime.ActionTimeoutMS = 50 }},
	{name: "run_timeout_too_long", base: "teller", code: CodeTimeoutOutOfRange, note: "run_timeout_ms one hour",
		edit: func(c *Capability) { c.Runtime.RunTimeoutMS = 3_600_000 }},
	{name: "step_timeout_too_long", base: "invoice", code: CodeTimeoutOutOfRange, note: "action timeout_ms 200 s",
		edit: func(c *Capability) { action(c, "download-csv").TimeoutMS = 200_000 }},
	{name: "max_actions_too_many", base: "teller", code: CodeMaxActionsOutOfRange, note: "max_actions 20000",
		edit: func(c *Capability) { c.Runtime.MaxActions = 20_000 }},

	// Authority and privacy.
	{name: "max_effect_unknown", base: "teller", code: CodeUnknownEffect, note: "max_effect dangerous",
		edit: func(c *Capability) { c.Authority.MaxEffect = "dangerous" }},
	{name: "effect_exceeds_authority", base: "invoice", code: CodeEffectExceedsAuthority, note: "max_effect reversible with a consequential action",
		edit: func(c *Capability) { c.Authority.MaxEffect = EffectReversible }},
	{name: "data_class_pattern", base: "teller", code: CodeInvalidDataClass, note: "data class with spaces",
		edit: func(c *Capability) { c.Privacy.DataClasses[0] = "Member Identity" }},
	{name: "data_class_duplicate", base: "teller", code: CodeDuplicateDataClass, note: "data class twice",
		edit: func(c *Capability) { c.Privacy.DataClasses[1] = c.Privacy.DataClasses[0] }},

	// Inputs and templates.
	{name: "input_type_unknown", base: "teller", code: CodeUnknownInputType, note: "input type text",
		edit: func(c *Capability) { input(c, "member_id").Type = "text" }},
	{name: "input_duplicate", base: "teller", code: CodeDuplicateInput, note: "username declared twice",
		edit: func(c *Capability) {
			c.Inputs = append(c.Inputs, Input{Name: "username", Type: InputString, Description: "again"})
		}},
	{name: "input_name_pattern", base: "mail", code: CodeInvalidName, note: "camelCase input name",
		edit: func(c *Capability) {
			input(c, "max_results").Name = "maxResults"
			action(c, "extract-messages").Extract.LimitInput = "maxResults"
		}},
	{name: "enum_without_values", base: "teller", code: CodeInvalidEnumValues, note: "enum input without values",
		edit: func(c *Capability) { i := input(c, "member_id"); i.Type, i.MaxLength = InputEnum, 0 }},
	{name: "enum_duplicate_values", base: "teller", code: CodeInvalidEnumValues, note: "enum value twice",
		edit: func(c *Capability) {
			i := input(c, "member_id")
			i.Type, i.MaxLength, i.Values = InputEnum, 0, []string{"100234", "100234"}
		}},
	{name: "bounds_on_string", base: "teller", code: CodeInvalidBounds, note: "minimum on a string input",
		edit: func(c *Capability) { input(c, "username").Minimum = ptr(1.0) }},
	{name: "minimum_above_maximum", base: "mail", code: CodeInvalidBounds, note: "minimum 60 above maximum 50",
		edit: func(c *Capability) { i := input(c, "max_results"); i.Minimum, i.Default = ptr(60.0), nil }},
	{name: "default_wrong_type", base: "mail", code: CodeInvalidDefault, note: `default "20" for an integer`,
		edit: func(c *Capability) { input(c, "max_results").Default = json.RawMessage(`"20"`) }},
	{name: "default_above_maximum", base: "mail", code: CodeInvalidDefault, note: "default 80 above maximum 50",
		edit: func(c *Capability) { input(c, "max_results").Default = json.RawMessage(`80`) }},
	{name: "default_on_required", base: "teller", code: CodeInvalidDefault, note: "default on a required input",
		edit: func(c *Capability) { input(c, "username").Default = json.RawMessage(`"teller"`) }},
	{name: "secret_default", base: "teller", code: CodeSecretDefault, note: "default on the secret password input",
		edit: func(c *Capability) { input(c, "password").Default = json.RawMessage(`"changeme"`) }},
	{name: "undeclared_template", base: "teller", code: CodeUndeclaredInput, note: "{{member}} is not declared",
		edit: func(c *Capability) { action(c, "submit-search").Postcondition.Value = "/members/{{member}}" }},
	{name: "unused_input", base: "mail", code: CodeUnusedInput, note: "input folder never used",
		edit: func(c *Capability) { c.Inputs = append(c.Inputs, Input{Name: "folder", Type: InputString}) }},
	{name: "secret_in_url_template", base: "teller", code: CodeSecretInputExposed, note: "secret password in a URL condition template",
		edit: func(c *Capability) {
			action(c, "submit-search").Postcondition.Value = "/members/{{member_id}}#{{password}}"
		}},
	{name: "secret_in_locator", base: "teller", code: CodeSecretInputExposed, note: "secret password in a locator template",
		edit: func(c *Capability) {
			action(c, "fill-password").Postcondition.LocatorCandidates[0].Label = "{{password}}"
		}},
	{name: "invalid_template", base: "teller", code: CodeInvalidTemplate, note: "unterminated {{member_id",
		edit: func(c *Capability) { action(c, "submit-search").Postcondition.Value = "/members/{{member_id" }},

	{name: "template_encoding_required", base: "teller", code: CodeTemplateEncodingRequired, note: "fill value is a JSON literal with an unencoded {{member_id}}",
		edit: func(c *Capability) {
			a := action(c, "fill-member-id")
			a.Input, a.Value = "", `{"member": "{{member_id}}"}`
		}},
	{name: "template_encoding_context", base: "teller", code: CodeTemplateEncodingContext, note: "a json template inside a JSON string",
		edit: func(c *Capability) {
			a := action(c, "fill-member-id")
			a.Input, a.Value = "", `{"member": "{{member_id|json}}"}`
		}},

	// Outputs.
	{name: "output_duplicate", base: "teller", code: CodeDuplicateOutput, note: "balances declared twice",
		edit: func(c *Capability) {
			c.Outputs = append(c.Outputs, Output{Name: "balances", Kind: OutputText, Exposure: ExposureArtifactOnly})
		}},
	{name: "output_kind_unknown", base: "mail", code: CodeUnknownOutputKind, note: "output kind table",
		edit: func(c *Capability) { output(c, "messages").Kind = "table" }},
	{name: "output_exposure_unknown", base: "mail", code: CodeUnknownExposure, note: "exposure public",
		edit: func(c *Capability) { output(c, "messages").Exposure = "public" }},
	{name: "download_not_artifact_only", base: "invoice", code: CodeDownloadExposure, note: "download set exposed to the model",
		edit: func(c *Capability) { output(c, "invoices_csv").Exposure = ExposureModelAndArtifact }},
	{name: "record_without_fields", base: "teller", code: CodeOutputFieldsRequired, note: "record output without fields",
		edit: func(c *Capability) { output(c, "balances").Fields = nil }},
	{name: "download_set_with_fields", base: "invoice", code: CodeOutputFieldsNotAllowed, note: "download set with fields",
		edit: func(c *Capability) {
			output(c, "invoices_csv").Fields = []OutputField{{Name: "line", Type: FieldString}}
		}},
	{name: "output_field_duplicate", base: "mail", code: CodeDuplicateField, note: "output field sender twice",
		edit: func(c *Capability) {
			o := output(c, "messages")
			o.Fields = append(o.Fields, OutputField{Name: "sender", Type: FieldString})
		}},
	{name: "output_field_type_unknown", base: "mail", code: CodeUnknownFieldType, note: "output field type datetime",
		edit: func(c *Capability) { output(c, "messages").Fields[2].Type = "datetime" }},
	{name: "output_not_produced", base: "mail", code: CodeOutputNotProduced, note: "output summary never produced",
		edit: func(c *Capability) {
			c.Outputs = append(c.Outputs, Output{Name: "summary", Kind: OutputText, Exposure: ExposureModelSummary})
		}},
	{name: "required_output_not_guaranteed", base: "teller", code: CodeRequiredOutputNotGuaranteed, note: "a completion path that skips read_balances",
		edit: func(c *Capability) {
			m := milestone(c, "search")
			m.Transitions = append(m.Transitions, Transition{When: Condition{Kind: CondTextVisible, Text: "No member found"}, To: TerminalCompleted})
		}},

	// Milestones, transitions and conditions.
	{name: "milestone_duplicate", base: "invoice", code: CodeDuplicateMilestone, note: "two milestones named export",
		edit: func(c *Capability) { milestone(c, "issue").ID = "export" }},
	{name: "milestone_reserved", base: "teller", code: CodeReservedID, note: "milestone id completed",
		edit: func(c *Capability) { milestone(c, "login").ID = TerminalCompleted }},
	{name: "milestone_id_pattern", base: "teller", code: CodeInvalidID, note: "milestone id with a space",
		edit: func(c *Capability) { milestone(c, "login").ID = "log in" }},
	{name: "milestone_empty", base: "teller", code: CodeEmptyMilestone, note: "milestone without actions or transitions",
		edit: func(c *Capability) { c.Milestones = append(c.Milestones, Milestone{ID: "noop", Intent: "Nothing"}) }},
	{name: "transition_unknown_target", base: "teller", code: CodeUnknownTarget, note: "transition to not_found",
		edit: func(c *Capability) {
			m := milestone(c, "search")
			m.Transitions = append(m.Transitions, Transition{When: Condition{Kind: CondTextVisible, Text: "No member found"}, To: "not_found"})
		}},
	{name: "milestone_unreachable", base: "teller", code: CodeUnreachableMilestone, note: "help milestone no transition reaches",
		edit: func(c *Capability) {
			help := Milestone{ID: "help", Intent: "Read the help page", Actions: []Action{waitAction("wait-help", "Help")}}
			c.Milestones = append(c.Milestones[:2], append([]Milestone{help}, c.Milestones[2:]...)...)
		}},
	{name: "completion_unreachable", base: "mail", code: CodeCompletionUnreachable, note: "results loops back to search only",
		edit: func(c *Capability) {
			milestone(c, "search").MaxVisits = 2
			r := milestone(c, "results")
			r.MaxVisits = 2
			r.Transitions = []Transition{{When: Condition{Kind: CondAlways}, To: "search"}}
		}},
	{name: "cycle_unbounded", base: "invoice", code: CodeUnboundedCycle, note: "next_page without max_visits",
		edit: func(c *Capability) { milestone(c, "next_page").MaxVisits = 0 }},
	{name: "max_visits_too_high", base: "invoice", code: CodeMaxVisitsOutOfRange, note: "max_visits 500",
		edit: func(c *Capability) { milestone(c, "read_page").MaxVisits = 500 }},
	{name: "condition_kind_unknown", base: "teller", code: CodeUnknownConditionKind, note: "condition kind element_visible",
		edit: func(c *Capability) { milestone(c, "search").Transitions[0].When.Kind = "element_visible" }},
	{name: "condition_text_missing", base: "invoice", code: CodeInvalidCondition, note: "text_visible without text",
		edit: func(c *Capability) { action(c, "confirm-issue").Postcondition.Text = "" }},
	{name: "condition_extra_member", base: "teller", code: CodeInvalidCondition, note: "url_path with text",
		edit: func(c *Capability) { action(c, "sign-in").Postcondition.Text = "Member search" }},
	{name: "url_path_not_a_path", base: "teller", code: CodeInvalidCondition, note: "url_path members without slash",
		edit: func(c *Capability) { action(c, "sign-in").Postcondition.Value = "members" }},
	{name: "condition_undeclared_output", base: "teller", code: CodeUndeclaredOutput, note: "output_produced of an undeclared output",
		edit: func(c *Capability) {
			milestone(c, "search").Transitions[0].When = Condition{Kind: CondOutputProduced, Output: "member"}
		}},
	{name: "always_not_last", base: "invoice", code: CodeAlwaysNotLast, note: "always before another transition",
		edit: func(c *Capability) {
			ts := milestone(c, "read_page").Transitions
			ts[0], ts[1] = ts[1], ts[0]
		}},
	{name: "transition_download_without_download", base: "teller", code: CodeInvalidCondition, note: "download_completed in a milestone without download",
		edit: func(c *Capability) {
			milestone(c, "search").Transitions[0].When = Condition{Kind: CondDownloadCompleted}
		}},

	// Actions.
	{name: "action_duplicate", base: "teller", code: CodeDuplicateAction, note: "two actions fill-username",
		edit: func(c *Capability) { action(c, "fill-password").ID = "fill-username" }},
	{name: "action_id_pattern", base: "teller", code: CodeInvalidID, note: "action id with uppercase and !",
		edit: func(c *Capability) { action(c, "sign-in").ID = "Sign_In!" }},
	{name: "operation_unknown", base: "teller", code: CodeUnknownOperation, note: "operation tap",
		edit: func(c *Capability) { action(c, "sign-in").Operation = "tap" }},
	{name: "effect_unknown", base: "teller", code: CodeUnknownEffect, note: "effect harmless",
		edit: func(c *Capability) { action(c, "sign-in").Effect = "harmless" }},
	{name: "confirmation_unknown", base: "teller", code: CodeUnknownConfirmation, note: "confirmation later",
		edit: func(c *Capability) { action(c, "sign-in").Confirmation = "later" }},
	{name: "consequential_without_confirmation", base: "invoice", code: CodeConfirmationMismatch, note: "consequential with confirmation none",
		edit: func(c *Capability) { action(c, "confirm-issue").Confirmation = ConfirmNone }},
	{name: "read_only_with_confirmation", base: "teller", code: CodeConfirmationMismatch, note: "read_only with action_time",
		edit: func(c *Capability) { action(c, "sign-in").Confirmation = ConfirmActionTime }},
	{name: "interactive_without_locators", base: "teller", code: locator.CodeNoCandidates, note: "click without locator candidates",
		edit: func(c *Capability) { action(c, "sign-in").LocatorCandidates = nil }},
	{name: "interactive_css_only", base: "teller", code: locator.CodeNoSemantic, note: "click with a CSS candidate only",
		edit: func(c *Capability) {
			action(c, "sign-in").LocatorCandidates = []locator.Candidate{{Strategy: locator.CSS, CSS: "button[type=submit]"}}
		}},
	{name: "locator_order", base: "teller", code: locator.CodeOrder, note: "test id before role",
		edit: func(c *Capability) {
			cs := action(c, "submit-search").LocatorCandidates
			cs[0], cs[1] = cs[1], cs[0]
		}},
	{name: "locator_coordinates", base: "teller", code: locator.CodeCoordinates, note: "a text candidate that is a screen position",
		edit: func(c *Capability) {
			a := action(c, "sign-in")
			a.LocatorCandidates = append(a.LocatorCandidates, locator.Candidate{Strategy: locator.Text, Text: "120,340"})
		}},
	{name: "locator_redaction_marker", base: "teller", code: locator.CodeRedactedMarker, note: "label holds the redaction marker",
		edit: func(c *Capability) {
			action(c, "fill-member-id").LocatorCandidates[0].Label = "Member " + redact.Marker
		}},
	{name: "postcondition_css_only", base: "teller", code: locator.CodeNoSemantic, note: "CSS-only locator_visible postcondition (only transitions may)",
		edit: func(c *Capability) {
			action(c, "sign-in").Postcondition = &Condition{Kind: CondLocatorVisible, LocatorCandidates: []locator.Candidate{{Strategy: locator.CSS, CSS: "main:visible"}}}
		}},
	{name: "transition_css_not_visible", base: "mail", code: locator.CodeCSSNotVisible, note: "CSS-only marker without :visible",
		edit: func(c *Capability) {
			milestone(c, "search").Transitions[0].When.LocatorCandidates[0].CSS = "section#search-view"
		}},
	{name: "css_only_reason_control", base: "mail", code: CodeCSSOnlyReasonInvalid, note: "css_only_reason with a newline",
		edit: func(c *Capability) { action(c, "extract-messages").CSSOnlyReason = "rows have no role\nsecond line" }},
	{name: "css_only_reason_with_semantic", base: "teller", code: CodeCSSOnlyReasonMisplaced, note: "css_only_reason on a locator with a role candidate",
		edit: func(c *Capability) { action(c, "extract-balances").CSSOnlyReason = "no semantic handle" }},
	{name: "list_root_css_not_visible", base: "mail", code: locator.CodeCSSNotVisible, note: "CSS-only list root without :visible",
		edit: func(c *Capability) {
			action(c, "extract-messages").LocatorCandidates[0].CSS = "#search-list li[data-testid=message-row]"
		}},
	{name: "navigate_without_url", base: "teller", code: CodeMissingField, note: "navigate without url",
		edit: func(c *Capability) {
			m := milestone(c, "login")
			nav := Action{ID: "open-login", Operation: OpNavigate, Intent: "Open the sign-in page", Effect: EffectReadOnly,
				Confirmation: ConfirmNone, Postcondition: &Condition{Kind: CondURLPath, Value: "/login"}}
			m.Actions = append([]Action{nav}, m.Actions...)
		}},
	{name: "navigate_with_locators", base: "teller", code: CodeUnexpectedField, note: "navigate with locator candidates",
		edit: func(c *Capability) {
			m := milestone(c, "login")
			nav := Action{ID: "open-login", Operation: OpNavigate, Intent: "Open the sign-in page", Effect: EffectReadOnly,
				Confirmation: ConfirmNone, URL: "/login", LocatorCandidates: []locator.Candidate{candRole("link", "Sign in")},
				Postcondition: &Condition{Kind: CondURLPath, Value: "/login"}}
			m.Actions = append([]Action{nav}, m.Actions...)
		}},
	{name: "fill_input_and_value", base: "teller", code: CodeInputXorValue, note: "fill with input and value",
		edit: func(c *Capability) { action(c, "fill-username").Value = "teller" }},
	{name: "fill_neither_input_nor_value", base: "mail", code: CodeInputXorValue, note: "fill without input or value",
		edit: func(c *Capability) { action(c, "fill-query").Input = "" }},
	{name: "press_without_key", base: "mail", code: CodeMissingField, note: "press without key",
		edit: func(c *Capability) { action(c, "submit-query").Key = "" }},
	{name: "extract_without_config", base: "teller", code: CodeMissingField, note: "extract without extract",
		edit: func(c *Capability) { action(c, "extract-balances").Extract = nil }},
	{name: "download_wrong_output_kind", base: "invoice", code: CodeOutputKindMismatch, note: "download into a text output",
		edit: func(c *Capability) { output(c, "invoices_csv").Kind = OutputText }},
	{name: "extract_wrong_output_kind", base: "teller", code: CodeOutputKindMismatch, note: "single extraction into a record_set",
		edit: func(c *Capability) { output(c, "balances").Kind = OutputRecordSet }},
	{name: "missing_postcondition", base: "teller", code: CodeMissingPostcondition, note: "fill without postcondition",
		edit: func(c *Capability) { action(c, "fill-username").Postcondition = nil }},
	{name: "postcondition_always", base: "teller", code: CodePostconditionAlways, note: "postcondition always",
		edit: func(c *Capability) { action(c, "sign-in").Postcondition = &Condition{Kind: CondAlways} }},
	{name: "download_postcondition_mismatch", base: "invoice", code: CodePostconditionMismatch, note: "download proven by visible text",
		edit: func(c *Capability) {
			action(c, "download-csv").Postcondition = &Condition{Kind: CondTextVisible, Text: "Exported"}
		}},
	{name: "extract_postcondition_mismatch", base: "teller", code: CodePostconditionMismatch, note: "extraction proven by a visible heading",
		edit: func(c *Capability) {
			action(c, "extract-balances").Postcondition = &Condition{Kind: CondLocatorVisible, LocatorCandidates: []locator.Candidate{candRole("heading", "Accounts")}}
		}},
	{name: "click_output_produced", base: "teller", code: CodePostconditionMismatch, note: "click proven by output_produced",
		edit: func(c *Capability) {
			action(c, "sign-in").Postcondition = &Condition{Kind: CondOutputProduced, Output: "balances"}
		}},
	{name: "native_without_gap", base: "teller", code: CodeNativeGapRequired, note: "native action without native_gap",
		edit: func(c *Capability) {
			m := milestone(c, "read_balances")
			m.Actions = append(m.Actions, Action{ID: "print-statement", Operation: OpNative, Intent: "Print the statement",
				Effect: EffectReadOnly, Confirmation: ConfirmNone})
		}},
	{name: "native_with_locators", base: "teller", code: CodeNativeNotExecutable, note: "native action with locator candidates",
		edit: func(c *Capability) {
			m := milestone(c, "read_balances")
			m.Actions = append(m.Actions, Action{ID: "print-statement", Operation: OpNative, Intent: "Print the statement",
				Effect: EffectReadOnly, Confirmation: ConfirmNone, NativeGap: "Print the statement from the operating-system print dialog",
				LocatorCandidates: []locator.Candidate{candRole("button", "Print")}})
		}},
	{name: "native_gap_on_click", base: "teller", code: CodeUnexpectedField, note: "native_gap on a click",
		edit: func(c *Capability) { action(c, "sign-in").NativeGap = "Accept the certificate prompt" }},

	// Literal safety.
	{name: "credential_in_description", base: "teller", code: CodeCredentialLiteral, note: "password assignment in a description",
		edit: func(c *Capability) { input(c, "username").Description = "Use password=Winter2026! for the demo" }},
	{name: "credential_in_value", base: "mail", code: CodeCredentialLiteral, note: "API token as a literal fill value",
		edit: func(c *Capability) {
			a := action(c, "fill-query")
			a.Input, a.Value = "", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
		}},
	{name: "credential_in_url", base: "invoice", code: CodeCredentialLiteral, note: "access token in the start URL fragment",
		edit: func(c *Capability) { c.Runtime.Start = "http://127.0.0.1:4030/billing#access_token=abc123def456ghi" }},
	{name: "redaction_marker_in_text", base: "teller", code: CodeRedactionMarker, note: "outcome text with the redaction marker",
		edit: func(c *Capability) { c.BusinessOutcomes[0].Detect.VisibleText = "No member " + redact.Marker }},

	// Extraction.
	{name: "extract_mode_unknown", base: "teller", code: CodeUnknownExtractMode, note: "extract mode table",
		edit: func(c *Capability) { action(c, "extract-balances").Extract.Mode = "table" }},
	{name: "text_extract_with_fields", base: "teller", code: CodeExtractFieldsNotAllowed, note: "text extraction with fields",
		edit: func(c *Capability) {
			o := output(c, "balances")
			o.Kind, o.Fields = OutputText, nil
			e := action(c, "extract-balances").Extract
			e.Mode, e.RequiredFields = ExtractText, nil
		}},
	{name: "extract_field_missing", base: "teller", code: CodeExtractFieldMissing, note: "checking not extracted",
		edit: func(c *Capability) {
			e := action(c, "extract-balances").Extract
			e.Fields, e.RequiredFields = e.Fields[:2], e.RequiredFields[:2]
		}},
	{name: "extract_field_extra", base: "teller", code: CodeExtractFieldExtra, note: "overdraft is not an output field",
		edit: func(c *Capability) {
			e := action(c, "extract-balances").Extract
			e.Fields = append(e.Fields, Field{Name: "overdraft", Type: FieldString,
				LocatorCandidates: []locator.Candidate{{Strategy: locator.TestID, TestID: "overdraft"}}})
		}},
	{name: "extract_field_type_mismatch", base: "teller", code: CodeExtractFieldTypeMismatch, note: "savings extracted as number",
		edit: func(c *Capability) { action(c, "extract-balances").Extract.Fields[1].Type = FieldNumber }},
	{name: "extract_field_type_unknown", base: "teller", code: CodeUnknownFieldType, note: "field type money",
		edit: func(c *Capability) { action(c, "extract-balances").Extract.Fields[1].Type = "money" }},
	{name: "read_kind_unknown", base: "teller", code: CodeUnknownReadKind, note: "read html",
		edit: func(c *Capability) { action(c, "extract-balances").Extract.Fields[0].Read = "html" }},
	{name: "attribute_read_without_attribute", base: "teller", code: CodeMissingField, note: "read attribute without attribute",
		edit: func(c *Capability) { action(c, "extract-balances").Extract.Fields[0].Read = ReadAttribute }},
	{name: "list_without_max_records", base: "mail", code: CodeMissingField, note: "list without max_records",
		edit: func(c *Capability) { action(c, "extract-messages").Extract.MaxRecords = 0 }},
	{name: "max_records_too_high", base: "mail", code: CodeMaxRecordsOutOfRange, note: "max_records 5000",
		edit: func(c *Capability) { action(c, "extract-messages").Extract.MaxRecords = 5000 }},
	{name: "max_records_on_single", base: "teller", code: CodeUnexpectedField, note: "max_records on a single extraction",
		edit: func(c *Capability) { action(c, "extract-balances").Extract.MaxRecords = 10 }},
	{name: "limit_input_not_positive", base: "mail", code: CodeInvalidLimitInput, note: "limit input without minimum >= 1",
		edit: func(c *Capability) { input(c, "max_results").Minimum = nil }},
	{name: "required_field_unknown", base: "teller", code: CodeUnknownFieldRef, note: "required field overdraft",
		edit: func(c *Capability) {
			e := action(c, "extract-balances").Extract
			e.RequiredFields = append(e.RequiredFields, "overdraft")
		}},
	{name: "dedupe_key_twice", base: "mail", code: CodeDuplicateFieldRef, note: "dedupe key sender twice",
		edit: func(c *Capability) { action(c, "extract-messages").Extract.DedupeKeys[1] = "sender" }},
	{name: "field_locator_null", base: "teller", code: CodeFieldLocatorMissing, note: "field locator_candidates null",
		edit: func(c *Capability) { action(c, "extract-balances").Extract.Fields[0].LocatorCandidates = nil }},
	{name: "field_locator_absent", base: "teller", code: CodeFieldLocatorMissing, note: "field without the locator_candidates member",
		edit: func(c *Capability) { action(c, "extract-balances").Extract.Fields[0].LocatorCandidates = nil },
		raw: func(d string) string {
			return replaceOnce(d, `"type": "string",`+"\n"+`                "locator_candidates": null`, `"type": "string"`)
		}},
	{name: "field_repeats_action_root", base: "teller", code: CodeFieldRepeatsActionRoot, note: "field locator equals the root role main",
		edit: func(c *Capability) {
			action(c, "extract-balances").Extract.Fields[0].LocatorCandidates = []locator.Candidate{{Strategy: locator.Role, Role: "main"}}
		}},

	// Business outcomes.
	{name: "outcome_duplicate", base: "teller", code: CodeDuplicateOutcome, note: "member_not_found twice",
		edit: func(c *Capability) { c.BusinessOutcomes[1].Code = c.BusinessOutcomes[0].Code }},
	{name: "outcome_without_detect", base: "teller", code: CodeOutcomeWithoutDetect, note: "outcome without detect rules",
		edit: func(c *Capability) { c.BusinessOutcomes[1].Detect = OutcomeDetect{} }},
	{name: "outcome_bad_url_pattern", base: "teller", code: CodeInvalidURLPattern, note: "url_pattern does not compile",
		edit: func(c *Capability) { c.BusinessOutcomes[1].Detect.URLPattern = `/members/(\d+` }},
	{name: "outcome_code_pattern", base: "teller", code: CodeInvalidName, note: "camelCase outcome code",
		edit: func(c *Capability) { c.BusinessOutcomes[0].Code = "memberNotFound" }},
	{name: "outcome_reserved", base: "teller", code: CodeReservedID, note: "outcome code completed",
		edit: func(c *Capability) { c.BusinessOutcomes[0].Code = TerminalCompleted }},
	{name: "press_unknown_key", base: "mail", code: CodeInvalidKey, note: "press key Return is not a key name (Enter is)",
		edit: func(c *Capability) { action(c, "submit-query").Key = "Return" }},
	{name: "url_pattern_template", base: "teller", code: CodeTemplateNotSubstituted, note: "url_pattern holds {{member_query}}, which is never substituted",
		edit: func(c *Capability) { c.BusinessOutcomes[1].Detect.URLPattern = `^/members/{{member_query}}$` }},
	{name: "secret_enum", base: "teller", code: CodeSecretEnum, note: "a secret enum input",
		edit: func(c *Capability) {
			in := &c.Inputs[0]
			in.Secret, in.Type, in.Values, in.MaxLength = true, InputEnum, []string{"north", "south"}, 0
		}},

	// Characters (FORMAT.md 1.4) and the partial redaction marker.
	{name: "nul_in_name", base: "teller", code: CodeControlCharacter, note: "the capability name holds an escaped NUL (\\u0000)",
		raw: func(doc string) string {
			return strings.Replace(doc, `"name": "Get member savings and checking balances"`, `"name": "Get member savings\u0000 and checking balances"`, 1)
		}},
	{name: "nul_in_label", base: "teller", code: CodeControlCharacter, note: "a locator label ends in an escaped NUL",
		edit: func(c *Capability) { action(c, "fill-member-id").LocatorCandidates[0].Label += "\x00" }},
	{name: "c1_control_in_goal", base: "teller", code: CodeControlCharacter, note: "NEL (U+0085) in the goal",
		edit: func(c *Capability) { c.Goal += "\u0085" }},
	{name: "bidi_override_in_name", base: "teller", code: CodeBidiControl, note: "a right-to-left override (U+202E) in a locator name",
		edit: func(c *Capability) { action(c, "fill-member-id").LocatorCandidates[0].Label = "Member \u202eDI" }},
	{name: "bidi_isolate_in_intent", base: "teller", code: CodeBidiControl, note: "a first-strong isolate (U+2068) in an intent",
		edit: func(c *Capability) { action(c, "fill-member-id").Intent = "Type \u2068the\u2069 member ID" }},
	{name: "zero_width_only_label", base: "teller", code: locator.CodeMissingValue, note: "a label of zero-width characters only is blank",
		edit: func(c *Capability) { action(c, "fill-member-id").LocatorCandidates[0].Label = "\u200b\u200d\ufeff" }},
	{name: "zero_width_only_name", base: "teller", code: CodeRequired, note: "a capability name of a zero-width space and a space is blank",
		edit: func(c *Capability) { c.Name = "\u200b " }},
	{name: "redaction_marker_partial", base: "teller", code: CodeRedactionMarker, note: "outcome text with the marker's opening bracket only",
		edit: func(c *Capability) { c.BusinessOutcomes[0].Detect.VisibleText = "No member \u27e6redacted" }},
	{name: "redaction_marker_embedded", base: "teller", code: CodeRedactionMarker, note: "the marker inside a word of the goal",
		edit: func(c *Capability) { c.Goal += " x" + redact.Marker + "y" }},
	{name: "locator_redaction_marker_partial", base: "teller", code: locator.CodeRedactedMarker, note: "a label with the marker's closing bracket only",
		edit: func(c *Capability) { action(c, "fill-member-id").LocatorCandidates[0].Label = "Member redacted\u27e7" }},
}
