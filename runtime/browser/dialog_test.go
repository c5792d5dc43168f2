package browser

import (
	"testing"
	"time"

	"github.com/vera-run/vera/runtime"
)

// TestConnectCloseWithNativeDialog: a run on an operator's Chrome ends
// behind window.confirm. Close must dispose the driver's context without
// taking the operator's browser down (Chromium exits when a page with an
// open dialog is closed), without accepting the dialog, and a new driver
// must work on the same browser.
func TestConnectCloseWithNativeDialog(t *testing.T) {
	ext := startExternal(t)
	inv := startInvoicing(t)
	inv.ShowNativeDialog(true)
	c := issueCapability(t, inv)
	for i := 0; i < 2; i++ {
		d, err := Connect(tctx(t, 30*time.Second), ext.endpoint)
		if err != nil {
			t.Fatalf("Connect %d: %v", i, err)
		}
		res := execute(t, tctx(t, 60*time.Second), d, c, nil, runtime.WithApprover(supervisor))
		wantBlocked(t, res, inv, "native_dialog", 0)
		if err := d.Close(); err != nil {
			t.Errorf("Close with a dialog open: %v", err)
		}
		if !ext.alive(t) {
			t.Fatalf("the operator's browser died when the driver closed its context (iteration %d)", i)
		}
	}
	if n := inv.IssuedCount(); n != 0 {
		t.Errorf("%d invoices issued", n)
	}
}
