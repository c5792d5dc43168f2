package discovery

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestObserveRedactsPathSegments: identifier-shaped path segments (a
// client code, digits only, a UUID, mixed letters and digits) are
// redacted in the recorded url_path and counted; ordinary words and
// versions stay; evidence with such a segment left in does not validate.
func TestObserveRedactsPathSegments(t *testing.T) {
	tests := []struct {
		path, want, leak string
	}{
		{"/clients/C00103", "/clients/" + Marker, "C00103"},
		{"/clients/C00103/edit?tab=1", "/clients/" + Marker + "/edit", "C00103"},
		{"/members/42", "/members/" + Marker, "42"},
		{"/members/1002345", "/members/" + Marker, "1002345"},
		{"/orders/3f2b5c2e-1a3d-4b5e-8f60-7a8b9c0d1e2f/lines", "/orders/" + Marker + "/lines", "3f2b5c2e"},
		{"/files/a1b2c3d4/view", "/files/" + Marker + "/view", "a1b2c3d4"},
		{"/invoices/INV-2024-0042", "/invoices/" + Marker, "INV-2024"},
		{"/clients/C%30%30103", "/clients/" + Marker, "C00103"}, // percent-encoded
		{"/clients/search", "/clients/search", ""},
		{"/invoices/new", "/invoices/new", ""},
		{"/api/v2/clients", "/api/v2/clients", ""},
		{"/settings/2fa", "/settings/2fa", ""},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			raw := &RawSnapshot{Origin: shell, Path: tt.path, Frames: []RawFrame{topFrame(shell)},
				Controls: []RawControl{btn(0, "Save")}}
			ev, err := Observe(tctx(t, 5*time.Second), &fakePage{script: snaps(raw)}, fastOpts(WithMaxSnapshots(1))...)
			if err != nil {
				t.Fatal(err)
			}
			o := ev.Observations[0]
			if o.URLPath != tt.want {
				t.Fatalf("url_path = %q, want %q", o.URLPath, tt.want)
			}
			// The segment is looked for as a path segment ("/42"): a bare
			// "42" also turns up in hashes and times, which are not leaks.
			b, _ := json.Marshal(ev)
			if tt.leak != "" && strings.Contains(string(b), "/"+tt.leak) {
				t.Errorf("evidence holds %q", "/"+tt.leak)
			}
			if got := ev.Redactions.Total(); (tt.leak != "") != (got > 0) {
				t.Errorf("redactions = %d (%v)", got, ev.Redactions.Identifiers)
			}
			if err := ev.Validate(); err != nil {
				t.Fatalf("redacted evidence does not validate: %v", err)
			}
			if tt.leak != "" {
				// The same evidence with the segment put back is refused.
				bad := *ev
				bad.Observations = append([]ObservationStep(nil), ev.Observations...)
				bad.Observations[0].URLPath = strings.SplitN(tt.path, "?", 2)[0]
				if !strings.Contains(bad.Observations[0].URLPath, "%") {
					if err := bad.Validate(); !hasCode(err, CodeIdentifier) {
						t.Errorf("unredacted path validated: %v", err)
					}
				}
			}
		})
	}
}

// hasCode reports whether err is a *ValidationError with a problem of the
// code.
func hasCode(err error, code Code) bool {
	var ve *ValidationError
	return errors.As(err, &ve) && slices.ContainsFunc(ve.Problems, func(p Problem) bool { return p.Code == code })
}
