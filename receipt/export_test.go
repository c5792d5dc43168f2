package receipt

import (
	"github.com/vera-run/vera/capability"
)

// ShownFromRecords exposes shownFromRecords: what an approver of action in
// milestone m was shown, rebuilt from the receipt and the capability.
func ShownFromRecords(r *Receipt, c *capability.Capability, m, action string) ([]string, []ShownInput) {
	return shownFromRecords(r, c, m, action)
}

// KnownReasons returns the closed set of failure reasons the verifier
// accepts, for the test that holds it equal to runtime.Reasons().
func KnownReasons() map[string]bool { return reasons }
