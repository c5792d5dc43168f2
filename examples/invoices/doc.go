// Command invoices runs the invoice export capability on the synthetic
// billing app, whose ledger lives in a nested cross-origin iframe:
//
//	go run ./examples/invoices [-browser PATH] [-out DIR]
//
// The capability reads every invoice row across the ledger's three pages
// (a list extraction in a bounded pagination cycle), exports the ledger as
// CSV (a verified download) and then issues the pending invoice, a
// consequential action that needs action-time approval.
//
// The program runs it three times, always requested by the clerk (the
// maker, runtime.WithRequester). Without an approver the run stops at the
// gate: everything before the consequential step happened, the "Confirm"
// button was never clicked and the site issued nothing. With the
// supervisor as approver (runtime.WithApprover, the checker) the run
// completes and the site has issued exactly one invoice. When the clerk
// approves their own request, the run completes too and the receipt flags
// the approval as self-approved: recorded, not blocked. Every run checks
// the downloaded CSV: its SHA-256 equals that of the bytes the site served.
//
// It uses browser.Launch (live_launched_browser): a provider-launched
// Chromium is fine for runs that are not finalized, and it lets the program
// choose the download folder (browser.WithDownloadDirectory). The placeholder
// origins of invoice_export.capability.json (state authored) are
// rewritten to the two served origins at load time.
//
// Invariants:
//   - Nothing consequential happens without an approval: the run without
//     an approver stops at confirm-issue and the site's issued count stays
//     0; each approved run adds exactly one.
//   - Every run's CSV is checked three ways: the file's own SHA-256, the
//     receipt's download proof and the bytes the site served must agree.
//   - The model sees only a summary of the invoices (model_summary) and
//     only a count of the CSV (artifact_only); the rows are read from the
//     run's outputs.json, which is for the host.
//
// Decisions where the brief was silent:
//   - The capability copy is hand-written (state authored, provenance
//     hand_authored: no invented discovery record) without validation
//     metadata: the test data's copy claims two receipts of other origins,
//     which no longer hold once its origins are rewritten.
//   - A third run shows self-approval, so the count goes 0, 1, 2.
package main
