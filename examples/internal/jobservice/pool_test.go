package jobservice

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/jobs"
)

// deadOpen is a driver source whose browser is gone.
func deadOpen(ctx context.Context) (runtime.Driver, error) {
	return nil, fmt.Errorf("%w: policy test: no browser", runtime.ErrBrowserUnavailable)
}

func deadViewport(ctx context.Context, w, h int) (runtime.Driver, error) { return deadOpen(ctx) }

// TestNewPoolRefused: a pool and a single driver source exclude each
// other (both or neither is ErrDriverSource, an ErrInvalidArgument); a
// single source's options are refused with a pool; a pool that breaks
// the runner's endpoint rules is ErrInvalidArgument. Nothing is left
// in the state folder's place when refused before it is made.
func TestNewPoolRefused(t *testing.T) {
	ep := jobs.Endpoint{Name: "a", Slots: 1, Open: deadOpen}
	for name, c := range map[string]struct {
		source jobs.DriverSource
		opts   []Option
		want   error
	}{
		"neither":            {nil, nil, ErrDriverSource},
		"empty pool":         {nil, []Option{WithEndpoints()}, ErrDriverSource},
		"both":               {deadOpen, []Option{WithEndpoints(ep)}, ErrDriverSource},
		"active browsers":    {nil, []Option{WithEndpoints(ep), WithActiveBrowsers(2)}, ErrInvalidArgument},
		"viewport source":    {nil, []Option{WithEndpoints(ep), WithViewportSource(deadViewport)}, ErrInvalidArgument},
		"availability":       {nil, []Option{WithEndpoints(ep), WithAvailability(func() error { return nil })}, ErrInvalidArgument},
		"bad name":           {nil, []Option{WithEndpoints(jobs.Endpoint{Name: "a b", Slots: 1, Open: deadOpen})}, ErrInvalidArgument},
		"no slots":           {nil, []Option{WithEndpoints(jobs.Endpoint{Name: "a", Open: deadOpen})}, ErrInvalidArgument},
		"nil open":           {nil, []Option{WithEndpoints(jobs.Endpoint{Name: "a", Slots: 1})}, ErrInvalidArgument},
		"duplicate endpoint": {nil, []Option{WithEndpoints(ep, ep)}, ErrInvalidArgument},
	} {
		s, err := New(t.TempDir(), c.source, c.opts...)
		if err == nil {
			_ = s.Close(context.Background())
		}
		if !errors.Is(err, c.want) || !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
}

// TestPoolPreflightUnavailable: a pool whose every endpoint is gone
// answers 503 browser_unavailable, lists each endpoint unavailable with
// its slots, and its limits are the pool's: the slots summed, viewports
// only when every endpoint opens them.
func TestPoolPreflightUnavailable(t *testing.T) {
	s, err := New(t.TempDir(), nil, WithEndpoints(
		jobs.Endpoint{Name: "a", Slots: 2, Open: deadOpen, OpenViewport: deadViewport},
		jobs.Endpoint{Name: "b", Slots: 3, Open: deadOpen}))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background())
	req := httptest.NewRequest(http.MethodGet, "/v1/preflight", nil)
	req.Header.Set(ProtocolHeader, ProtocolVersion)
	rec := httptest.NewRecorder()
	s.Handler().ServeHTTP(rec, req)
	var d PreflightDoc
	if err := json.Unmarshal(rec.Body.Bytes(), &d); err != nil {
		t.Fatal(err)
	}
	if rec.Code != http.StatusServiceUnavailable || d.Available || d.Error != string(jobs.CodeBrowserUnavailable) ||
		d.Limits.ActiveBrowsers != 5 || d.Limits.Viewports || len(d.Endpoints) != 2 {
		t.Fatalf("preflight: %d %s", rec.Code, rec.Body.Bytes())
	}
	for i, want := range []EndpointPreflight{{Name: "a", Slots: 2}, {Name: "b", Slots: 3}} {
		e := d.Endpoints[i]
		if e.Name != want.Name || e.Slots != want.Slots || e.Busy != 0 || e.Available || e.Error != string(jobs.CodeBrowserUnavailable) ||
			e.Browser != "" || e.CheckedAt.IsZero() {
			t.Errorf("endpoint %d: %+v", i, e)
		}
	}
	// A submission is refused, or admitted and failed on both endpoints
	// (the runner finds them dead at the first open): never left
	// waiting.
	code, e, raw := post(s, submission(t, ""))
	switch code {
	case http.StatusServiceUnavailable:
		if e.Error != string(jobs.CodeBrowserUnavailable) {
			t.Errorf("submission to a dead pool: %s", raw)
		}
	case http.StatusAccepted:
		var acc Accepted
		if err := json.Unmarshal(raw, &acc); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		defer cancel()
		st, err := s.Runner().Wait(ctx, acc.ID)
		if err != nil || st.State != jobs.StateFailed || (st.Code != jobs.CodeBrowserUnavailable && st.Code != jobs.CodeBrowserCrashed) {
			t.Errorf("run on a dead pool: %+v %v", st, err)
		}
	default:
		t.Errorf("submission to a dead pool: %d %s", code, raw)
	}
}
