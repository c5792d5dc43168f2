package browser

import (
	"errors"
	"strings"
	"testing"

	"github.com/vera-run/vera/runtime"
)

func TestOriginScope(t *testing.T) {
	sc, err := newOriginScope(runtime.OriginScope{
		Allowed:      []string{"http://127.0.0.1:8080", "https://App.Example.com:443/"},
		Subresources: []string{"https://cdn.example.net"},
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		url      string
		document bool
		want     bool
	}{
		{"http://127.0.0.1:8080/x?y", true, true},
		{"http://127.0.0.1:8081/", true, false},
		{"https://app.example.com/login", true, true},
		{"https://app.example.com:443/login", true, true},
		{"http://app.example.com/login", true, false},
		{"wss://app.example.com/socket", false, true},
		{"https://cdn.example.net/lib.js", false, true},
		{"https://cdn.example.net/page", true, false},
		{"https://evil.example/", false, false},
		{"http://localhost:8080/", true, false},
	}
	for _, c := range cases {
		o, governed := originOf(c.url)
		if !governed {
			t.Fatalf("%s not governed", c.url)
		}
		if got := sc.permits(o, c.document); got != c.want {
			t.Errorf("permits(%s, document=%v) = %v, want %v", c.url, c.document, got, c.want)
		}
	}
	for _, u := range []string{"data:text/html,x", "blob:http://a/b", "about:blank"} {
		if _, governed := originOf(u); governed {
			t.Errorf("%s governed", u)
		}
	}
	var nilScope *originScope
	if !nilScope.permits("https://anything", true) {
		t.Error("nil scope must permit")
	}
	for _, bad := range []string{"", "127.0.0.1:80", "ftp://x", "https://x/path", "https://u@x", "https://x?q", "http://"} {
		if _, err := normalizeOrigin(bad); !errors.Is(err, ErrInvalidOrigin) {
			t.Errorf("normalizeOrigin(%q) = %v", bad, err)
		}
	}
	if o, _ := normalizeOrigin("http://[::1]:9000"); o != "http://[::1]:9000" {
		t.Errorf("ipv6 origin = %q", o)
	}
}

func TestParseKey(t *testing.T) {
	for _, c := range []struct {
		in   string
		key  string
		mods int
		ok   bool
	}{
		{"Enter", "Enter", 0, true},
		{"a", "a", 0, true},
		{"A", "A", modShift, true},
		{"Control+a", "a", modCtrl, true},
		{"Shift+Tab", "Tab", modShift, true},
		{"+", "+", 0, true},
		{"Control++", "+", modCtrl, true},
		{"F5", "F5", 0, true},
		{"é", "é", 0, true},
		{"Hyper+a", "", 0, false},
		{"Enterr", "", 0, false},
		{"", "", 0, false},
	} {
		k, mods, err := parseKey(c.in)
		if (err == nil) != c.ok || (c.ok && (k.key != c.key || mods != c.mods)) {
			t.Errorf("parseKey(%q) = %+v %d %v", c.in, k, mods, err)
		}
		if err != nil && !errors.Is(err, runtime.ErrUnsupported) {
			t.Errorf("parseKey(%q): untyped error %v", c.in, err)
		}
	}
}

func FuzzParseEndpoint(f *testing.F) {
	for _, s := range []string{"http://127.0.0.1:9222", "ws://localhost:1/devtools/browser/x", "wss://h/x?token=1", "http://[::1]:2", "http://127.0.0.2:9222", "%", "ws://[::1", ""} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw string, remote bool) {
		ep, err := parseEndpoint(raw, remote)
		if err != nil {
			var ee *EndpointError
			if !errors.As(err, &ee) || !errors.Is(err, ErrEndpointNotAllowed) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if !ep.local && !remote {
			t.Fatalf("remote endpoint %q accepted without the option", raw)
		}
		if ep.local != isLocalEndpointHost(ep.u.Hostname()) {
			t.Fatalf("%q: local = %v for host %q", raw, ep.local, ep.u.Hostname())
		}
		if ep.local && ep.u.Port() == "" {
			t.Fatalf("local endpoint %q without a port", raw)
		}
		if !ep.local && ep.u.Scheme != "ws" && ep.u.Scheme != "wss" {
			t.Fatalf("remote endpoint %q is not a websocket", raw)
		}
		if strings.Contains(ep.redacted(), "?") || strings.Contains(ep.redacted(), "@") {
			t.Fatalf("redacted form leaks: %q", ep.redacted())
		}
	})
}

func FuzzOrigin(f *testing.F) {
	for _, s := range []string{"http://127.0.0.1:8080", "https://A.example:443/", "ws://x", "data:,", "http://[::1]:80", "http://%zz", "https://x:0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if o, err := normalizeOrigin(raw); err == nil {
			// A normalized origin is a fixed point and permits itself.
			o2, err := normalizeOrigin(o)
			if err != nil || o2 != o {
				t.Fatalf("normalizeOrigin(%q) = %q, again %q %v", raw, o, o2, err)
			}
			sc := &originScope{allowed: map[string]bool{o: true}, subresources: map[string]bool{}}
			if got, gov := originOf(o + "/p"); gov && got != o && sc.permits(got, true) {
				t.Fatalf("origin %q permits a different origin %q", o, got)
			}
		} else if !errors.Is(err, ErrInvalidOrigin) {
			t.Fatalf("untyped error %v", err)
		}
		if o, gov := originOf(raw); gov && o != "null" && !strings.Contains(o, "://") {
			t.Fatalf("originOf(%q) = %q", raw, o)
		}
	})
}

func FuzzParseKey(f *testing.F) {
	for _, s := range []string{"Enter", "Control+Shift+a", "++", "F13", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, _, err := parseKey(s)
		if err != nil {
			if !errors.Is(err, runtime.ErrUnsupported) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if k.key == "" {
			t.Fatalf("parseKey(%q) gave an empty key", s)
		}
	})
}

func errorsIs(err, target error) bool { return errors.Is(err, target) }
