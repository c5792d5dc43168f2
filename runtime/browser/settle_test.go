package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vera-run/vera/runtime"
)

// TestSettleHoldsThroughNextLoad: a form post whose next document runs a
// slow script, which then loads an image from outside the origin scope.
// The barrier after the click must hold until that document stopped
// loading, so the blocked image is a violation when Settle returns.
// Chromium clears the scheduled navigation (frameClearedScheduledNavigation)
// right after the frame starts loading; the barrier used to take that for
// the end of the load, and only the 60 ms quiet window after the document
// reply held it, far less than the slow script takes. The document reply
// for the loading frame now opens no window at all: the load holds the
// barrier instead, and the image (which delays the load event, so it is
// paused before the frame can stop loading) is always seen.
func TestSettleHoldsThroughNextLoad(t *testing.T) {
	d := shared(t)
	ctx := tctx(t, 120*time.Second)
	var outsideHits atomic.Int64
	outside := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		outsideHits.Add(1)
		w.Header().Set("Content-Type", "image/png")
	}))
	t.Cleanup(outside.Close)
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/" && r.Method == http.MethodGet:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><title>Form</title><form method=post action=/submit><button>Send</button></form>`)
		case r.URL.Path == "/submit" && r.Method == http.MethodPost:
			http.Redirect(w, r, "/next", http.StatusSeeOther)
		case r.URL.Path == "/next":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<!doctype html><title>Next</title><h1>Next</h1><script src="/slow.js"></script>`)
		case r.URL.Path == "/slow.js":
			// A slow server: the script arrives well after the
			// document (and its quiet window) did.
			select {
			case <-time.After(400 * time.Millisecond):
			case <-r.Context().Done():
				return
			}
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprintf(w, `const img = document.createElement('img'); img.alt = ''; img.src = %q; document.body.appendChild(img);`, outside.URL+"/pixel.png")
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(site.Close)
	if err := d.RestrictOrigins(ctx, runtime.OriginScope{Allowed: []string{site.URL}}); err != nil {
		t.Fatal(err)
	}
	for i := range barrierRepeat(t) {
		if err := d.Navigate(ctx, site.URL+"/"); err != nil {
			t.Fatal(err)
		}
		if err := d.Settle(ctx); err != nil {
			t.Fatal(err)
		}
		if vs, err := d.Violations(ctx); err != nil || len(vs) != 0 {
			t.Fatalf("run %d: violations before the click = %v, %v", i, vs, err)
		}
		top, _, err := d.Frame(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		els, err := d.Find(ctx, top, nil, role("button", "Send"))
		if err != nil || len(els) != 1 {
			t.Fatalf("run %d: Find = %d, %v", i, len(els), err)
		}
		if err := d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActClick}); err != nil {
			t.Fatalf("run %d: click: %v", i, err)
		}
		if err := d.Settle(ctx); err != nil {
			t.Fatal(err)
		}
		vs, err := d.Violations(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) != 1 || vs[0].Kind != runtime.ViolationSubresource || vs[0].Origin != outside.URL {
			t.Fatalf("run %d: violations when Settle returned = %+v, want the blocked image from %s", i, vs, outside.URL)
		}
	}
	if n := outsideHits.Load(); n != 0 {
		t.Errorf("the outside origin was reached %d times", n)
	}
}
