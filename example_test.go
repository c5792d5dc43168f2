package vera_test

// The README's Go snippets live here, so they compile with the tests; the
// test in readme_test.go fails when a README snippet is not found verbatim
// in this file.

import (
	"context"
	"fmt"
	"testing"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser"
	"github.com/vera-run/vera/runtime/grant"
	"github.com/vera-run/vera/runtime/runtimetest"
)

// hostAgent is the README's host-agent snippet: run a capability in the
// operator's own Chrome and branch on the terminal state.
func hostAgent(ctx context.Context, capab *capability.Capability, runsDir string) error {
	g, err := grant.Local(capab, grant.ConnectTarget("http://127.0.0.1:9222")) // this endpoint, this capability, loopback only
	if err != nil {
		return err
	}
	d, err := browser.Connect(ctx, "http://127.0.0.1:9222", browser.WithGrant(g)) // the operator's own Chrome
	if err != nil {
		return err
	}
	defer d.Close() // disconnects; the operator's browser stays open

	res, err := runtime.Execute(ctx, capab, map[string]any{"member_id": "100234"},
		runtime.WithDriver(d),
		runtime.WithRunDir(runsDir),
	)
	if err != nil {
		return err // misuse or infrastructure
	}
	switch res.State {
	case runtime.StateCompleted:
		fmt.Println(res.ModelOutputs) // artifact_only outputs never appear here
	case runtime.StateBusinessOutcome:
		fmt.Println("legitimate answer:", res.Outcome) // e.g. member_not_found
	default:
		fmt.Println(res.State, res.Failure) // stopped at a gate, native gap, failed...
	}
	return nil
}

// toolingAuthor is the README's tooling snippet: promote from two clean
// runs, seal a bundle and verify it offline, with no browser.
func toolingAuthor(ctx context.Context, capab *capability.Capability, runA, runB, dst string) error {
	promoted, err := receipt.Finalize(ctx, capab, []string{runA, runB})
	if err != nil {
		return err // names the run and the check that failed
	}
	if _, err := bundle.Seal(ctx, dst, promoted, []string{runA, runB}); err != nil {
		return err
	}
	report, err := bundle.Verify(ctx, dst)
	if err != nil {
		fmt.Println(report) // every problem, not just the first
		return err
	}
	return nil
}

// unitTest is the README's unit-test snippet: the same Execute over the
// fake driver and declarative page fixtures, no browser at all.
func unitTest(t *testing.T, capab *capability.Capability, site *runtimetest.Site) {
	d := runtimetest.NewDriver(site) // pages as trees of roles, names, labels and rules
	defer d.Close()

	res, err := runtime.Execute(context.Background(), capab, map[string]any{"member_id": "100234"},
		runtime.WithDriver(d),
		runtime.WithRunDir(t.TempDir()),
	)
	if err != nil {
		t.Fatal(err)
	}
	if res.State != runtime.StateCompleted {
		t.Fatalf("state = %s, failure = %+v", res.State, res.Failure)
	}
}

// Example_hostAgent shows a host agent running a capability in the
// operator's Chrome (compile-only: it needs a running Chrome).
func Example_hostAgent() {
	_ = hostAgent
}

// Example_toolingAuthor shows Finalize, Seal and Verify (compile-only).
func Example_toolingAuthor() {
	_ = toolingAuthor
}

// Example_unitTest shows a capability unit test over the fake driver
// (compile-only; examples/unittest has a complete, running one).
func Example_unitTest() {
	_ = unitTest
}
