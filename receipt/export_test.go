package receipt

import (
	"os"

	"github.com/vera-run/vera/capability"
)

// SetPutHook installs a hook that runs before WriteRun writes each file and
// returns a function restoring the previous one. An error from the hook
// aborts the write there, as a crash would.
func SetPutHook(h func(root *os.Root, name string, data []byte) error) (restore func()) {
	prev := testHookPut
	testHookPut = h
	return func() { testHookPut = prev }
}

// ShownFromRecords exposes shownFromRecords: what an approver of action in
// milestone m was shown, rebuilt from the receipt and the capability.
func ShownFromRecords(r *Receipt, c *capability.Capability, m, action string) ([]string, []ShownInput) {
	return shownFromRecords(r, c, m, action)
}

// KnownReasons returns the closed set of failure reasons the verifier
// accepts, for the test that holds it equal to runtime.Reasons().
func KnownReasons() map[string]bool { return reasons }
