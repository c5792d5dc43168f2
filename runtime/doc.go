// Package runtime executes browser capabilities: [Execute] runs one
// capability with typed inputs through a [Driver] and returns a typed
// [Result], writing the run's evidence (outputs.json, run.receipt.json,
// run.lock.json and, after a recovery proposal, recovery.proposals.json)
// into a fresh owner-only run directory. [Preflight] opens a driver and
// reports what it is.
//
// The [Driver] is small and mechanical; every policy lives here: locator
// order, origin and frame checks, postconditions, branches, business
// outcomes, approvals, unknown modals, recovery, handoff and receipts.
//
// # Invariants
//
//   - Refusals come first. A scaffold or draft ([ErrNotExecutable]), an
//     invalid capability ([ErrInvalidCapability]), an invalid recovery
//     proposal ([ErrInvalidProposal]), missing, unknown or mistyped inputs
//     ([ErrInputs], listing every problem), a missing driver
//     ([ErrNoDriver]), a driver with another Execute in flight
//     ([ErrDriverBusy]) and a run folder that cannot take the evidence
//     ([ErrRunDir]: Git work tree, symbolic link, not a directory,
//     permission, reservation, probe write) are refused before any driver
//     call, with no evidence and nothing left behind.
//   - Validation cannot be skipped: every Execute runs
//     capability.ValidateForExecution before anything else, and each rule
//     about what may run (known effects, the confirmation mode each effect
//     requires, effects within the authority ceiling, origins, URLs and
//     query entries on allowed origins, templates naming declared inputs,
//     frame paths, condition shapes and scopes, outcome patterns) exists
//     once, in package capability. The executor keeps no second copy of
//     those rules: it only derives its plan (normalized origins, compiled
//     outcome patterns) from the validated capability, and its URL
//     building refuses on its own any target that would leave the allowed
//     origins (below). Earlier versions had WithSkipValidationUnsafe and a
//     precheck that repeated about 250 lines of capability rules; the
//     option is gone; a one-off check (before the removal) over every capability in the repository
//     plus about 90,000 mutations of them found no capability the precheck
//     refused that Validate accepted.
//   - Terminal states are data: completed, business_outcome,
//     stopped_at_gate, blocked_by_unknown_modal, native_gap,
//     recovery_requested and failed (with a receipt category) all return a
//     Result and a nil error. Errors are for misuse, cancellation by the
//     caller and evidence that could not be written.
//   - Nothing private leaves the run: failures carry a category, a reason
//     code from the closed, documented set of [Reasons] (the [Reason]
//     constants and the download reason codes; never a code built at run
//     time) and the SHA-256 of the local detail; the raw detail goes only
//     to the injected logger at debug level (default: discard). Input
//     values are never logged and appear in no evidence file except as
//     extracted values in outputs.json; receipts hash non-secret supplied
//     inputs with receipt.HashInput and mark secret ones present only.
//   - A consequential action is never performed without an approval naming
//     it, obtained at action time from the host's [Approver].
//   - The capability is never modified, recovery included.
//   - Execute starts no goroutine; every wait polls with ctx and returns
//     within one poll interval (at most [MaxPollInterval]) plus one driver
//     call after ctx ends.
//   - Execute never closes the driver: the caller owns it.
//
// # Run semantics
//
// Execute installs the origin scope (Driver.RestrictOrigins with
// site.allowed_origins and site.subresource_origins), navigates to
// runtime.start (a path resolves against the first allowed origin) and
// visits milestones as described in package capability: actions in order,
// then the transitions, then the next milestone. The top-level origin
// must stay allowed.
//
// # The causal barrier
//
// A browser reports what an act caused (a popup, a navigation, a redirect,
// a download, a dialog) after the act returns, often ~100 ms later on a
// loaded machine. So after every navigation and action, and after a
// handoff, the runtime first calls Driver.Settle, which returns once the
// driver has observed and attributed every event the act caused (see
// Driver.Settle; it is event-driven with a quiet window and a hard cap,
// never a sleep), and only then drains Driver.Violations. Violations are
// drained again at every decision point: every poll of a locator,
// postcondition or transition wait, and once more (after one more Settle)
// before the terminal state is written. A navigation, popup or frame
// violation fails the run with origin_not_allowed and its reason
// (navigation_blocked, popup_blocked, frame_blocked), whatever the
// postcondition saw; a violation found only by the last drain replaces a
// completed (or otherwise ended) run's terminal, except a cancellation or
// an origin failure. Every violation, subresource ones included, is
// counted in BlockedRequests, and a run with any is never clean (so it
// never counts for receipt.Finalize). Settle's own deadline is not a
// failure; its other errors are classified like any driver error
// (internal / settle_failed when no sentinel applies). The barrier after
// an action is bounded by the action timeout (at least 5 s): a request
// the act caused, or a navigation it asked for, that still has no
// answer when it ends, or a frame the
// act navigated that the page removed before the new document committed
// ([ErrActPending]), fails the action with ui_assertion_failed /
// postcondition_failed, its postcondition never judged.
//
// # Dispatched consequential actions
//
// Once the input of a consequential click, press, check, uncheck or
// download click has been sent to the page, its effect may have happened.
// The driver says so even when Act then fails, with a *[DispatchError]
// ([ErrAfterDispatch]); the action is recorded dispatched (receipt
// actions[].dispatched, ActionOutcome.Dispatched, Result.EffectDispatched)
// whatever comes after, and a dispatched act is never retried. A
// dispatched act that reports the element or its document stale is the
// page changing under its own input (a submit that navigated): the act
// succeeded and its postcondition decides. Any later failure of that
// action (act error, postcondition, unknown modal, native dialog, crash,
// run timeout) ends the run failed with category effect_unconfirmed and
// reason outcome_unconfirmed_after_effect, and Result.Unconfirmed: a
// distinct failure, never blocked_by_unknown_modal, stopped_at_gate or an
// ordinary failure, so a host knows not to retry blindly. Chosen so:
// terminal state failed keeps the closed state set and every host's
// "did it fail" check intact, while the category is new and unmistakable.
// An origin violation, a frame origin outside the scope and a caller
// cancellation keep their own failure (the record still says dispatched):
// the security reason is the more important fact.
//
// A run with any blocked request is not clean, even when it completed:
// the page reached for something outside the declared scope (a worker's
// WebSocket, a rebinding name, a tracker), so the run is no evidence that
// the scope is what the process needs. List a needed origin in
// site.subresource_origins; an unneeded one keeps the runs from counting
// toward validated_local until the site stops asking for it.
//
// Exceeding a milestone's max_visits (default 1) fails the run with
// limit_exceeded / max_visits_exceeded rather than silently ending a loop;
// runtime.max_actions (default [DefaultMaxActions]) likewise fails with
// max_actions_exceeded.
//
// # Templates
//
// "{{name}}" is replaced by the input's text form: strings and enums as
// given, integers in decimal, numbers in the shortest decimal form without
// exponent, booleans as true/false, dates as YYYY-MM-DD. In a URL fragment
// the value is percent-encoded as JavaScript's encodeURIComponent does; in
// locator values, fill/select values and condition texts it is substituted
// raw. An optional input that was not supplied and has no default
// substitutes the empty string.
//
// A template may name an encoding (capability.TemplateEncoding):
// "{{name|json}}" inserts one JSON value (a quoted, escaped string, a
// number, true/false, null when absent), "{{name|url}}" the value
// percent-encoded as encodeURIComponent. In a URL fragment "{{name|url}}"
// is not encoded twice and "{{name|json}}" is the JSON text, encoded. The
// capability refuses an unencoded template inside a JSON or URL literal,
// so an input cannot add members to a JSON request body it is typed into.
//
// # Inputs
//
// Each supplied value is checked against its declaration: string and enum
// need a Go string (enum: one of the declared values; string: max_length
// in runes, valid UTF-8); integer accepts Go integers, integral floats and
// json.Number literals of integral values within ±(2^53-1); number accepts
// every Go number and json.Number, finite only; both honour minimum and
// maximum; boolean needs a bool; date needs "YYYY-MM-DD" (a valid
// calendar date) or a time.Time. A nil value counts as absent. An
// extraction's limit input must be at least 1. Unsupplied optional inputs
// take their declared default; receipts mark them not present.
//
// # Secrets and seeded state
//
// A capability's declared secrets (capability.Secret; FORMAT 3.2.4) are
// resolved before any driver call, after the inputs: the secrets' env
// names must be on the host's list ([WithAllowedEnv]; none without it, so
// a capability with secrets is refused with code secret_env_not_allowed),
// then every referenced secret is read through [WithEnvLookup] (default
// os.LookupEnv), and only those names are ever looked up. An unset,
// empty, too short (under [MinSecretValueBytes]), too long, non-UTF-8 or
// control-character value, or one a seeded cookie cannot carry, refuses
// the run with a *[SecretError] ([ErrSecretUnavailable]) that names the
// secret and variable, never the value. A host that supplies an input
// with a secret_ref is refused ([InputFromSecret]). A secret_ref input
// then behaves as a supplied secret input: it is filled, shown to an
// approver as [SecretShown], recorded present and secret, never hashed.
//
// Decisions:
//   - One scrubber: every resolved value (and its encodeURIComponent
//     form) is replaced by capability.SecretReference ("[secret:NAME]")
//     in output values (outputs.json, the receipt's output hashes, the
//     model outputs), in failure details before they are hashed or
//     logged, and in every log record (the logger of [WithLogger] is
//     wrapped; attributes and errors are scrubbed). The local cause
//     replaces them with the redaction marker like supplied inputs.
//     Longest value first, so one secret inside another leaves nothing.
//   - Values shorter than 4 bytes are refused rather than scrubbed: the
//     scrubber would rewrite ordinary words, and a 3-byte secret guards
//     nothing. (A value that happens to occur inside "[secret:NAME]"
//     itself, such as "secr", would survive in that reference; such
//     values are not plausible credentials.)
//   - The allowed list is a plain []string option now; the grant of
//     runtime/grant will supply it (its environment names) later.
//
// Seeded state (capability.Seed) is applied by the optional [Seeder]
// driver capability once, after RestrictOrigins and before the start
// navigation, with secret references resolved ([SeedState]). A driver
// without it cannot run such a capability: Execute refuses it with
// [ErrSeedUnsupported] before any driver call (drivers that lack it keep
// working for every other capability). A Seed failure ends the run as
// internal / seed_failed (origin_not_allowed / navigation_blocked when
// the driver refused an origin outside its scope).
//
// # Waits and timeouts
//
// Conditions are polled every [DefaultPollInterval] (see
// [WithPollInterval]). Each wait of an action (resolving its element,
// verifying its postcondition, its download) is bounded separately by the
// action timeout: action.timeout_ms, else runtime.action_timeout_ms, else
// [DefaultActionTimeout], never above [MaxActionTimeout]. Transitions wait
// up to runtime.transition_timeout_ms (default [DefaultTransitionTimeout]).
// The whole run, approvals and handoffs included, is bounded by
// runtime.run_timeout_ms (default [DefaultRunTimeout], ceiling
// [MaxRunTimeout]); reaching it fails the run with run_timeout and a nil
// error.
//
// While a wait is unsatisfied, every poll also checks for unknown modals
// and business outcomes, so a "Session expired" page or an unexpected
// dialog ends the wait at once instead of timing out.
//
// Two optional driver extensions make the waits and checks cheaper
// without changing an answer (issue 21):
//   - [ChangeWaiter]: between two checks of an unmet condition the
//     runtime waits for the driver to report a page change (a DOM
//     mutation, a navigation, a load) instead of sleeping the whole poll
//     interval; the interval still bounds every pause, so a change no
//     event announces is seen as late as without the extension, and two
//     checks are never closer than 5 ms. A driver error falls back to
//     the plain interval.
//   - [BatchFinder]: the checks of one decision point (the modal check
//     for dialogs and alert dialogs in the top-level document and the
//     selected frame; the business outcomes' visible texts, unscoped
//     locators and detect scopes) first ask FindCounts, one look per
//     document, and skip Find for every candidate it rules out (count
//     0). The look holds only for that decision point and that page
//     generation, only for Finds without a root; a failed look leaves
//     every check to ask Find, so the answers are the same as without the
//     extension (TestBatchFinderSameAnswers holds the fake to that).
//     runtimetest.TestDriver checks FindCounts against Find for drivers
//     that have it.
//
// # Cancellation
//
// When the caller's ctx ends (canceled or its own deadline), Execute stops
// within one second, writes the evidence of what ran, and returns both the
// Result (state failed, category canceled) and an error wrapping
// [ErrCanceled] and ctx.Err(): cancellation is the caller's doing, so it
// is reported as an error as well as data.
//
// # Locators and frames
//
// An action's element is the first candidate, in recorded order, that
// matches exactly one element (locator.Resolve); the winning index and the
// reason each earlier candidate lost are recorded. The frame path is the
// running milestone's (capability.Capability.FramePath: the runtime-wide
// runtime.frame_selectors, or the milestone's own frame_selectors, or the
// top-level document); it is set when a milestone visit starts, so that
// milestone's actions, postconditions, transitions, extraction, dialog
// checks and outcome detection all use it, and a change of path drops the
// cached frame resolution. Validation refuses a capability that mixes
// the two forms and a frame-scoped URL condition in a milestone without a
// path. The frame path is resolved, and
// the actual origin of every frame on it checked against
// site.allowed_origins, before locator work,
// before acting and reading, and after every action; an unapproved frame
// fails the run with frame_not_allowed. A frame path that never resolves
// fails with frame_not_allowed / frame_not_found. A missing or unapproved
// frame never satisfies locator_hidden. Navigation and downloads use the
// top-level page, and so do URL conditions unless they declare scope
// "frame": those read the selected frame's own URL through
// Driver.FrameURL (after resolving and origin-checking the frame path as
// for any frame use); a frame that is missing, or whose document is being
// replaced (ErrStaleElement), does not match at that instant and the wait
// goes on.
//
// URLs are built with net/url, never by concatenation (resolveURL): the
// target is parsed (a relative one must start with a literal "/", so
// "%2f@evil.example/login" is refused), scheme and host come from the
// parsed allowed origin, the path from the parsed target, the query from
// the ordered query entries (every name and value encoded as an RFC 3986
// component after substitution: unreserved bytes stay, everything else,
// space included, is %XX, so an input's '&', '=', '#', '+' are inert),
// and the fragment from the target; the result is parsed back and must
// have exactly that origin and query, or the target is refused before
// the browser sees it. A query value that
// templates a secret input, a query on anything but navigate, and a
// condition scope the capability cannot honour, are refused by
// validation. Results and receipts carry no URL.
//
// Conditions: locator_visible holds when some candidate matches a visible
// element (several matches are fine for a state marker; CSS without
// ":visible" is checked with Driver.Visible); locator_hidden when the frame
// resolves and no candidate matches a visible element; text_visible when a
// text candidate (case-insensitive substring) matches a visible element;
// url_includes compares the substituted value with the raw top-level URL
// and with that URL percent-decoded once (skipped when decoding fails or
// yields invalid UTF-8), and the value with its inputs encoded by
// encodeURIComponent and by the query-component encoding with the raw URL
// (so "q={{client}}" matches a query built from entries); url_path compares the URL's path (decoded or
// escaped) for equality; output_produced and download_completed refer to
// the action's output (or the named one).
//
// # Local causes
//
// A failure in evidence is a category, a reason and a hash; a host that
// sees locator_not_found needs to know why. [Result.Cause] (and the
// failed [ActionOutcome]'s Cause) is a local, sanitized explanation, a
// typed [Cause] with a one-line String:
//   - on a locator miss: every candidate tried with the number of
//     elements it matched on the last complete try (a try cut short by the
//     wait's deadline is not reported), the frame path searched, a frame
//     path that did not resolve, and for a named role candidate that
//     matched nothing the nearest accessible names of that role in the
//     searched document with how each differs (whitespace, case, extra or
//     missing text: locator.CompareName), when the driver implements
//     [NearestNamer] (browser.Driver does);
//   - when the element never became interactable: the winning candidate
//     and the failed actionability check with the element's box, the
//     viewport and the covering element, when the driver's error
//     implements [ActionabilityError].
//
// Decisions:
//
//   - A live run needs a grant (runtime/grant, FORMAT section 15). After
//     the run folder is reserved and before the first driver call that
//     acts, Execute asks a live driver (one that reports
//     live_launched_browser or live_connected_chrome; it must implement
//     [Authorized]) for the run's grant: [WithGrant]'s, else the
//     driver's own when it covers this capability's execution hash and
//     allowed origins, else one derived by an auto-grant ceiling. Without
//     one the run is refused with [ErrNotGranted] (wrapping
//     grant.ErrNotGranted or grant.ErrNotCovered) and its empty run
//     folder is removed. A simulated run needs no grant and records none.
//     The receipt records the grant's commitment and digest.
//   - Failure stays receipt.Failure (the receipt's type: package receipt
//     cannot know runtime types), so the cause sits beside it on Result and
//     ActionOutcome, tagged json:"-". It is never written to any evidence
//     file, never hashed, never in a [RecoveryRequest] (which a model may
//     see) and never logged.
//   - Sanitized: candidates appear as the capability wrote them (templates
//     unsubstituted); nearest names are not listed for a name built from
//     inputs (they would echo the value); every supplied input value of at
//     least three characters, identifier- and secret-shaped text in page
//     names and details are replaced by the redaction marker; every text
//     is cut to [MaxCauseTextRunes], at most [MaxCauseNames] names per
//     candidate, String at most [MaxCauseLen] bytes.
//   - The names are asked for only after the wait gave up, bounded by
//     [CauseTimeout], so a passing run pays nothing. Extraction fields get
//     counts, not names (their scope is one record).
//   - A cancellation or run timeout carries no cause: it has its own.
//
// # Unknown modals
//
// Before and after every action, and on every poll of an unsatisfied wait,
// the runtime looks for visible elements with role dialog or alertdialog in
// the top-level document and in the selected frame. A dialog is known when
// a candidate the capability is about to use resolves to the dialog itself
// (handles compared with ==) or to an element inside it. Those candidates
// are: the locators and postconditions of the current and later actions of
// the milestone (after an action: the later ones and the action's own
// locator and postcondition, since a confirmation dialog holding the
// button just clicked, still visible while its submission is in flight,
// is one the capability targets), the milestone's transitions, the actions of the
// milestones its transitions lead to (or of the next milestone when it has
// no transitions), and the business outcomes' detect rules; text
// conditions count as text candidates. A dialog that is not visible any
// more once those candidates were looked for (or whose handle went stale)
// is not unknown: it closed while it was checked, as a confirmation does
// when its submission answers, and it blocks nothing. Any other dialog
// ends the run as blocked_by_unknown_modal (reason unknown_modal) without
// clicking anything. A native JavaScript dialog (Driver error ErrNativeDialog) ends
// it the same way with reason native_dialog; the runtime never accepts or
// dismisses it.
//
// # Business outcomes
//
// After every action and every transition, and whenever a postcondition
// fails, the business outcomes are evaluated in order; the first whose set
// detect rules all hold (visible_text in the selected frame, url_pattern
// against the query-free path and fragment, raw or decoded, and
// locator_candidates visible) ends the run as business_outcome with its
// code. A detect scope limits visible_text and locator_candidates to the
// descendants of the one element it matches (no match or several: the
// rule does not hold; a CSS scope must be visible); after_action makes
// the rule hold only once the named action's operation has run in this
// run (before its postcondition, so the outcome can answer while the
// postcondition waits). Text shown as documentation elsewhere on the page
// then does not fire the outcome.
//
// # Scoped candidates
//
// Drivers never see a scope: Driver.Find refuses a scoped candidate with
// ErrUnsupported. The runtime finds the scope candidate, requires exactly
// one match, and passes that element as Find's root (which covers the
// open shadow roots below it); locator.FindScoped and locator.Resolve
// decide, so actions, fields, conditions, the known-dialog rule and
// outcome locators all resolve scopes the same way.
//
// # Output expectations and JSON pointers
//
// A field with json_pointer reads its text, decodes it as one JSON value
// and takes the pointer's value before coercion (a string unquoted, a
// number in its decimal form, true/false, null as empty); not JSON is
// json_invalid, a missing value json_pointer_missing, an object or array
// json_value_not_scalar (extraction_failed). Once an extract action has
// read, the expectations of its output are checked, before its
// postcondition: every record of a record_set so far, the record, or the
// text. Absent values (nil, "") are left to required_fields. A violation
// never completes: the expectation's outcome ends the run as that
// business outcome, or the run fails with extraction_failed /
// output_expectation_failed (the detail names output, field and rule,
// never the value).
//
// # Approvals (maker/checker)
//
// A consequential action asks the [Approver] at action time, before its
// element is resolved. No approver: stopped_at_gate (approval_refused /
// no_approver) with nothing clicked. Denied: stopped_at_gate
// (approval_refused / denied). An approver error: stopped_at_gate
// (approver_error). An approval naming another action: failed
// (approval_refused / approval_mismatch). Approvals record the requester
// ([WithRequester]) and the approver; equal non-empty identities are
// flagged self_approved, not blocked.
//
// The approver sees what they approve: [ApprovalRequest.Inputs] holds the
// resolved inputs the action uses, decided by one rule in package
// capability ([capability.Capability.ApprovalInputs]): every input that
// the milestone's actions up to and including this one fill, select or
// template (a submit click shows what the fills before it typed), in
// order of first use. Secrets appear only as [SecretShown]. The request
// stays local: the approval record keeps the names shown and
// receipt.ApprovalShownHash of their input hashes, which receipt
// verification rebuilds from the input records.
//
// # Time breakdown
//
// Hooks.ActionDone carries [ActionTiming]: every instant of an action is
// charged to one phase by a phase clock (approval, resolve, act, settle,
// postcondition, evidence; nested waits are charged to the innermost, so
// the field locators of an extraction count as resolve and the barrier
// inside a postcondition wait as settle), so the phases sum to at most
// the action's duration. It is local, for progress bars and benchmarks;
// receipts keep only duration_ms.
//
// # Native gaps
//
// A native action is never executed: the run ends as native_gap with the
// action's description, to be handed to the operator.
//
// # Extraction and coercion
//
// text mode reads the resolved root's rendered text, trimmed. single mode
// reads one record from the uniquely resolved root. list mode takes every
// element of the first candidate with at least one match as record
// containers, read once without waiting (an empty record set is a valid
// answer; establish the results state with a previous postcondition or
// transition). Field locators resolve inside the record container; an
// empty field locator list reads the container itself. A read that
// meets an element the page replaced since it was found (a list that
// re-rendered, a virtualized grid recycling its rows) repeats the whole
// extraction from its locator until one action timeout has passed since
// the first try, then fails stale_element; records are stored only from a
// pass whose every read succeeded.
//
// More containers than max_records on one visit, or more accumulated
// records than max_records, fail the action with extraction_failed /
// max_records_exceeded: never a silent truncation. The limit input caps
// how many records are kept (in page order, after dedupe). Records whose
// dedupe key fields equal an earlier record's (across pagination visits
// too) are dropped. A required field that is absent, null or blank
// (FORMAT.md 1.4: only white space and zero-width characters) fails with
// required_field_empty.
//
// Blank values (FORMAT.md 3.2 "Blank values"). A blank text is no value
// of a required output: the seed contract lets only a record_set be an
// empty required answer, and expectations skip empty values, so a
// skeleton read as "" would complete as a plausible wrong answer. A text
// extraction into a required output that reads blank text, and a single
// extraction that reads a required field blank, wait (readFilled) up to
// one action timeout after the root was found, through waitFor (a page
// change or the poll interval wakes each check; unknown modals and
// business outcomes end the wait as in every wait), re-resolving the root
// from the action's candidates on every check, because pages usually
// replace the placeholder element, and reading again; the first
// non-blank read is kept. Still blank then, the action fails
// extraction_failed / required_field_empty, its detail naming the action
// and output (never the value); the output stays unproduced, so neither
// output_produced nor completion ever sees it. A list extraction does not
// wait (it is read once, as above) and fails at once. A text output that
// is not required may be blank and is produced as "". A blank read is
// not a missing locator and never requests recovery. A field locator that matched in no record of a
// non-empty set is a missing locator (see recovery); one that matched in
// some records leaves the others null.
//
// Nor is a list the page shows only in part (setsize.go). When the driver
// implements [SetDeclarer] (browser.Driver and the fake do), every list
// pass asks it, before any record is stored, what the page declares about
// the sets the record containers belong to: the rows of a grid, table or
// treegrid (aria-rowcount, aria-rowindex), else the items of a list,
// listbox, group, tree or feed (aria-setsize, aria-posinset on rows,
// listitems, options, treeitems and articles). A set is seen whole when
// its declared positions run from 1 to the declared size (or to the last
// position, when no size is declared) with no gap, or, without positions,
// when as many members are present as declared. A size of -1 (unknown,
// an infinite feed) is never whole. Whole means present in the document,
// not read: records that are a subset of a set present whole (a filter)
// are complete, records of a set present in part are not, whatever they
// are. A plain list that declares none of these is read as before, and
// so is every list on a driver without the extension. A set with a
// record container the page marks aria-busy="true" (itself or an
// ancestor: its content is still loading, such as a row that fills its
// cells only once scrolled near and shows "Loading…" until then) is
// never whole, declared or not ([DeclaredSet.Busy]): the records read
// from it are placeholders, not the set's.
// Decisions:
//
//   - A set seen in part fails the action with extraction_failed /
//     records_incomplete, its detail saying how many records were read,
//     the size the page declares and how many members were present, when
//     its milestone cannot be visited again. Otherwise the decision waits
//     for the later visits (pagination: the positions seen on every page
//     are united; without positions, the records kept over all pages,
//     after dedupe, plus the other members of the fullest page, such as
//     its header row, must reach the size), and a run that would complete
//     with the set still seen in part fails records_incomplete instead,
//     naming the extraction (terminal.action).
//   - Either way the extraction failed, so its output is left unproduced
//     (FORMAT.md 3.2 "Outputs of a failed extraction"), as every failed
//     extract action leaves it: the records the pass kept and those the
//     earlier visits added are dropped, never written or returned as if
//     they were the answer.
//   - A limit input that was reached asked for fewer records than the set
//     holds: the set is complete when the members present run from the
//     first position without a gap (no position declared: complete), so
//     a grid scrolled to its middle does not pass its rows for the first
//     ones. A single-mode or text-mode extraction is never checked.
//   - The runtime has no scrolling pagination: it does not scroll a
//     virtualized list to collect its rows. A capability reads one whole
//     by making the page render every member (a page size, a "show all"
//     control, a filter that leaves fewer rows than fit), by reading it
//     page by page through the site's own pagination (a milestone
//     visited again per page, max_visits bounding it), or by a limit
//     input that asks for the first records only. A feed of unknown size
//     can only be read with a limit.
//   - An answer that breaks the [DeclaredSet] contract (a member index
//     out of range or twice, fewer members present than asked about, a
//     size below -1) fails read_failed rather than being decided on; a
//     stale answer repeats the pass like a stale read.
//
// Coercion of the text read (after trimming; an empty text is null for
// every type but string, which keeps ""):
//
//   - string: trimmed.
//   - integer and number: remove currency symbols (Unicode Sc), all spaces
//     (including no-break and thin spaces) and one leading or trailing
//     three-letter upper-case currency code (EUR, USD); a leading "-", "+"
//     or U+2212, a trailing "-", or enclosing parentheses give the sign.
//     The rest must be digits with "." and ",". When both occur, the one
//     that occurs last is the decimal separator (exactly once) and the
//     other groups thousands: "1,234.56" and "1.234,56" are 1234.56. When
//     only one occurs: repeated, it groups ("1.234.567"); once, followed by
//     exactly three digits after a one-to-three-digit lead other than "0",
//     it groups ("1,234" and "1.234" are 1234); otherwise it is the decimal
//     separator ("12,5", "0.125"). Groups after the first must have three
//     digits. integer additionally needs an integral value within
//     ±(2^53-1).
//   - boolean: yes, true, sì, si are true; no, false are false (case
//     insensitive).
//   - date: "2006-01-02", or day/month/year "02/01/2006" (one- or
//     two-digit day and month), always written as "2006-01-02".
//
// # Recovery (two passes)
//
// A locator that never resolves uniquely on a read_only or reversible
// action (or an extraction field) ends a run without a proposal as
// recovery_requested with a [RecoveryRequest]: the unchanged action
// contract, the exact action-or-field target, the top-level origin and
// query- and fragment-free path, the candidates' attempts and the failure
// hash; never an input value. Consequential actions never get recovery:
// they fail with locator_not_found. The host model then calls Execute
// again with [WithRecoveryProposal]: the run starts over from the declared
// start and uses exactly the one proposed candidate for the target (a
// semantic candidate; a CSS candidate only for an extraction field, scoped
// to the resolved record container; use_resolved_action_root only for a
// field, which then reads the container itself). Nothing else changes and
// the capability is not modified. A run with a proposal never requests
// recovery again (another missing locator fails with locator_not_found);
// it is marked LocatorChangesDuringRun and not clean, Recovered when the
// target succeeded, and writes recovery.proposals.json with the proposal
// and its outcome (recovered or failed).
//
// # Handoff
//
// With [WithHandoff], a run stuck on a missing locator, a failed
// postcondition or no transition first hands the live page to a person;
// when they hand it back (nil error) the runtime re-checks once with a
// fresh timeout, then continues or proceeds to its failure or recovery
// request. What the person did is evidence like any act: after the
// handoff the causal barrier runs and the violations are drained, so
// following a link out of the scope ends the run as navigation_blocked,
// counted; the run timeout (or the caller's cancellation) passing during
// the handoff ends it as run_timeout (or canceled), not as the recovery
// request the stuck locator would otherwise give. A run that offered a
// handoff is marked HandedOff and is never clean.
//
// # Downloads
//
// A download action resolves its element, then uses the folder route when
// the driver reports [DownloadDirectory] or [WithDownloadDirectory] is
// given (download.Begin snapshots and locks the folder, the listener is
// armed, the element clicked, the browser's download event is required,
// then download's Watch.Wait verifies exactly one new file), and otherwise
// the browser-path route (arm, click, require the event, then
// download.VerifyPath on the GUID-named file the driver reported). A
// canceled download fails with download_failed / download_canceled; every
// other failure is download_failed with the download package's reason
// code. The receipt records mechanism, evidence, bytes and SHA-256; only
// outputs.json holds the path.
//
// # Outputs and exposure
//
// Result.ModelOutputs holds model_and_artifact values in full and, for
// model_summary, the text itself for a text output or an [OutputSummary]
// (kind, count, field names) for records and record sets.
// artifact_only values and download sets never appear there; their
// counts are in Result.ArtifactOutputs. Required non-collection outputs
// must be produced for a run to complete (else extraction_failed /
// required_output_missing), and a required text is never produced blank
// (see Extraction and coercion).
//
// # Evidence
//
// Every started run writes a browser-run-receipt/v3 receipt (capability id,
// version, execution and discovery hashes, hashed inputs, the driver's
// execution mode, milestones, sanitized action records with winning
// locator indexes, output counts and hashes, terminal, environment with
// [Version], origins reached, blocked requests, locator changes, recovery,
// handoff, clean) with outputs.json and the run lock via internal/runwrite
// into [WithRunDir] (default os.UserCacheDir()/vera/runs). A run is clean
// only when it completed with no recovery proposal, no handoff and no
// blocked request.
//
// The run folder is checked before the first driver call, with
// internal/runwrite.ReserveRunDir: its location, the Git work tree rule
// ([WithAllowGitWorkTree] opts out), symbolic links (a dangling link
// anywhere in the path, or the folder itself a link), a regular file or
// other non-directory on the path, permission to create entries, and a
// probe write. The fresh run directory is reserved then, and the evidence
// is written into exactly that directory at the end. A refused folder is
// [ErrRunDir] with no driver call and nothing left behind (folders the
// check created are removed). If writing still fails at the end, the
// Result comes with [ErrEvidence], is never Clean, and the reserved
// directory is removed when it is empty.
//
// # Concurrency
//
// Execute is safe to call from many goroutines, each run with its own
// driver. A [Driver] drives one page and is not safe for concurrent use,
// so the runtime enforces it: each Execute claims its driver (claim.go)
// after the input checks and before the run folder is reserved, and
// releases it when it returns, evidence written. A second Execute on a
// driver whose run is still in flight is refused with [ErrDriverBusy]:
// no Result, no evidence, no driver call, never a terminal state that
// could pass for a business answer. Decisions:
//
//   - The claim lives in the runtime, not in the Driver interface: every
//     driver (the rod driver, the fake, a host's own) is covered without
//     a new method, and a driver stays mechanical.
//   - It is keyed by the value given to [WithDriver]. A wrapper around a
//     driver is a different value: a host that wraps drivers wraps one
//     per run. A driver type that is not comparable (a struct value with
//     a slice or map) cannot be claimed and is refused with
//     [ErrInvalidArgument].
//   - Refusing is not queueing: Execute never waits for a busy driver (a
//     host that wants queueing uses runtime/jobs, which gives every run
//     its own driver).
//
// # Step capture (Evidence v2)
//
// [WithCapture] is opt-in: the run folder then also holds capture.json
// (FORMAT.md 16) with the page's initial state and one record per
// executed action, and the lock is browser-run-lock/v3. The code is in
// capture.go (policy, [Capturer]) and capture_record.go (the record).
//
//   - The driver side is the optional [Capturer] interface, not new
//     Driver methods: the Driver stays small and mechanical, a driver
//     without it still runs, and its capture records every section but
//     the URL as missing (driver_unsupported), so it is never eligible
//     for an equality claim rather than silently empty.
//   - The initial state is captured after the start navigation's causal
//     barrier; each action's record after the action has been recorded
//     (its barrier, postcondition and checks done), so the events a step
//     caused are observed before it is captured. Events are attributed
//     to the step during which the driver reported them.
//   - Captures use the caller's context with their own bound (10 s), not
//     the run's: a run that timed out still records where it stopped.
//   - Redaction happens before any limit (so a cut can never leave part
//     of a secret): every supplied secret input value, and its query,
//     path, HTML and JSON escapes, becomes "[secret:NAME]" in every text.
//     Pixels cannot be redacted, so from the first action that uses a
//     secret input every screenshot is disabled (secret_input).
//   - URLs are sanitized to origin and path plus query names: the capture
//     is private but keeps no query values.
//   - Limits are declared in the policy (events per step by count and
//     bytes, each section, each screenshot, the whole capture) and every
//     cut is visible: truncated sections with their reason, omitted event
//     counts next to totals. Anything truncated or missing makes the
//     capture ineligible.
//   - The receipt does not change: captures are never bundled, never
//     count toward validation and never alter a run's terminal state; a
//     capture failure is a missing section, never a run failure.
package runtime
