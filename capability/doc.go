// Package capability is the typed model of browser-capability/v1: a
// reviewable JSON instruction package for one business process on one site.
//
// Use [Parse] to read a document strictly, [Capability.Validate] to get every
// contract problem at once as an [ErrorList], [Capability.ValidateForExecution]
// before running it, and [Capability.ExecutionHash] for the hash receipts and
// bundles pin. [JSONSchema] describes the document's shape for other tools.
//
// # Semantics
//
// A run starts at runtime.start (navigate there; a path resolves against the
// first allowed origin), then visits milestones. The first milestone in
// document order is the start milestone. A visit runs the milestone's
// actions in order, then evaluates its transitions in order, waiting up to
// runtime.transition_timeout_ms for the first whose condition holds, and
// goes to its target: a milestone id or "completed". A milestone without
// transitions continues with the next milestone in document order, and the
// last one continues to "completed". A milestone with transitions goes only
// where they say; when none of them is "always" and none holds, the run
// fails there. A milestone may be visited at most max_visits times (default
// 1); a milestone on a cycle must declare max_visits, which bounds the
// cycle. Actions of a list extraction that runs on several visits
// (pagination) append to the same record_set.
//
// After every action and every transition the runtime checks the business
// outcomes in order; the first whose detect rules all hold ends the run as
// the named legitimate answer.
//
// Templates: "{{name}}" in a navigate url or runtime.start (fragment only),
// a query entry's value, a fill/select value, a locator value, a condition's text or value, or an
// outcome's visible text refers to a declared input. Paths and origins are
// fixed. A template may name an encoding ([TemplateEncoding]):
// "{{name|json}}" inserts one JSON value, "{{name|url}}" one URL
// component. In a fill or select value that is a JSON or URL literal an
// unencoded template is refused (template_encoding_required) and an
// encoding that cannot keep the literal well formed too
// (template_encoding_context): an input must never change the shape of
// the text it lands in. The encoding is part of the text, so the
// execution hash covers it. [Capability.ApprovalInputs] is the one rule
// for what an approver of a consequential action is shown.
//
// # Invariants
//
//   - Parsing is strict: unknown fields (member names match exactly, case
//     included), duplicate keys, values of the wrong JSON type, invalid
//     UTF-8, lone surrogates and trailing data are errors; documents are
//     bounded by [MaxDocumentBytes]. Every parse error is a *[ParseError]
//     with a stable Code.
//   - Validation never stops at the first problem: it returns every problem
//     with a JSON path (milestones[1].actions[0].locator_candidates[2]), a
//     stable code (the Code constants and the codes of package locator, see
//     [Codes]) and a message, sorted by document order of the path, then
//     code. It is deterministic and never echoes credential-shaped values or
//     the redaction marker.
//   - Validate only reads the document and starts no goroutine (a
//     500-action capability validates in a few milliseconds; see
//     BenchmarkValidate500Actions).
//   - The execution hash is RFC 8785 canonical JSON without "state" and
//     "validation": promotion never changes it, any executable change does.
//   - Risk is derived (any consequential action), never declared.
//   - A capability holds references, never values: no credentials, cookies,
//     session URLs or query strings.
//
// # Rules
//
// Field rules (required members, lengths, enums, id/name/semver/digest/
// origin/timestamp patterns, numeric bounds) are declared as validate tags
// on the types and checked with go-playground/validator; everything else is
// hand-written. The bounds are exported constants ([MaxActionTimeoutMS],
// [MaxVisitsCeiling], [MaxRecordsCeiling], ...).
//
//   - Identity: schema is [SchemaV1]; id matches [IDPattern] (at most
//     [MaxIDLen] bytes); version is Semantic Versioning 2.0.0; name and goal
//     are non-blank and bounded.
//   - States: scaffold may have no provenance; draft needs provenance with
//     a valid discovery_hash; authored needs a hand_authored provenance
//     (author, reason, a review with reviewer, reviewed_at and
//     authoring_approved true, and no discovery member at all: no
//     discovery_hash, model, run id, mode, record_hash or review_hash);
//     discovered also needs discovery_model,
//     discovery_run_id and a review (reviewer, RFC 3339 reviewed_at,
//     record_hash equal to discovery_hash, authoring_approved true);
//     validated_local also needs validation metadata (exactly two distinct
//     receipt digests in ascending order, as receipt.Finalize writes them
//     and bundle verification requires; a live execution_mode; RFC 3339
//     finalized_at).
//     Validation metadata below validated_local is an error.
//   - Execution ([Capability.ValidateForExecution] only): scaffold and
//     draft never run; authored, discovered and validated_local do, risky
//     or not.
//   - Origins (allowed and subresource): scheme://host[:port], nothing else,
//     lowercase host, no default port, no duplicates; HTTPS for every
//     non-loopback host, HTTP only as http://127.0.0.1:<port>,
//     http://localhost:<port> or http://[::1]:<port> ([CheckOrigin]).
//   - Navigation targets (runtime.start, navigate url): a path "/x" or an
//     absolute URL on an allowed origin; no query, no user information, no
//     protocol-relative form; templates only in the fragment.
//   - Query entries (runtime.start_query, a navigate action's query; no
//     other action has one): at most [MaxQueryEntries], ordered; each name
//     non-blank, fixed (no template), free of control characters, unique
//     in its target ([CodeDuplicateQueryName]) and not a
//     credential-carrying parameter name ([CodeCredentialQueryName]); each
//     value a public literal whose templates name declared non-secret
//     inputs.
//   - Runtime: at most [MaxFrameSelectors] non-blank frame selectors;
//     timeouts and max_actions within their documented bounds.
//   - Frame paths: runtime.frame_selectors or per-milestone
//     frame_selectors, never both ([CodeFramePathMixed]); a milestone's
//     path has the runtime path's limits (at most [MaxFrameSelectors]
//     non-blank selectors of at most [MaxFrameSelectorLen] bytes, no
//     templates).
//   - Authority and privacy: no action more severe than max_effect; data
//     classes match [NamePattern] and are unique.
//   - Inputs: typed; unique [NamePattern] names; enum inputs list unique
//     values (and only they do); bounds only on numeric inputs and
//     max_length only on strings; defaults type-check, never on required or
//     secret inputs; every template, action input and limit_input names a
//     declared input and every input is used; a secret input is used only
//     as the input of a fill (never in a template, a select, a check or a
//     limit), so it cannot leak into URLs, locators or receipts.
//   - Outputs: unique names; record kinds declare fields (unique, typed),
//     text and download_set do not; download sets are artifact_only; every
//     output is produced by an extract or download; a required
//     non-collection output is produced on every path from the first
//     milestone to "completed" (a forward must-analysis over the milestone
//     graph; cycles are ordinary edges; failing paths do not count).
//   - Milestones and transitions: unique ids (not "completed", "native_gap"
//     or "failed"); actions or transitions or both; targets exist; every
//     milestone is reachable from the first and "completed" is reachable;
//     every milestone on a cycle (a strongly connected component of two or
//     more, or a self loop) declares max_visits (1..[MaxVisitsCeiling]);
//     "always" only as the last transition; download_completed only in a
//     milestone with a download.
//   - Conditions: each kind sets exactly what it uses (locator_visible and
//     locator_hidden: locator_candidates; text_visible: text; url_includes
//     and url_path: value, url_path a query- and fragment-free path, and
//     optionally scope, "page" or "frame", "frame" only in a milestone
//     with a frame path, runtime-wide or its own ([CodeFrameScope]);
//     output_produced: a declared output; always and download_completed:
//     nothing).
//   - Actions: ids unique across the capability; consequential actions
//     require action_time confirmation, every other effect "none"; each
//     operation sets exactly its members (navigate: url; click, check,
//     uncheck: locators; fill and select: locators and exactly one of input
//     and value; press: locators and key; download: locators and a
//     download_set output; extract: locators, output and extract; wait:
//     only a postcondition); every action but native declares a
//     postcondition, never "always"; a download is proven by
//     download_completed and an extraction by output_produced of its own
//     output, and only they may use those kinds; a native action carries
//     native_gap text and nothing executable.
//   - Locators, through package locator: role, then label, placeholder,
//     test id and bounded text, CSS only as a later fallback; no
//     coordinates; at most [locator.MaxCandidates]; never the redaction
//     marker. CSS alone is allowed only for a locator_visible transition
//     marker and a list-extraction root (both scoped with ":visible"),
//     for extraction fields inside the resolved root, and for an action
//     that declares css_only_reason (non-blank, at most
//     [MaxCSSOnlyReasonRunes] runes, no control characters; only when
//     every candidate is CSS; never on a consequential action).
//   - Literals: every string of the document is scanned for
//     credential-shaped content (tokens, keys, passwords, credentials in
//     URLs) and for the redaction marker.
//   - Characters (decided for issue 14, FORMAT.md 1.4 "Text"): no string
//     holds a forbidden control (C0 but TAB, LF and CR, so an escaped NUL
//     "\u0000" too; DEL; C1; U+2028, U+2029: control_character, the same
//     set a bundle refuses, so a valid capability never fails the bundle's
//     control rule) or a bidirectional formatting control (U+202A to
//     U+202E, U+2066 to U+2069: bidi_control, since it reorders what a
//     reviewer reads). A value of white space and zero-width characters
//     only (U+200B to U+200D, U+2060, U+FEFF) is blank wherever a value
//     must not be blank; zero-width characters inside other text stay
//     allowed (emoji, some scripts). Either bracket of the redaction
//     marker (U+27E6, U+27E7) anywhere is the marker, so a partial marker
//     ("⟦redact", "redacted⟧") or the marker inside a word is refused like
//     the whole one; the word "redacted" alone is text. The classes live in
//     internal/textrule, the timestamp grammar in internal/timestamp.
//   - Extraction: text mode fills a text output and has no fields; single
//     fills a record; list fills a record_set and needs max_records
//     (1..[MaxRecordsCeiling]), which single and text must not set; fields
//     match the output's fields exactly (missing and extra reported
//     separately, types equal); read text, value or attribute (attribute
//     names it); limit_input (list only) is an integer input with minimum
//     >= 1; required_fields and dedupe_keys (list only) name unique
//     extracted fields; every field writes locator_candidates, [] to read
//     the root; no field repeats a root candidate.
//   - Business outcomes: unique [NamePattern] codes, at least one detect
//     rule, url_pattern a Go regular expression.
//
// # Decisions
//
// Where the contract is silent:
//
//   - Codes are typed ([Code]) for validation and parse problems alike
//     (one set of rule names, one type). Package locator's codes stay
//     untyped constants on purpose: capability reports them unchanged in
//     [Error.Code], and an untyped constant compares with a Code without
//     a conversion (e.Code == locator.CodeOrder). The id and name rules
//     live in internal/ident, shared with discovery, convert and receipt;
//     they are [IDPattern] and [NamePattern] here, not functions to call.
//   - Validate is about the document; whether it may run is
//     ValidateForExecution. Only authored, discovered and validated_local
//     run ([State.Executable]): a scaffold has no review behind it and a
//     draft's record is unreviewed. A risky scaffold or draft is reported
//     with the more specific risky_below_discovered. FORMAT once said a
//     scaffold runs while it has no consequential action; the code never
//     allowed it and the format now says so: the honest path for a
//     hand-written capability is state authored, not a scaffold.
//   - Hand-written capabilities never fake a discovery record. They are
//     state authored with provenance kind hand_authored: who wrote it
//     (author), why there is no record (reason) and a review of the
//     document itself (no record_hash: the execution hash already pins the
//     document, provenance included). State and kind must agree: authored
//     is hand_authored, draft and discovered are discovery; scaffold and
//     validated_local may be either, so promotion keeps the provenance
//     honest. authored sits below discovered in [States] (a person's
//     reading of the site is weaker evidence than a recorded, reviewed
//     observation) but both are promoted directly to validated_local by
//     the same two clean live runs; neither becomes the other.
//   - An authored capability may hold consequential actions and run them:
//     the runtime's action-time approval gate applies to every
//     consequential action in every state, so a hand-authored one still
//     stops for approval. A review is required either way.
//   - css_only_reason exists so a target without a semantic handle (a
//     value in <dd id="saldo">) is declared honestly instead of behind a
//     decoy semantic candidate that never matches uniquely. It is not
//     allowed on a consequential action (the approver must recognise the
//     target) and is hashed like every member. Decoys that slip through
//     are refused by receipt.Finalize from the receipts' locator_matches.
//   - A list extraction root may be CSS alone when scoped with ":visible",
//     like a structural transition marker and for the same reason: retained
//     hidden rows of a single-page app must not count. Single and text
//     roots need a semantic candidate first. Postconditions, locator_hidden
//     conditions and outcome locators follow the interactive rule.
//   - An extraction is proven only by output_produced of its own output (an
//     omitted output name means the action's own): a visible state proves
//     less than the structured output itself.
//   - A field's locator_candidates distinguishes absent or null (an error)
//     from [] (read the root) through nil versus empty slices, which
//     encoding/json preserves; programs write []locator.Candidate{} to read
//     the root.
//   - Names (inputs, outputs, fields, outcome codes, data classes) are
//     snake_case ([NamePattern]): they become JSON keys and template
//     references; ids may also use dots and hyphens ([IDPattern]).
//   - Scoped candidates (locator.Candidate.Scope) nest one level only; the
//     inner strategy decides the semantic-first rule, so a role candidate
//     in a CSS container is semantic. A detect scope (OutcomeDetect.Scope)
//     is one unscoped candidate and needs visible_text or
//     locator_candidates to search in it; after_action names any action.
//   - Expectations ([Expectation]) sit on text outputs and on record
//     fields (a record output has none of its own); each rule must fit the
//     field type (pattern for string and date, minimum and maximum for
//     integer and number); the pattern is RE2 and unanchored; equals_input
//     is a use of the input (a secret one is secret_input_exposed);
//     outcome names a declared business outcome.
//   - json_pointer is RFC 6901 starting with "/": the whole JSON document
//     is already the text, so "" means no pointer; never with read: value.
//   - An origin written with its default port (https://x:443) is malformed:
//     browsers serialise origins without it, so it would never match.
//   - validation.execution_mode accepts live_connected_chrome and
//     live_launched_browser; simulated and unverified runs never validate.
//   - A required collection output needs no path analysis: an empty set is
//     a valid no-result answer.
//   - Timeouts and limits of zero mean "the runtime default".
//   - Queries follow seed 002's URL model: a query-free base plus ordered
//     entries, each a public literal or an input template, percent-encoded
//     by the runtime as RFC 3986 components (space %20, never '+'), which
//     every form and RFC 3986 decoder reads alike and browsers keep byte
//     for byte. Raw query strings stay forbidden ([CodeURLQuery]): a
//     reviewer reads names and templates, not an encoded string. Duplicate
//     names are refused because servers disagree on which value counts.
//     Entry names that carry credentials (token, session_id, sig, ...) are
//     refused even with a template value: a capability holds no
//     credentials.
//   - A frame-scoped URL condition names the frame its milestone already
//     selects (scope "frame") rather than a selector of its own: a
//     milestone acts in one frame, and the condition reads the URL of
//     exactly the document its locators act in.
//   - Frame paths per milestone: one capability may act in the top-level
//     page in some milestones (a web component, a search) and in a
//     cross-origin frame in others (a paginated list), so a milestone may
//     declare frame_selectors. Everything the milestone does uses that
//     path ([Capability.FramePath]): its actions' locators, its
//     postconditions and transitions (scope "frame" reads that frame's
//     URL), its extraction, the known-dialog check and the business
//     outcomes detected while it runs; a milestone without one acts in
//     the top-level document. The runtime-wide and the per-milestone
//     forms are never mixed ([CodeFramePathMixed]): with the runtime-wide
//     path an absent milestone member would mean "that frame", without
//     it "the top-level document", and a reader could not tell which from
//     the milestone alone. The path is part of the execution hash like
//     every executable member. Receipts record no frame path (actions
//     are recorded by id and the capability's execution hash binds the
//     path), so the verifier has nothing extra to check.
//   - Bounds documented in bytes (URLs, query entries, frame selectors,
//     attribute names, JSON pointers, URL patterns; see limits.go) count
//     UTF-8 bytes. The struct tags' max counts runes, so byteBounds
//     (bytebounds.go) reports a value within its bound in runes but over
//     it in bytes, with the code the tag would give (too_long, or
//     invalid_frame_selector); a value over the bound in runes is
//     reported by the tag alone, never twice. The JSON Schema's maxLength
//     counts code points and stays the looser, rune bound.
//   - Secrets (issue 17, seed 002; FORMAT 3.2.4). A capability declares
//     environment-backed secrets (secrets[]: name, env, description) and
//     refers to them; it never holds a value. An input refers with
//     secret_ref (a secret string input, neither required nor defaulted:
//     the host never supplies it), so the existing secret-input rules
//     (fill only, never templated, never hashed) carry over unchanged
//     instead of a second, parallel set of rules for a fill "secret"
//     member. Seeded values refer with {"secret_ref": name} (not "secret":
//     bundle verification's credential_field rule reads a string member
//     named "secret" as a credential, and one name for one reference reads
//     better anyway). Undeclared and
//     unused secrets are refused, as inputs are. Env names are POSIX
//     upper-case names; variables that configure the process (PATH, HOME,
//     LD_*, VERA_* ... [ReservedEnv]) are refused in every document,
//     because reading one would disclose the host's setup. Which names a
//     run may read is the host's list, not the document's:
//     [Capability.CheckSecretEnv] reports secret_env_not_allowed against
//     it, and that code is outside [Codes] because no file can carry the
//     list (so it has no corpus case or conformance vector). Durable
//     results carry [SecretReference] ("[secret:NAME]") in place of a
//     value; the runtime does the replacing.
//   - Seeded state (seed: cookies, local_storage, session_storage). Values
//     are an explicit {"public": "..."} or {"secret_ref": name}, never a bare
//     string, so a reviewer sees which values are private. Public is a
//     *string: an empty literal is a value, an absent one is not. Every
//     origin is exactly an allowed origin (origin_not_allowed, the code a
//     navigation target out of scope gets). Cookies are host-only session
//     cookies, Secure exactly on https origins, SameSite lax or strict
//     ("none" would send them cross-site): a domain cookie would widen
//     the scope to every subdomain and an expiry would outlive the run's
//     context. A public literal for a credential-named cookie or key
//     (session, sid, token, auth, ... the query rule's names) is refused
//     (seed_credential_literal): a capability holds no credentials, not
//     even one a reviewer might think is public. Limits: 32 cookies, 64
//     entries per storage kind, 4096 bytes for a public value (a cookie's
//     name and value together, RFC 6265's minimum a browser keeps), 256
//     for a cookie name, 1024 for a storage key, 16 secrets.
package capability
