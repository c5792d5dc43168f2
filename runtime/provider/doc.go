// Package provider is Vera's computer-use provider boundary (seed 001): it
// speaks the three provider-facing records, so a host agent that owns the
// outcome can hand Vera a bounded request and get back facts it can trust,
// and can validate any provider's receipts, Vera's or another's.
//
//   - computer_use_runtime_profile_v0 ([Profile], [NewProfile]): what the
//     runtime supports, derived from runtime.Preflight. Readiness only.
//   - computer_use_action_request_v0 ([ActionRequest], [ParseRequest],
//     [ActionRequest.Check]): the bounded action, with a typed
//     [EffectClass], a [WriteScope], a [GateBinding], the capability (id and
//     execution hash) and its inputs.
//   - computer_use_receipt_v0 ([Receipt], [NewReceipt]): what was attempted
//     and observed, facts only, with a [StopReason] from a closed enum.
//
// [Run] executes a request through runtime.Execute behind the boundary's
// approver; [ValidateReceipt] judges any receipt against its request, the
// gate's current state and a [KeyStore] ([MemoryStore], [FileStore]).
// The schemas are [ProfileSchema], [RequestSchema] and [ReceiptSchema];
// FORMAT.md section "Computer-use provider boundary" is the reference.
//
// Invariants:
//
//   - A profile grants nothing: external writes and private-source reads
//     are always "gated", every boundary flag is false, and nothing of the
//     browser (cookies, credentials, screenshots, page bodies) is copied
//     into it.
//   - Refusals come before side effects: a request is checked (structure,
//     capability binding, effect classes, gate at its current revision)
//     before the first browser call; a refused request never opens a page.
//   - An external_write or credential_use request needs an open gate
//     binding at the gate's current revision; the gate is asked again at
//     every consequential action, so a gate closed or revised during the
//     run stops the run there.
//   - A read or draft request never dispatches a consequential action: the
//     boundary's approver denies every action the request does not allow
//     before the host's approver is asked, whatever the capability or the
//     host's approver says, and the run stops at that gate with nothing
//     clicked. The effect class covers every action the request allows
//     ([ActionRequest.Check]); the natural-language stop_condition is never
//     the enforcement.
//   - A run stopped at a gate names the exact human decision ("Approve or
//     reject: <action intent> on <site>"), never "waiting for user".
//   - A receipt is a fact: stop_reason comes from one table
//     ([StopReasonFor]); a run that dispatched a consequential input is
//     never reported as blocked_by_unknown_modal, and a dispatched then
//     unconfirmed run is failed with final_action_clicked and
//     effect_unconfirmed recorded. Evidence is a handle (the run receipt's
//     sha256), never raw evidence; a secret input is never serialized,
//     hashed or echoed.
//   - The validator never trusts a receipt's own flags: the content rules
//     apply to every member name and string at any depth whatever
//     raw_evidence_copied claims, and a key is claimed only when every
//     other rule passed (a rejected receipt never burns its key). Every
//     problem is reported at once, each with a path and a [Code].
//   - Stores are safe for concurrent use; [FileStore] claims are exclusive
//     across processes and restarts (an atomic, non-replacing publish per
//     key in an owner-only directory).
//
// Decisions where the seed and the issue are silent:
//
//   - Effect classes are ordered read < draft < external_write <
//     credential_use, and a class covers itself and every lower one:
//     typing a password is the most sensitive thing a browser run does, and
//     a login flow that then submits needs one gated request.
//     write_scope.forbidden_effect_classes narrows it further.
//   - Capability effects map onto classes in one table ([ClassOfEffect]):
//     read_only -> read, reversible -> draft, consequential ->
//     external_write; the same table reads authority.max_effect. An action
//     that fills a secret input is credential_use whatever its declared
//     effect ([ClassOfAction]).
//   - write_scope.allowed_actions names capability action ids. Every
//     non-consequential action must be listed: the runtime has an
//     action-time gate only before consequential actions, so an action
//     without one cannot be stopped and a request that leaves one out is
//     refused (action_not_stoppable). Native steps always stop the run.
//   - Gate statuses are open (the effect may pass at this revision),
//     pending (a decision is awaited) and closed. A read or draft request
//     may carry a binding; if it does, it must be at the current revision.
//     The receipt echoes the request's binding (a member the seed's example
//     lacks but its smoke needs: a stale receipt must be recognisable).
//   - With an open gate and no host approver, the gate is the approval
//     (recorded as approver "gate:<id>@<revision>"); with a host approver,
//     both must approve.
//   - The idempotency key Vera writes is [RequestHash] (the canonical
//     request, gate revision included): one bounded request, one accepted
//     receipt; a re-issued request after approval has a new revision and
//     so a new key. The session reference is the run id.
//   - native_gap maps to stopped_at_gate (a person does the native step;
//     the decision reads "Do by hand: ..."); business outcomes map to
//     completed with business_outcome recorded; recovery_requested maps to
//     failed.
//   - The writeback rule is structural: a member name or string value is
//     writeback-shaped when its words (split at non-alphanumerics and
//     case changes) hold a decision word (writeback, decision, command,
//     directive, reducer, kernel, "write back") or a mutation verb in any
//     inflection (complete, create, update, delete, close, assign, approve,
//     reject, open, resolve, ...) together with a host object (todo, gate,
//     goal, user, quota, evidence, approval, task). "draft_created" and
//     "gate_screen_visible" are facts; "todo_completed" and "closeGate"
//     are not. The identity members are judged by identity instead.
//   - Content rules per string, first match wins: image bytes (data: URLs,
//     base64 image signatures, raw magic bytes, base64 runs of 200+
//     characters), cookie attributes, then internal/redact's secret
//     detectors (cookie header -> cookie; JWT, bearer, high-entropy ->
//     session_token; the rest -> credential), then the writeback rule, then
//     page text (markup, or more than [MaxFactLen] bytes). A member named
//     for a cookie, credential or token is rejected unless its value is a
//     boolean, number or null (a fact about one, like cookies_exported).
//   - Top-level receipt members are a closed set; observed_facts and
//     evidence are open objects (providers differ) and are scanned.
//   - Run accepts any provider_id: the host names its providers (Vera's
//     profile says vera_browser_runtime), and the receipt echoes the
//     request's, so the identity check holds for the host's naming.
//   - Run puts its approver after the caller's options and reads the
//     caller's own approver with runtime.ApproverOf, so the host configures
//     a run as usual.
package provider
