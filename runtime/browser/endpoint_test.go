package browser

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// TestLocalEndpointHosts: exactly the three documented hosts are local
// endpoints; every other host, other loopback addresses and spellings
// included, needs WithRemoteEndpoint, and the error states the rule.
func TestLocalEndpointHosts(t *testing.T) {
	cases := []struct {
		in     string
		remote bool
		local  bool // accepted as a local endpoint
		ok     bool
	}{
		{"http://127.0.0.1:9222", false, true, true},
		{"http://localhost:9222", false, true, true},
		{"ws://LocalHost:9222/devtools/browser/x", false, true, true},
		{"http://[::1]:9222", false, true, true},
		{"wss://[::1]:9222/devtools/browser/x", false, true, true},

		{"http://127.0.0.2:9222", false, false, false},
		{"ws://127.0.0.2:9222/devtools/browser/x", false, false, false},
		{"ws://127.0.0.2:9222/devtools/browser/x", true, false, true},
		{"http://127.0.0.2:9222", true, false, false}, // remote must be ws(s)
		{"http://127.1:9222", false, false, false},
		{"http://127.000.000.001:9222", false, false, false},
		{"http://[0:0:0:0:0:0:0:1]:9222", false, false, false},
		{"http://[::ffff:127.0.0.1]:9222", false, false, false},
		{"http://localhost.:9222", false, false, false},
		{"http://sub.localhost:9222", false, false, false},
		{"http://0.0.0.0:9222", false, false, false},
		{"http://2130706433:9222", false, false, false},
	}
	for _, c := range cases {
		ep, err := parseEndpoint(c.in, c.remote)
		if (err == nil) != c.ok {
			t.Errorf("parseEndpoint(%q, remote=%v) = %v, want ok=%v", c.in, c.remote, err, c.ok)
			continue
		}
		if err != nil {
			var ee *EndpointError
			if !errors.As(err, &ee) || !errors.Is(err, ErrEndpointNotAllowed) {
				t.Errorf("%q: untyped error %v", c.in, err)
			}
			if !c.local && !strings.Contains(err.Error(), "only 127.0.0.1, localhost and [::1] are local endpoints") {
				t.Errorf("%q: the error does not state the rule: %v", c.in, err)
			}
			continue
		}
		if ep.local != c.local {
			t.Errorf("%q: local = %v, want %v", c.in, ep.local, c.local)
		}
	}
}

// TestMaxMessageBytesRange: values outside the documented range are
// refused by Launch and Connect with ErrInvalidOption, before anything
// starts.
func TestMaxMessageBytesRange(t *testing.T) {
	ctx := tctx(t, 5*time.Second)
	for _, n := range []int64{-1, 0, MinMaxMessageBytes - 1, MaxMaxMessageBytes + 1, math.MaxInt64} {
		if _, err := Connect(ctx, "http://127.0.0.1:1", WithMaxMessageBytes(n)); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("Connect with WithMaxMessageBytes(%d): %v", n, err)
		}
		if _, err := Launch(ctx, WithMaxMessageBytes(n), WithBrowserPath("/nonexistent")); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("Launch with WithMaxMessageBytes(%d): %v", n, err)
		}
	}
	for _, n := range []int64{MinMaxMessageBytes, DefaultMaxMessageBytes, MaxMaxMessageBytes} {
		if err := buildOptions([]Option{WithMaxMessageBytes(n)}).check(); err != nil {
			t.Errorf("WithMaxMessageBytes(%d): %v", n, err)
		}
	}
}
