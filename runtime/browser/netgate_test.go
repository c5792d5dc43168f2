package browser

import (
	"testing"
	"time"

	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
)

func TestGateExplore(t *testing.T) {
	d := shared(t)
	s := sites(t)
	for _, p := range []string{testsite.EscapeWorkerWS, testsite.EscapeServiceWorker, testsite.EscapePreconnect, testsite.EscapeIframe, testsite.EscapeLink, testsite.EscapeRedirect, testsite.EscapeSubresource} {
		ctx := tctx(t, 20*time.Second)
		s.Outside.ResetHits()
		if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{s.Teller.Origin()}}); err != nil {
			t.Fatal(err)
		}
		err := d.Navigate(ctx, s.Teller.URL()+p)
		time.Sleep(1500 * time.Millisecond)
		var st string
		obsEval(t, ctx, d, `document.getElementById("status")?.textContent || ""`, &st)
		v, _ := d.Violations(ctx)
		t.Logf("%s: nav=%v status=%q violations=%v conns=%d hits=%d", p, err, st, v, s.Outside.Connections(), s.Outside.TotalHits())
	}
}
