// Package runwrite writes a run's evidence (outputs.json,
// recovery.proposals.json, run.receipt.json and last run.lock.json) into
// a fresh owner-only run directory. It is the runtime's writer and was
// the public receipt.WriteRun/ReserveRunDir/WriteReserved; it is internal
// because only the runtime writes receipts (package receipt's first
// invariant), so no user of the library needs it.
//
// # Invariants
//
//   - [ReserveRunDir] performs every run-folder check before a run's first
//     side effect and returns a *receipt.RunDirError naming the check; on
//     failure it removes everything it created.
//   - Every file is RFC 8785 canonical JSON written atomically (temporary
//     file, fsync, rename, 0600); run.lock.json is written last and is the
//     commit marker, so an interrupted write is an incomplete run, never a
//     tampered one.
//   - The output count is [runrule.OutputCount], the same function
//     receipt.VerifyRun checks it with.
//
// Decisions: the run-folder error type and its checks
// (receipt.RunDirError, receipt.RunDirCheck, receipt.ErrRunDir) stay in
// package receipt because runtime.Execute returns them to users, who
// branch on the check. The crash-safety and run-folder tests stay in
// package receipt's tests, next to the verifier they exercise.
package runwrite
