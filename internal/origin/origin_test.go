package origin

import (
	"errors"
	"net/url"
	"testing"
)

// TestRules pins every origin rule in one table: what Parse accepts and
// how it normalizes, what Check (the writer form) says, and the HTTPS and
// loopback rules.
func TestRules(t *testing.T) {
	tests := []struct {
		in       string
		norm     string  // Parse's result; "" when Parse refuses
		check    Problem // Check's verdict
		loopback bool
	}{
		// Writer form, secure.
		{"https://app.example", "https://app.example", OK, false},
		{"https://app.example:8443", "https://app.example:8443", OK, false},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080", OK, true},
		{"http://localhost:3000", "http://localhost:3000", OK, true},
		{"http://[::1]:9222", "http://[::1]:9222", OK, true},
		{"https://xn--caf-dma.example", "https://xn--caf-dma.example", OK, false},
		{"https://127.0.0.1", "https://127.0.0.1", OK, true},
		// Normalized by Parse, refused by Check.
		{"HTTPS://App.Example", "https://app.example", Malformed, false},
		{"https://app.example:443", "https://app.example", Malformed, false},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8080", Malformed, true},
		{"http://[::1]:80", "http://[::1]", Malformed, true},
		// The HTTPS rule.
		{"http://app.example", "http://app.example", Insecure, false},
		{"http://127.0.0.1", "http://127.0.0.1", Insecure, true},
		{"http://localhost", "http://localhost", Insecure, true},
		{"http://127.0.0.2:8080", "http://127.0.0.2:8080", Insecure, false}, // not loopback to Vera
		{"http://10.0.0.1:8080", "http://10.0.0.1:8080", Insecure, false},
		// Refused by both.
		{"app.example", "", Malformed, false},
		{"ftp://app.example", "", Malformed, false},
		{"ws://127.0.0.1:9222", "", Malformed, false},
		{"https://", "", Malformed, false},
		{"https://app.example/login", "", Malformed, false},
		{"https://app.example//", "", Malformed, false},
		{"https://app.example?x=1", "", Malformed, false},
		{"https://app.example#top", "", Malformed, false},
		{"https://user@app.example", "", Malformed, false},
		{"https://app.example.", "", Malformed, false},   // trailing dot: another origin
		{"https://café.example", "", Malformed, false},   // IDN: write xn--
		{"https://app_x.example", "", Malformed, false},  // underscore
		{"https://-app.example", "", Malformed, false},   // hyphen at a label's edge
		{"http://127.1:8080", "", Malformed, false},      // non-canonical IPv4
		{"http://0177.0.0.1:8080", "", Malformed, false}, // octal-looking IPv4
		{"http://[0:0::1]:8080", "", Malformed, false},   // non-canonical IPv6
		{"http://[::1%25eth0]:8080", "", Malformed, false},
		{"http://[::1:8080", "", Malformed, false},
		{"http://[::1]x:8080", "", Malformed, false},
		{"https://app.example:0", "", Malformed, false},
		{"https://app.example:65536", "", Malformed, false},
		{"https://app.example:08443", "", Malformed, false},
		{"https://app.example:", "", Malformed, false},
		{"https://app.example:https", "", Malformed, false},
		{"https://app example", "", Malformed, false},
		{"https://app.example\\evil", "", Malformed, false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := Normalize(tt.in)
			switch {
			case tt.norm == "" && err == nil:
				t.Errorf("Parse accepted %q as %q", tt.in, got)
			case tt.norm == "" && !errors.Is(err, ErrInvalid):
				t.Errorf("Parse error %v does not wrap ErrInvalid", err)
			case tt.norm != "" && (err != nil || got != tt.norm):
				t.Errorf("Normalize = %q, %v; want %q", got, err, tt.norm)
			}
			if p, msg := Check(tt.in); p != tt.check || (p == OK) != (msg == "") {
				t.Errorf("Check = %v %q; want %v", p, msg, tt.check)
			}
			if tt.norm != "" {
				o, _ := Parse(tt.in)
				if o.Loopback() != tt.loopback {
					t.Errorf("Loopback = %v; want %v", o.Loopback(), tt.loopback)
				}
				if tt.check != Malformed && o.Secure() != (tt.check == OK) {
					t.Errorf("Secure = %v, Check = %v", o.Secure(), tt.check)
				}
			}
		})
	}
}

// TestOfURL: the origin of a URL a browser reports, compared but never
// refused for its spelling; non-network schemes have none.
func TestOfURL(t *testing.T) {
	tests := []struct {
		raw, want string
		ok        bool
	}{
		{"https://App.Example/path?q=1#f", "https://app.example", true},
		{"http://127.0.0.1:80/x", "http://127.0.0.1", true},
		{"wss://app.example:443/socket", "wss://app.example", true},
		{"ws://[::1]:9222/devtools", "ws://[::1]:9222", true},
		{"https://example.com./", "https://example.com.", true}, // another origin, reported as such
		{"http://evil.example%2f@x", "http://x", true},          // user information, then the host
		{"https://app.example:99999/", "", false},
		{"data:text/html,hi", "", false},
		{"blob:https://app.example/uuid", "", false},
		{"about:blank", "", false},
		{"/relative", "", false},
	}
	for _, tt := range tests {
		o, ok := Of(tt.raw)
		if ok != tt.ok || (ok && o.String() != tt.want) {
			t.Errorf("Of(%q) = %q, %v; want %q, %v", tt.raw, o.String(), ok, tt.want, tt.ok)
		}
	}
	ws, _ := Of("wss://app.example:8443/s")
	if got := ws.HTTPEquivalent().String(); got != "https://app.example:8443" {
		t.Errorf("HTTPEquivalent = %q", got)
	}
	u := &url.URL{Scheme: "https", Host: "APP.example"}
	if o, ok := OfURL(u); !ok || o.String() != "https://app.example" {
		t.Errorf("OfURL = %q, %v", o.String(), ok)
	}
}

// TestIsLoopbackHost: exactly three hosts, any case, IPv6 with or without
// brackets.
func TestIsLoopbackHost(t *testing.T) {
	for h, want := range map[string]bool{
		"127.0.0.1": true, "localhost": true, "LocalHost": true, "::1": true, "[::1]": true,
		"127.0.0.2": false, "127.1": false, "0:0:0:0:0:0:0:1": false, "localhost.": false,
		"0.0.0.0": false, "": false, "app.localhost": false,
	} {
		if got := IsLoopbackHost(h); got != want {
			t.Errorf("IsLoopbackHost(%q) = %v", h, got)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"https://app.example", "http://[::1]:80", "HTTP://A:1/", "https://x.", "http://127.1:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := Parse(s)
		if err != nil {
			return
		}
		// A parsed origin's string form parses to itself and is in
		// writer form.
		again, err := Parse(o.String())
		if err != nil || again != o {
			t.Fatalf("Parse(%q) = %v; its string %q parses to %v, %v", s, o, o.String(), again, err)
		}
		if p, msg := Check(o.String()); p == Malformed {
			t.Fatalf("normalized %q is malformed: %s", o.String(), msg)
		}
		if u, _ := url.Parse(o.String()); u != nil {
			if via, ok := OfURL(u); !ok || via != o {
				t.Fatalf("OfURL(%q) = %v, %v; want %v", o.String(), via, ok, o)
			}
		}
	})
}
