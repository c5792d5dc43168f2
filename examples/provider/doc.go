// Command provider shows the computer-use provider boundary (seed 001)
// from the host's side, end to end:
//
//	go run ./examples/provider [-browser PATH] [-out DIR]
//
// It serves the synthetic post composer on loopback, launches Chromium,
// prints Vera's runtime profile, and then acts as the host agent that owns
// the outcome "publish the approved post":
//
//  1. it issues a draft request (effect_class draft, gate pending at
//     revision 4): Vera saves the draft and stops at the publish gate with
//     nothing published, and names the exact decision;
//  2. it validates the receipt (facts only, identity, gate revision, key)
//     and records the key in a file-backed idempotency store;
//  3. the owner approves: the gate opens at revision 5;
//  4. it re-issues the request as external_write bound to revision 5:
//     Vera publishes once and the receipt is accepted;
//  5. a replay of that receipt is refused by the store, also after the
//     store is reopened (a restart).
//
// Invariants:
//   - The exit status is 0 only when every step held: stopped_at_gate with
//     no publication, completed with exactly one, both receipts accepted,
//     the replay refused before and after the restart.
//   - The browser is closed (with its processes and profile) when run
//     returns, on error and on Ctrl-C.
//   - Runs and the store go to -out (a new or empty folder) or to a new
//     folder under os.TempDir(): run directories are refused inside a Git
//     work tree.
//
// Decisions where the brief was silent:
//   - The browser is launched (browser.Launch), so runs are
//     live_launched_browser; the quickstart shows the connected mode.
//   - compose.capability.json is the capability of the provider package's
//     tests; its placeholder origin is rewritten to the served origin at
//     load time.
package main
