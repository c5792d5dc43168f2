package testsite

import (
	"net/url"
	"testing"
	"time"
)

func TestTransfer(t *testing.T) {
	tl, err := StartTeller(WithOutsideOrigin("http://127.0.0.1:1"))
	if err != nil {
		t.Fatal(err)
	}
	defer tl.Close()
	tl.SetTransferDelay(10 * time.Millisecond)
	c := newClient(t)
	r := c.get(tl.URL() + TransferPath)
	wantStatus(t, r, 200)
	wantContains(t, r, `role="dialog"`, "Confirm transfer", "Confirm and send", "Review transfer", "hidden")
	wantRedirect(t, c.postForm(tl.URL()+TransferPath, url.Values{"amount": {"100.00"}}), 303, TransferDonePath)
	if n := tl.Transfers(); n != 1 {
		t.Errorf("Transfers() = %d, want 1", n)
	}
	wantContains(t, c.get(tl.URL()+TransferDonePath), "Transfer sent")
	tl.BreakTransfers(true)
	r = c.postForm(tl.URL()+TransferPath, url.Values{"amount": {"100.00"}})
	wantStatus(t, r, 500)
	wantContains(t, r, "Something went wrong")
	if n := tl.Transfers(); n != 2 {
		t.Errorf("Transfers() = %d after a broken transfer, want 2", n)
	}
	r = c.get(tl.URL() + EscapeRedirectLink)
	wantStatus(t, r, 200)
	wantContains(t, r, `href="/escape/redirect"`, "Continue")
}
