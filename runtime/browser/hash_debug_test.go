package browser

import (
	"testing"
	"time"
)

func TestHashDebug(t *testing.T) {
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 10*time.Second)
	d.Navigate(ctx, s.Teller.URL()+"/login")
	var res struct{ LoaderID string }
	_ = res
	err := d.Navigate(ctx, s.Teller.URL()+"/login#x")
	u1, _ := d.URL(ctx)
	time.Sleep(200 * time.Millisecond)
	u2, _ := d.URL(ctx)
	n, _ := d.evalNumber(ctx, d.pageSID, "location.hash.length")
	t.Log(err, u1, u2, n)
}
