// Package capability is the typed model of browser-capability/v1: a
// reviewable JSON instruction package for one business process on one site.
//
// Use [Parse] to read a document strictly, [Capability.Validate] to get every
// contract problem at once as an [ErrorList], and [Capability.ExecutionHash]
// for the hash receipts and bundles pin.
//
// # Semantics
//
// A run starts at runtime.start (navigate there), then visits milestones.
// The first milestone in document order is the start milestone. A visit runs
// the milestone's actions in order, then evaluates its transitions in order,
// waiting up to runtime.transition_timeout_ms for the first whose condition
// holds, and goes to its target: a milestone id or "completed". A milestone
// without transitions continues with the next milestone in document order,
// and the last one continues to "completed". A milestone may be visited at
// most max_visits times (default 1); a milestone on a cycle must declare
// max_visits, which bounds the cycle. Actions of a list extraction that runs
// on several visits (pagination) append to the same record_set.
//
// After every action and every transition the runtime checks the business
// outcomes in order; the first whose detect rules all hold ends the run as
// the named legitimate answer.
//
// Templates: "{{name}}" in a navigate url, a fill/select value, a locator
// value, a condition's text or value, or an outcome's visible text refers to
// a declared input. Only fragments of URLs may carry templates; paths and
// origins are fixed.
//
// # Invariants
//
//   - Parsing is strict: unknown fields, duplicate keys, invalid UTF-8, lone
//     surrogates and trailing data are errors; documents are bounded by
//     [MaxDocumentBytes].
//   - Validation never stops at the first problem: it returns every problem
//     with a JSON path, a stable code and a message; bad values of secret
//     inputs and credential-shaped values are never echoed.
//   - The execution hash is RFC 8785 canonical JSON without "state" and
//     "validation": promotion never changes it, any executable change does.
//   - Risk is derived (any consequential action), never declared.
//   - A capability holds references, never values: no credentials, cookies,
//     session URLs or query strings.
package capability
