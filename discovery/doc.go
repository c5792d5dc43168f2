// Package discovery observes an operator's business process on a live page,
// read-only and redacted, and turns what it saw into reviewable documents:
// the evidence (browser-discovery-evidence/v1), the reviewed record
// (browser-discovery/v2), a non-executable draft capability, a hash-linked
// developer pack, and finally a promoted "discovered" capability.
//
// The flow:
//
//	ev, err := discovery.Observe(ctx, page, discovery.WithStop(done))  // guided: the operator demonstrates
//	rec, err := discovery.NewRecord(ev, spec)                         // milestones point at observations
//	rec, err = rec.Reviewed("operator", time.Now())                   // the operator reviews the exact record
//	draft, err := discovery.DraftFromRecord(rec)                      // state draft, names the record's hash
//	rep, err := discovery.SealPack(ctx, dir, ev, rec, draft)          // hash-linked developer pack
//	a, err := discovery.ApproveTransfer(ctx, dir, "operator", now)    // transfer approval (not authoring)
//	// ... a developer authors the actions of the draft ...
//	c, err := discovery.Promote(authored, rec, review)                // discovered, if within the review (and bound to rec.Review)
//
// The live page is the [Page] interface; runtime/browser implements it
// (and [Actor]) for the go-rod driver. discovery never imports runtime.
//
// Invariants:
//
//   - Observation is read-only: [Observe] only calls [Page.Snapshot] in
//     guided mode; a page implementation takes a snapshot without focus,
//     scroll, click, event dispatch or DOM write (runtime/browser proves it
//     against the page's own mutation and event counters).
//   - Nothing leaves Observe unredacted: identifier-shaped substrings of
//     names, labels, placeholders, live-region texts and URL paths become
//     [Marker]; test ids holding one are withheld (and counted); a string
//     still secret-shaped after that becomes the marker whole; frames whose
//     selector holds an identifier, or whose origin breaks the origin rule
//     or lies outside the allowed origins, are withheld; a top-level page
//     outside them is recorded only as out of scope. Redactions are counted
//     per kind. The evidence Observe returns always passes
//     [Evidence.Validate], which rejects any identifier- or secret-shaped
//     string.
//   - Never recorded: form values, table rows and cells (and controls inside
//     them), HTML, screenshots, query strings and fragments, input events or
//     a claimed click stream. Exploration step values are never recorded.
//   - Observation is bounded in rate ([WithMinInterval]), count
//     ([WithMaxSnapshots], [WithMaxSteps]), size per snapshot
//     ([WithMaxControls], [WithMaxStringLen], [WithMaxFrames]), duration
//     ([WithMaxDuration]) and encoded size ([WithMaxEvidenceBytes]).
//   - Exploration executes only read_only or reversible steps, through a
//     semantic locator matching exactly one observed, visible, enabled
//     control, on allowed origins, never on a control whose name holds a
//     consequential word; everything else becomes a [Refusal] record.
//   - Documents are strict: unknown fields (member names match exactly,
//     case included, through internal/strictjson as in package
//     capability), duplicate keys, values of the wrong JSON type, invalid
//     UTF-8, trailing data, a wrong schema or an oversize document are
//     parse errors; validation reports every problem with a path and a
//     code.
//   - Hashes are "sha256:" + hex over RFC 8785 canonical JSON. The record's
//     hash excludes its "review" member, so reviewing does not change it.
//     Each document names the hash of the one it came from:
//     record.evidence_hash = hash(evidence), draft
//     provenance.discovery_hash = hash(record).
//   - A pack is sealed non-overwriting, owner-only, locked over every file
//     with size and sha256, and verified before it is published. Its lock
//     has the bundle lock's form: RFC 8785 canonical JSON on disk (read
//     back only in that form), an "algorithm": "sha256" member, sizes from
//     0 up, and the pack hash is the sha256 of the lock's exact bytes.
//   - Transfer approval ([TransferApproval], transfer.approval.json outside
//     the lock) and capability-authoring approval
//     (capability.Review.AuthoringApproved, only ever set by [Promote]) are
//     separate: neither implies the other. A pack never holds a reviewed or
//     executable capability.
//   - [Promote] never mutates the draft and never promotes beyond the
//     reviewed record: site, process, runtime, authority and privacy equal,
//     no action beyond the reviewed max effect, every executable milestone
//     observed.
//
// # Documents and hashes
//
// A developer pack is a directory holding exactly discovery.json
// (browser-discovery/v2), draft.capability.json (browser-capability/v1,
// state draft), evidence.json (browser-discovery-evidence/v1),
// pack.lock.json (browser-developer-pack-lock/v1) and, once approved,
// transfer.approval.json (browser-developer-pack-transfer-approval/v1).
// An independent verifier computes, with D(x) = "sha256:" + lowercase hex
// SHA-256 of the RFC 8785 canonical form of the JSON text x and F(x) =
// "sha256:" + lowercase hex SHA-256 of the exact bytes of the file x:
//
//   - evidence hash = D(evidence.json);
//   - record hash = D(discovery.json with its top-level "review" member
//     removed) — the review is excluded so that reviewing does not change
//     what a draft already names;
//   - draft hash = D(draft.capability.json) (the whole draft, state
//     included);
//   - pack hash = F(pack.lock.json), which equals D(pack.lock.json)
//     because the lock must be canonical JSON.
//
// It then checks: the lock is byte-exact canonical JSON with schema
// browser-developer-pack-lock/v1 and algorithm "sha256"; it lists the
// three documents sorted by path, each with its byte size (0 or more) and
// F of its bytes; the
// lock's documents.{evidence,record,draft}_hash equal the computed hashes;
// discovery.json's evidence_hash is the evidence hash; the draft's
// provenance.discovery_hash is the record hash; the draft has state
// "draft" and no provenance.review; and transfer.approval.json, if
// present, names the pack hash in pack_hash. The approval is outside the
// lock because it names the lock's own hash.
//
// Decisions where the specification is silent:
//
//   - Names are computed in the page by one bounded script per frame (a
//     subset of the accessible-name computation: aria-labelledby,
//     aria-label, labels, content, title, placeholder), not through the
//     accessibility tree: it is one call per frame even for 5,000 controls,
//     and form values never cross the DevTools connection. A locator
//     authored from these names is verified against the live page by the
//     runtime's accessibility-tree resolution before it counts.
//   - Recorded roles: the interactive roles of [InteractiveRoles] and the
//     state markers of [MarkerRoles]; only nameless live regions (status,
//     alert) record their visible text, bounded and redacted.
//   - The page cuts strings at 4×max+64 runes; a cut string loses its last
//     64 runes before redaction so that no half identifier survives, then
//     is cut to max runes after redaction (never inside a marker).
//   - Redaction is by shape: identifier-shaped substrings (emails, phone
//     numbers, IBANs, card numbers, codici fiscali, long digit runs, UUIDs,
//     tokens) are replaced. Free text that is private but not
//     identifier-shaped, such as a person's name in a detail page's
//     heading, is not recognised and stays in the evidence. That is why a
//     pack needs a reviewed record and a separate transfer approval before
//     it leaves the operator's machine.
//   - URL paths are redacted segment by segment as well: a segment with two
//     or more digits, or digits and no letter (a client code C00103, a
//     numeric id, an invoice number INV-2024-0042), becomes [Marker] whole
//     and is counted as path_segment; ordinary words and versions
//     (/clients/search, /invoices/new, /api/v2) stay. [Evidence.Validate]
//     and record validation refuse a recorded path that still holds one.
//   - Redaction counts are per snapshot processed.
//   - Diffs pair controls by reference (frame, role, name, label,
//     placeholder, test id) and occurrence; [Evidence.Replay] reconstructs
//     every intermediate control list exactly.
//   - On ctx cancellation, explorer failure or repeated snapshot failure,
//     Observe returns the evidence recorded so far with the error.
//   - In hybrid mode the demonstration ends with the stop channel (or its
//     snapshot budget) and exploration follows.
//   - The sealed record must be reviewed; a draft produced by
//     [DraftFromRecord] fails capability.Validate only with empty_milestone
//     (actions are authored later), which [ValidateDraft] accepts.
//   - Promotion requires an interactive action's semantic locator to match a
//     control recorded in its milestone, in the frame path that milestone
//     acts in (capability.Capability.FramePath: the runtime-wide path,
//     which must equal the record's, or a milestone's own path), and a
//     navigate target's path to have been observed. Drafts carry the
//     record's runtime-wide path; a draft edited to per-milestone paths
//     is held to the controls observed in each milestone's frame.
//   - The record hash excludes the review member, so promotion binds the
//     review itself: the review given to [Promote] must name the record's
//     own reviewer and reviewed_at ([PromotionReviewSwapped] otherwise), a
//     review_hash given with it must be [ReviewHash] of the record
//     ([PromotionReviewHash]), and the promoted capability always carries
//     review_hash. A record whose review member was swapped is refused.
//   - Nil arguments never panic: a nil ctx is [ErrInvalidArgument], nil
//     documents are refused with the function's own typed error.
//   - The pack hash a transfer approval names is the file digest of
//     pack.lock.json, as a bundle is identified by its lock's file digest;
//     the lock is canonical, so no reader can disagree about its bytes.
package discovery
