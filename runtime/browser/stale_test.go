package browser

import (
	"context"
	"errors"
	"testing"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/vera-run/vera/runtime"
)

// TestDocumentReplacedErrors: every CDP error text that means the
// document, a node or its execution context was replaced is classified in
// one place (isStaleError) and reaches the runtime as ErrStaleElement from
// Find, Act and Read, never as an internal failure. Other errors are not.
func TestDocumentReplacedErrors(t *testing.T) {
	d := &Driver{}
	for _, tc := range []struct {
		text  string
		stale bool
	}{
		{"Argument should belong to the same JavaScript world as target object", true},
		{"Cannot find context with specified id", true},
		{"Execution context was destroyed.", true},
		{"No node with given id found", true},
		{"Node is detached from document", true},
		{"Inspected target navigated or closed", true},
		{"Could not find node with given id", true},
		{"Cannot find object with id", true},
		{"Could not find object with given id", true},
		{"Cannot find default execution context", true},
		{"Session with given id not found: 8F2A", true},
		{"Invalid parameters", false},
		{"net::ERR_BLOCKED_BY_CLIENT", false},
		{"Internal error", false},
	} {
		t.Run(tc.text, func(t *testing.T) {
			err := &cdp.Error{Code: -32000, Message: tc.text}
			if got := isStaleError(err); got != tc.stale {
				t.Fatalf("isStaleError(%q) = %v, want %v", tc.text, got, tc.stale)
			}
			for name, got := range map[string]error{
				"find": d.findErr(context.Background(), err),
				"act":  d.elemErr(context.Background(), "click", err),
			} {
				if errors.Is(got, runtime.ErrStaleElement) != tc.stale {
					t.Errorf("%s: %v; stale %v, want %v", name, got, !tc.stale, tc.stale)
				}
			}
		})
	}
}
