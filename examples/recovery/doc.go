// Command recovery shows Vera's two-pass locator recovery after a UI
// change:
//
//	go run ./examples/recovery [-browser PATH] [-propose role|test_id] [-out DIR]
//
// The teller console renames its member-search button from "Search" to
// "Find member" (testsite Teller.RenameSearchButton). Version 1.1.0 of the
// teller capability (teller_v1.capability.json, state authored) knows
// the button only by role and name, so:
//
//  1. The first Execute ends recovery_requested with a RecoveryRequest: the
//     unchanged action contract, the exact target, where the page was and
//     why each candidate failed; never an input value.
//  2. The host's model (here a deterministic function, hostModel) proposes
//     exactly one semantic locator: role button named "Find member", or
//     the button's test id with -propose test_id.
//  3. The second Execute, with runtime.WithRecoveryProposal, starts over
//     from the declared start, uses the proposal for that one action only
//     and completes. The run is marked recovered and not clean (it can
//     never count toward validation), and its run directory holds
//     recovery.proposals.json with the proposal and its outcome.
//
// The capability itself is never modified: fixing it is a reviewed change
// (version 1.2.1 in examples/quickstart adds the test id as a fallback),
// followed by two clean runs. It uses browser.Launch; the placeholder
// origin is rewritten to the served site's origin at load time.
//
// Invariants:
//   - The program succeeds only when pass 1 requested recovery with no
//     input value in the request, pass 2 completed as recovered, not clean,
//     with recovery.proposals.json under a v2 lock, and the capability's
//     bytes and execution hash are unchanged.
//
// Decisions where the brief was silent:
//   - teller_v1.capability.json is the reviewed teller capability before
//     the test id fallback was added (version 1.1.0) with a shorter action
//     timeout (4 s), so the missing locator is reported quickly.
package main
