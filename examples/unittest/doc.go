// Package unittest shows what a unit test of a capability looks like in a
// user's own repository: no browser, no network, the capability file as
// checked in, and declarative page fixtures for the fake driver of
// runtime/runtimetest.
//
// The package has no code of its own; everything is in teller_test.go:
//
//	go test ./examples/unittest
//
// The test loads the reviewed teller capability
// (examples/quickstart/teller.capability.json, whose placeholder origin the
// fixtures use as is), describes the teller console's pages as fixtures (a
// sign-in form, a member search, a member page with balances, the "No
// member found" answer and a session-expired page) and runs table cases
// through runtime.Execute with runtime.WithDriver(runtimetest.NewDriver):
// completed with the balances read, and the two business outcomes
// member_not_found and session_expired.
//
// Invariants the test relies on, and that users' tests should too:
//   - Fixtures describe the UI only (nodes, names, what a click changes);
//     they never hold the answer, so the balances the test expects come
//     from the runtime reading the page.
//   - Runs against fixtures are simulated: their receipts say so, and
//     receipt.Finalize never promotes them. Validation needs two clean runs
//     in the operator's live browser (see examples/quickstart).
//   - Secret inputs (the password) reach the page and nothing else: the
//     test checks that no file of the run directory contains it.
package unittest
