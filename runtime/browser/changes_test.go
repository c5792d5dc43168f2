package browser

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/runtime"
)

// TestWaitChange checks the ChangeWaiter contract in Chromium: a DOM
// mutation the page makes later ends the wait after it happened and
// before the deadline; a quiet page waits until the deadline (nil); a
// canceled ctx is an error.
func TestWaitChange(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	ctx := tctx(t, 60*time.Second)
	if err := d.Navigate(ctx, s.Stress.URL()+"/stress/probe"); err != nil {
		t.Fatal(err)
	}
	if err := d.Settle(ctx); err != nil {
		t.Fatal(err)
	}
	read := func() string {
		t.Helper()
		var res proto.RuntimeEvaluateResult
		if err := d.call(ctx, d.pageSID, proto.RuntimeEvaluate{Expression: `document.body.dataset.changed || ''`, ReturnByValue: true}, &res); err != nil {
			t.Fatal(err)
		}
		return res.Result.Value.Str()
	}

	t.Run("mutation", func(t *testing.T) {
		var res proto.RuntimeEvaluateResult
		if err := d.call(ctx, d.pageSID, proto.RuntimeEvaluate{Expression: `setTimeout(() => { document.body.dataset.changed = 'yes' }, 300), 1`}, &res); err != nil {
			t.Fatal(err)
		}
		wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if err := d.WaitChange(wctx, nil); err != nil {
			t.Fatalf("WaitChange = %v", err)
		}
		if wctx.Err() != nil {
			t.Fatal("WaitChange returned at its deadline, not at the mutation")
		}
		if got := read(); got != "yes" {
			t.Fatalf("WaitChange returned before the mutation (changed = %q)", got)
		}
	})
	t.Run("quiet page until the deadline", func(t *testing.T) {
		wctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		defer cancel()
		if err := d.WaitChange(wctx, nil); err != nil {
			t.Fatalf("WaitChange = %v", err)
		}
	})
	t.Run("canceled", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if err := d.WaitChange(cctx, nil); !errors.Is(err, context.Canceled) {
			t.Fatalf("WaitChange = %v, want context.Canceled", err)
		}
	})
	t.Run("foreign scope", func(t *testing.T) {
		// A scope this driver did not return is refused as Find refuses it.
		if err := d.WaitChange(ctx, struct{}{}); !errors.Is(err, runtime.ErrUnsupported) {
			t.Fatalf("WaitChange with a foreign scope = %v, want ErrUnsupported", err)
		}
	})
	// The page still answers after the waits (no leftover observer
	// breaks it).
	if els, err := d.Find(ctx, nil, nil, locator.Candidate{Strategy: locator.CSS, CSS: "body"}); err != nil || len(els) != 1 {
		t.Fatalf("Find after the waits = %d, %v", len(els), err)
	}
	var _ runtime.ChangeWaiter = d
}
