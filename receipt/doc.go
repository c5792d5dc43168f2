// Package receipt holds a run's evidence: outputs.json, run.receipt.json,
// run.lock.json and recovery.proposals.json; loading them strictly ([Load], [LoadReceipt],
// [LoadLock], [LoadOutputs], [LoadProposals]), verifying a run directory
// against its capability ([VerifyRun]), promoting a capability to
// validated_local from two clean runs ([Finalize]), checking such a claim
// from the receipts alone ([CheckClaim]) and comparing two runs
// ([Compare]).
//
// # Invariants
//
//   - Only the runtime writes receipts, through internal/runwrite, which
//     is deliberately not public API (nothing outside the module writes a
//     run; the run id, output count and detail hash are rules of
//     FORMAT.md, not functions to call). A receipt holds hashes, counts,
//     categories and ids, never an input value, an output value, raw error
//     text, a URL query or page text. Secret inputs carry no hash at all.
//     A local file path appears only in outputs.json, which is owner-only
//     and never portable.
//   - Every run directory is fresh and owner-only (0700, files 0600, never
//     inside a Git work tree unless allowed); every file is written
//     atomically as RFC 8785 canonical JSON, in the order outputs.json,
//     recovery.proposals.json (when recovery was attempted),
//     run.receipt.json, run.lock.json. The lock is the commit marker: a
//     directory without it, or with a leftover temporary file, is an
//     incomplete run ([ErrIncomplete]), which verification tells apart
//     from a tampered one.
//   - Loading is strict and bounded: files are read through an [os.Root],
//     never through a symbolic link, at most [MaxReceiptBytes],
//     [MaxOutputsBytes], [MaxLockBytes] or [MaxProposalsBytes]; they must be
//     byte-exact canonical JSON (so no duplicate keys, invalid UTF-8 or
//     trailing data), carry the exact schema string, have no unknown member
//     (names match exactly, case included: internal/strictjson, the reader
//     shared with capability, bundle and discovery, so "ARCH" is an
//     unknown member, not an alias of "arch") and be exactly what the
//     writer's types re-encode (no missing member, no explicit default the
//     writer omits).
//   - A run directory of more than [MaxDirEntries] entries is one
//     ErrUnexpectedFile for the directory and no entry is reported by
//     name (a bounded listing returns the file system's choice); the run
//     files are looked up by name, so the report never depends on listing
//     order.
//   - Verification reports every problem, never only the first, in a
//     [Report] filled even on failure; each [Problem] carries a stable code
//     and a sentinel wrapping [ErrVerify]. Messages name files, members,
//     ids and counts, never values.
//   - Only two unique, verified, clean, completed runs in live mode with
//     matching execution hash, discovery hash, version, terminal, outputs
//     and environment promote a capability, and promotion never changes
//     the execution hash. simulated and unverified (mode omitted) runs,
//     recovered runs, runs with a recovery attempt, handed-off runs and
//     runs with a locator change never count; live_launched_browser runs
//     count only under [WithAllowLaunchedBrowser]. A validation claim states
//     its limit ([ClaimText]): artifact consistency, not an attestation of
//     a person, machine or website. The execution environment is a
//     declaration by the host, not a cryptographic attestation.
//   - [Finalize] never mutates its input; it returns a new capability.
//   - A comparison never treats missing evidence as equal, commits to its
//     normalization policy by digest and keeps its totals visible when its
//     change records are bounded.
//   - A step capture (capture.json, [Capture], FORMAT.md 16) is private
//     evidence like outputs.json: linked by a browser-run-lock/v3,
//     strictly loaded ([LoadCapture]), checked against its receipt by
//     [VerifyRun], not scanned for secret-shaped strings (the writer
//     redacts), never in a bundle. [WithCaptures] extends [Compare] with
//     the captures instead of a second comparison: the policy commits to
//     the capture normalization only when captures are compared, so the
//     digest of a receipt-only comparison is unchanged; a section
//     disabled on both sides is not compared, anything truncated,
//     missing or disabled on one side is unknown. A capture alignment
//     failure names the capture at fault (side a or b, none when both
//     are), as a receipt's duplicate_step does.
//
// # Hashes
//
// Every hash is "sha256:" followed by 64 lowercase hexadecimal digits.
// "digest(v)" below is the SHA-256 of the RFC 8785 canonical JSON of v;
// "file(f)" is the SHA-256 of the file's exact bytes (which, being
// canonical, equals digest of its content).
//
//   - run.lock.json: {"schema":"browser-run-lock/v1" or "/v2",
//     "algorithm":"sha256","run_id":R,"receipt":file(run.receipt.json),
//     "outputs":file(outputs.json)}; v2 adds
//     "recovery_proposals":file(recovery.proposals.json) and is written
//     exactly when recovery was attempted. The lock does not hash itself.
//   - validation.receipts of a validated_local capability: file of each of
//     the two run.receipt.json files, sorted; the bundle carries these
//     exact bytes.
//   - inputs[].hash: digest({"capability":E,"name":N,"value":V}) with E the
//     capability's execution hash, N the input name and V the typed value
//     the runtime used (a JSON string for string, date (YYYY-MM-DD) and
//     enum inputs, a number for integer and number inputs, a boolean for
//     boolean inputs). Absent and secret inputs have no hash. Binding E
//     keeps equal values from matching across capabilities; a low-entropy
//     value can still be guessed from its hash, which is why secrets are
//     never hashed.
//   - outputs[].hash: for text, record and record_set outputs,
//     digest(value) of the value exactly as in outputs.json (null when not
//     produced); for a download_set, digest([{"bytes":B,"sha256":H}, ...])
//     of the files' byte lengths and file hashes in order ([] when none),
//     never the local paths, which stay in outputs.json under the
//     protection of the lock's hash of that file ([OutputHash], which is
//     download.SetHash: byte lengths 0 to 2^53-1 and well-formed digests,
//     or no hash at all).
//   - outputs[].count: the number of files of a download set, of records
//     of a record set (0 when not produced), and 1 or 0 for a produced or
//     missing text or record.
//   - failure.detail_hash: file of the UTF-8 bytes of the local failure
//     detail; the detail itself is only logged locally.
//   - proposals[].contract_hash: digest(the unchanged action exactly as in
//     the capability, templates unsubstituted).
//   - capability.execution_hash: the capability's execution hash (digest
//     of the capability without "state" and "validation", see package
//     capability).
//   - A comparison's policy_digest: digest(policy), with the policy
//     {"schema":"browser-run-comparison-policy/v1","ignored":[...],
//     "rules":[{"kind","find","replace"}, ...]} as in the comparison; each
//     artifact digest is digest(the normalized artifact value).
//
// # Decisions where the contract is silent
//
//   - The grant (FORMAT section 15): a receipt's optional "grant" member
//     ([GrantRecord]) holds the grant's commitment (the grant document
//     with its executable path or endpoint replaced by its SHA-256, so no
//     local path enters evidence) and its digest. Load, VerifyRun and
//     bundle verification (through the receipt checks) recompute the
//     digest and require it for the receipt's execution hash, in the mode
//     of its execution mode, listing every origin reached and, against
//     the capability, every allowed origin ([ErrGrant], code "grant"). A
//     simulated receipt has none. A live receipt without one still
//     verifies in browser-run-receipt/v3 (older receipts and the
//     hand-built fixtures of other tests); the runtime always writes it.
//   - Every call that reads files or checks receipts takes ctx first
//     ([Load], [VerifyRun], [Finalize], [CheckClaim]) and checks it per
//     file, per run directory and per receipt. A done ctx is not a
//     verification failure: its error does not match [ErrVerify] (it is
//     wrapped with [ErrFinalize] or [ErrClaim] by those two).
//   - Codes, checks, artifact kinds, statuses and presence are typed
//     ([Code], [Check], [ArtifactKind], [ChangeStatus], [Presence],
//     [AlignCode], [ShownSource]); the JSON is unchanged. The verification
//     errors of this package and of bundle share internal/problem.
//   - Finalize promotes discovered and authored (hand-written, provenance
//     hand_authored) capabilities alike, through the same checks; a
//     hand-authored capability's receipts pin no discovery hash, and
//     VerifyRun rejects a capability whose state and provenance disagree
//     (forged combinations such as a hand_authored provenance with a
//     discovery_hash) as ErrCapability.
//   - Every action record with a winner carries locator_matches: the match
//     count of every candidate tried, up to the winner. Finalize lists
//     candidates that were tried in the runs and never won
//     ([FinalizeReport], via [WithReport]) and refuses a decoy, one that
//     matched several elements every time it was tried
//     ([CheckDecoyCandidate]): it satisfies the semantic-first rule on
//     paper while a fallback does the work, and the honest alternative
//     (a CSS-only locator with css_only_reason) exists. A candidate that
//     only matched nothing is reported and does not block: it may be
//     stale, or wait for a state the runs did not show. Receipts of
//     earlier writers without locator_matches are judged by locator_index
//     alone (never a decoy). Extraction-field and condition locators are
//     not recorded per candidate and not judged.
//   - [Finalize] takes exactly two run directories and never selects
//     among more: silent selection would hide failed runs. Both runs must
//     share one execution mode. Only a discovered or authored capability is
//     promoted; re-validation starts again from that capability.
//     finalized_at is RFC 3339 in UTC, to the second.
//   - A run directory may hold only its run files (outputs, recovery
//     proposals, receipt, lock and, with a capture policy, capture.json);
//     any other entry is [ErrUnexpectedFile]. Receipts, locks and proposals are also scanned
//     for credential-shaped strings ([ErrSecret]); outputs.json holds the
//     run's private results and is not.
//   - Milestone visits start at the first milestone and follow a
//     milestone's transitions, or, when it declares none, the next
//     milestone in document order (and completed after the last). Actions
//     of one visit appear in declared order and may skip an action (an
//     optional input left out), never repeat one. The winning locator index
//     of a recovered action refers to the locator the run used (the
//     proposal replaces the declared candidates).
//   - Records of record and record_set outputs hold exactly the declared
//     fields; a field whose element was not found is null.
//   - The download evidence of a download_set is that of every action that
//     recorded a download proof, in run order: the runtime records a proof
//     exactly when it adds a verified file to the output.
//   - [CheckClaim] takes receipts keyed by their digests, requires the
//     validation's receipts sorted and its claim text to be exactly
//     [ClaimText], and applies the same execution-mode policy as
//     [Finalize] ([WithAllowLaunchedBrowser]).
//   - Closed sets are enforced on read: failure.reason is one of the
//     runtime's reason codes or a download reason (a list written here
//     once, since receipt cannot import runtime, and held equal to
//     runtime.Reasons by a test); a download's mechanism and evidence are
//     one pair of package download's. No reader tolerates an unknown
//     value; the writer spells an unknown reason "unspecified".
//   - Terminal states pair with failures as FORMAT.md 8.1 says:
//     business_outcome and native_gap carry none; stopped_at_gate carries
//     approval_refused; blocked_by_unknown_modal a ui_assertion_failed
//     failure with reason unknown_modal or native_dialog;
//     recovery_requested its locator_not_found failure.
//   - Always-present lists are [] when empty, never null; finished_at is
//     not before started_at; outputs.json paths are absolute
//     (filepath.IsAbs of the verifying host).
//   - Inputs and outputs are recorded in the capability's order. A
//     record_set's count is the sum of its passed extract actions'
//     records when none of them failed (a failed extraction's output is
//     unproduced); a text or record extraction counts at most 1. The
//     output of the failed extraction a run ended at (its last action
//     record failed, or the run failed records_incomplete naming it) is
//     recorded unproduced: count 0 and the hash of null in the receipt,
//     produced false in outputs.json (FORMAT.md 3.2 "Outputs of a
//     failed extraction"). A passed extract action without records is accepted (the
//     runtime always writes it; a foreign writer may not).
//   - A proposal's contract_hash must be the contract hash of the action
//     it targets as the capability declares it.
//   - [VerifyReceipt] and [CheckClaim] apply the receipt-only part of
//     [VerifyRun]'s capability checks to a receipt without its run
//     directory, as a bundle must.
//   - [Compare] compares secret inputs by reference (name and presence),
//     as seed 002 keeps secret references instead of values; everything
//     else compares by normalized digest. A capability id that differs is
//     an alignment failure; a differing version or execution hash is a
//     changed capability artifact.
package receipt
