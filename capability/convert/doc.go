// Package convert imports capabilities written elsewhere as drafts that
// still need review: seed 004 artifacts ([FromSeed004]) and Chrome DevTools
// Recorder user flows ([FromRecorder]). [Diff] renders what a reviewer
// changed between an imported draft and the edited capability, for the
// promotion flow.
//
// It is a package of its own, not part of capability, because it reads
// foreign formats with their own vocabularies and mapping policy; package
// capability stays the one model of browser-capability/v1 and never learns
// another format. convert depends on capability and never the reverse.
//
// # What an import returns
//
// A *capability.Capability that passed [capability.Capability.Validate], a
// *[Report], or an error: [SourceErrors] (matches [ErrInvalidSource]) with
// every problem of a source the importer refuses, or a *[DraftError]
// (matches [ErrInvalidDraft] and capability.ErrInvalid) when the mapping is
// not a valid capability (a template in a URL path, a CSS-only locator).
//
// # Invariants
//
//   - Parsing is strict: one JSON value, no duplicate member at any depth,
//     no unknown member (names match exactly, case included), every value
//     of its member's JSON type, every required member present, at most
//     [MaxSourceBytes]. The seed's locator union is strict on strategy: a
//     member of another strategy is an unknown member.
//   - Nothing is dropped silently. Every leaf value of the source is
//     covered by a report entry (its own or an ancestor's) saying whether
//     it was Mapped (with its target path), Derived into something, Weakened
//     into an implied weaker condition, or Unmapped (with the reason). A
//     leaf no rule handled gets an Unhandled entry instead of vanishing;
//     the tests prove no member of either format is unhandled.
//   - The import never claims a state it did not earn: the result is a
//     scaffold, or a draft when [WithDiscoveryHash] names the discovery
//     record it came from. Neither is executable. A source's own
//     "reviewed: true" is reported, never carried: it is not an operator
//     review of a discovery record.
//   - A value typed into a password field is never a literal of the
//     capability, the report or an error message: it becomes a secret
//     input (Recorder), or the import refuses it (a seed literal).
//
// # Seed 004 mapping
//
//   - id, version (semver), name, goal map to themselves; targetApp to
//     site.name; risk safe to authority.max_effect read_only with every
//     action read_only, risk risky to max_effect consequential with every
//     click, press and select consequential and confirmed at action time
//     (the safe over-approximation; the report asks the reviewer to narrow
//     it). reviewed and createdAt are Unmapped; discoveryModel and
//     discoveryRunId go to provenance with [WithDiscoveryHash], else they
//     are Unmapped (provenance needs the record hash, and inventing one
//     would claim a record).
//   - Inputs keep type, required, description and enum values; camelCase
//     names become snake_case (tellerUsername -> teller_username) and every
//     {{placeholder}} follows. An input whose name says credential
//     (password, passcode, secret, token, pin, otp) or that is typed into a
//     password field is secret.
//   - Outputs become text outputs, artifact_only until a reviewer widens
//     them, required; a number or boolean type is Unmapped (text is
//     uncoerced). Every output must be filled by an extract step.
//   - Steps: the first must navigate to an absolute URL (its origin and
//     every other absolute navigate origin are the allowed origins; its
//     path is runtime.start). A navigate step after the first starts a new
//     milestone, and a step with its own checkpoint ends one. Actions are
//     step-N (N the step's 1-based position); type is fill, the others keep
//     their name; the target's primary then its fallbacks in recorded order
//     are the locator candidates, the robustness note is the primary's
//     note, or, for a target with CSS locators only, the action's
//     css_only_reason (the capability's honest declaration of a target
//     with no semantic handle); timeoutMs is timeout_ms.
//   - Postconditions: a step's checkpoint; else navigate is proven by the
//     URL including its path, fill/select by the field staying visible,
//     extract by output_produced, a wait by its target; a click or press
//     without a checkpoint by the next step's element being visible, or,
//     last in the flow or before a navigate, by the artifact checkpoint.
//     A wait with neither target nor checkpoint is a sleep and refused.
//   - A checkpoint is every one of its conditions: visibleText is
//     text_visible, requiredElement is locator_visible, urlPattern is
//     url_path when it is an anchored literal path, else url_includes of its
//     longest literal run (Weakened: implied, not equivalent), else
//     Unmapped. The artifact checkpoint is the final milestone "checkpoint",
//     one wait action per condition; a step's extra conditions follow the
//     step as wait actions step-N-check-K.
//   - businessOutcomes keep code (snake_case), description and detect
//     (visibleText, urlPattern as a Go regular expression over path and
//     fragment, requiredElement as locator candidates).
//   - privacy.data_classes is empty; the report's Review list says so.
//
// # Recorder mapping
//
//   - title is the name and (for the reviewer to rewrite) the goal; the id
//     is the title in lowercase words joined by hyphens; the version is
//     0.1.0; timeout is runtime.action_timeout_ms; selectorAttribute is
//     kept Unmapped. Every action is read_only: a recording has no risk,
//     and the Review list says so. A recording reads nothing, so there are
//     no outputs.
//   - Step members are checked per type against @puppeteer/replay's
//     Schema.ts: a member of another type is unknown, a required one
//     (offsetX of a click, value of a change, every setViewport member) is
//     missing. target must be "main" (a popup is refused).
//   - navigate: the first is runtime.start and fixes site.name; every
//     origin is allowed. click: a click (offsets, duration and device are
//     Unmapped: coordinates are never recorded; a non-primary button is
//     refused); doubleClick is Weakened to one click. change: a fill whose
//     value becomes a required string input named after the field's ARIA
//     name (search_mail); typed into a password field (type=password or a
//     name that says password) the input is secret and the value is kept
//     nowhere, else the report keeps it as an example and later asserted
//     URLs use the input's template. keyDown followed by keyUp of the same
//     key is one press on the element of the last click or change (a held
//     key or chord is refused). waitForElement is a wait on
//     locator_visible (count 1, or at least n, which is Weakened) or
//     locator_hidden (count 0); properties and attributes are Unmapped.
//     setViewport, scroll, hover, close, emulateNetworkConditions and
//     waitForExpression are Unmapped (page JavaScript never runs);
//     customStep is refused.
//   - Selectors, in recorded order within each strategy, then by the
//     candidate preference order: aria/Name[role="r"] is a role candidate,
//     aria/Name without a role a label candidate (exact), text/ a text
//     candidate, a plain selector a CSS fallback; xpath/, pierce/ and
//     shadow-root paths (arrays of more than one selector) are Unmapped, as
//     are duplicates and invalid candidates.
//   - assertedEvents navigation url is the step's postcondition:
//     url_includes of its path and fragment; title is Unmapped. A click or
//     press without one is proven by the next wait's condition or the next
//     step's element, else refused.
//   - frame: every step with selectors acts in one frame (the capability
//     selects one frame for the run); frame index i is
//     iframe:nth-of-type(i+1) in runtime.frame_selectors (Derived: equal to
//     the recorded frame when the frames are siblings).
//
// # Review
//
// [Diff] returns the go-cmp diff and every changed leaf with its path, so
// the promotion flow shows exactly what a reviewer changed (state,
// provenance and review, exposures, data classes). [Accept] is that
// promotion step: an import has no discovery record, so the reviewed edit
// becomes an authored capability with a hand_authored provenance (the
// reviewer as author, their reason, authoring approved), never a
// discovered one with an invented record; validated_local still takes two
// clean live runs.
//
// # Decisions
//
//   - An import that would need a guess to run (a relative first URL, a
//     query string in a navigation target, a literal password) is refused
//     with a clear code rather than mapped loosely.
//   - Templates in a navigate path are kept and then refused by the
//     capability's rule (only fragments carry templates): the DraftError
//     shows the reviewer exactly which rule.
package convert
