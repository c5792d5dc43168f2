package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/vera-run/vera/internal/testsite"
	"github.com/vera-run/vera/runtime"
)

// TestWithViewportInvalid: sizes outside 1..1920 x 1..1600 are refused
// by Launch and Connect with ErrInvalidOption before any browser is
// started or contacted (the endpoint here has nothing listening).
func TestWithViewportInvalid(t *testing.T) {
	for _, sz := range [][2]int{{0, 800}, {800, 0}, {-1, 600}, {600, -5}, {MaxViewportWidth + 1, 800}, {800, MaxViewportHeight + 1}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			ctx := tctx(t, 5*time.Second)
			if _, err := Launch(ctx, WithViewport(sz[0], sz[1]), WithBrowserPath("/nonexistent/chromium")); !errors.Is(err, ErrInvalidOption) {
				t.Errorf("Launch = %v, want ErrInvalidOption", err)
			} else if !strings.Contains(err.Error(), fmt.Sprintf("WithViewport(%d, %d)", sz[0], sz[1])) {
				t.Errorf("Launch error %q does not name the option", err)
			}
			if _, err := Connect(ctx, "http://127.0.0.1:1", WithViewport(sz[0], sz[1])); !errors.Is(err, ErrInvalidOption) {
				t.Errorf("Connect = %v, want ErrInvalidOption", err)
			}
		})
	}
	// The limits themselves are valid: the option check passes and the
	// failure is the missing browser's.
	ctx := tctx(t, 5*time.Second)
	if _, err := Launch(ctx, WithViewport(MaxViewportWidth, MaxViewportHeight), WithBrowserPath("/nonexistent/chromium")); err == nil || errors.Is(err, ErrInvalidOption) {
		t.Errorf("Launch at the limits = %v, want a browser error", err)
	}
}

// innerSize is the window.innerWidth x innerHeight of session sid's
// document once cond (a JS boolean expression) holds, bounded by ctx.
func innerSize(t *testing.T, ctx context.Context, d *Driver, sid proto.TargetSessionID, cond string) string {
	t.Helper()
	for {
		ok, err := d.evalNumber(ctx, sid, "("+cond+") ? 1 : 0")
		if err == nil && ok == 1 {
			w, werr := d.evalNumber(ctx, sid, "innerWidth")
			h, herr := d.evalNumber(ctx, sid, "innerHeight")
			if werr != nil || herr != nil {
				t.Fatalf("inner size: %v %v", werr, herr)
			}
			return itoa(w) + "x" + itoa(h)
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%s never held: %v (last error %v)", cond, ctx.Err(), err)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// popupSession waits, bounded by ctx, for the driver's first popup.
func popupSession(t *testing.T, ctx context.Context, d *Driver) proto.TargetSessionID {
	t.Helper()
	for {
		d.mu.Lock()
		var sid proto.TargetSessionID
		for s, tg := range d.targets {
			if tg.kind == kindPopup {
				sid = s
			}
		}
		d.mu.Unlock()
		if sid != "" {
			return sid
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no popup: %v", ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// viewportCheck opens the popup page in d, checks the page's inner size,
// opens the popup and checks the popup's.
func viewportCheck(t *testing.T, ctx context.Context, d *Driver, s *testsite.Sites, want string) {
	t.Helper()
	if err := d.Navigate(ctx, s.Teller.URL()+testsite.EscapePopup); err != nil {
		t.Fatal(err)
	}
	if got := innerSize(t, ctx, d, d.pageSID, "document.readyState === 'complete'"); got != want {
		t.Fatalf("page viewport %s, want %s", got, want)
	}
	els, err := d.Find(ctx, nil, nil, roleC("button", "Open popup", true))
	if err != nil || len(els) != 1 {
		t.Fatalf("Open popup: %d %v", len(els), err)
	}
	if err := d.Act(ctx, els[0], runtime.Act{Kind: runtime.ActClick}); err != nil {
		t.Fatal(err)
	}
	sid := popupSession(t, ctx, d)
	if got := innerSize(t, ctx, d, sid, "location.href.endsWith('/page') && document.readyState === 'complete'"); got != want {
		t.Fatalf("popup viewport %s, want %s", got, want)
	}
}

// TestWithViewport: the size applies to the page and to a popup, in a
// launched browser and in a connected one; in connect mode two drivers
// on one browser keep their own sizes.
func TestWithViewport(t *testing.T) {
	bin := requireBrowser(t)
	s := sites(t)
	t.Run("launch", func(t *testing.T) {
		ctx := tctx(t, 60*time.Second)
		d, err := Launch(ctx, WithBrowserPath(bin), WithViewport(414, 800))
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		viewportCheck(t, ctx, d, s, "414x800")
	})
	t.Run("connect", func(t *testing.T) {
		ctx := tctx(t, 60*time.Second)
		lb, err := StartLocal(ctx, WithBrowserPath(bin))
		if err != nil {
			t.Fatal(err)
		}
		defer func() {
			if err := lb.Close(); err != nil {
				t.Error(err)
			}
		}()
		small, err := Connect(ctx, lb.Endpoint(), WithViewport(390, 700))
		if err != nil {
			t.Fatal(err)
		}
		defer small.Close()
		big, err := Connect(ctx, lb.Endpoint(), WithViewport(1280, 800))
		if err != nil {
			t.Fatal(err)
		}
		defer big.Close()
		viewportCheck(t, ctx, small, s, "390x700")
		viewportCheck(t, ctx, big, s, "1280x800")
		if got := innerSize(t, ctx, small, small.pageSID, "true"); got != "390x700" {
			t.Errorf("the second driver changed the first one's viewport to %s", got)
		}
	})
}
