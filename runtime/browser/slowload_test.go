package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// TestStartSlowLoad: a start page that answered and shows its document
// while a subresource is still loading when the action timeout passes
// was reached; a run on it completes. Before, the deadline of the wait
// for its load event was reported as target_unreachable, so under load a
// slow page read as a dead one (flows of TestBrowserConcurrentLaunched
// ended that way at load 45). A page whose server never answers, and one
// answering 404 with the same slow image, still fail as unreachable, and
// the navigation that never committed is stopped: it stayed pending and
// held the next run on the same driver (its RestrictOrigins) until the
// caller's deadline.
func TestStartSlowLoad(t *testing.T) {
	t.Parallel()
	d := shared(t)
	release := make(chan struct{})
	var once sync.Once
	stop := func() { once.Do(func() { close(release) }) }
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hold := func() {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
		switch r.URL.Path {
		case "/slow.png":
			hold()
			return
		case "/silent":
			hold()
			return
		case "/missing":
			w.WriteHeader(http.StatusNotFound)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>slow</title><h1>Ready</h1><img src="/slow.png" alt="">`)
	}))
	defer srv.Close()
	defer stop()
	look := capability.Action{ID: "look", Operation: capability.OpWait, Intent: "look",
		Effect: capability.EffectReadOnly, Confirmation: capability.ConfirmNone, Postcondition: textCond("Ready")}
	for _, tc := range []struct {
		name, start string
		reached     bool
		reason      string
	}{
		{"subresource still loading", "/", true, ""},
		{"no answer", "/silent", false, string(runtime.ReasonStartNavigationFailed)},
		{"404 still loading", "/missing", false, string(runtime.ReasonTargetUnreachable)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := barrierCap(srv.URL, tc.start, look)
			c.Runtime.ActionTimeoutMS = 1500
			res := execute(t, tctx(t, 60*time.Second), d, c, nil)
			if tc.reached {
				wantState(t, res, runtime.StateCompleted, "")
				return
			}
			if res.State != runtime.StateFailed || res.Failure == nil ||
				res.Failure.Category != receipt.CategoryTargetUnreachable || res.Failure.Reason != tc.reason {
				t.Fatalf("run ended %s, want failed target_unreachable/%s", describeResult(res), tc.reason)
			}
		})
	}
}
