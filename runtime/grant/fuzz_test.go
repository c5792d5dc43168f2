package grant_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/vera-run/vera/runtime/grant"
)

// FuzzParseEnv: any six values either parse into a ceiling that
// validates, or fail with an error wrapping ErrCeiling; never a panic.
func FuzzParseEnv(f *testing.F) {
	f.Add("true", `["/usr/bin"]`, `["http://127.0.0.1:9222"]`, `["https://a.example.com"]`, `["PIN"]`, "false")
	f.Add("", "", "", "", "", "")
	f.Add("yes", `[1]`, `["http://localhost:*"]`, `["http://[::1]:*"]`, `["A","A"]`, "true")
	f.Add("true", `["/a/../b"]`, `["ws://127.0.0.1:1/x"]`, `null`, `{}`, "TRUE")
	f.Fuzz(func(t *testing.T, enabled, roots, endpoints, origins, envs, auto string) {
		m := map[string]string{grant.EnvEnabled: enabled, grant.EnvExecutableRoots: roots, grant.EnvCDPEndpoints: endpoints,
			grant.EnvAllowedOrigins: origins, grant.EnvAllowedEnv: envs, grant.EnvAutoGrant: auto}
		c, err := grant.ParseEnv(env(m))
		if err != nil {
			if !errors.Is(err, grant.ErrCeiling) {
				t.Fatalf("error %v does not wrap ErrCeiling", err)
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("a parsed ceiling does not validate: %v", err)
		}
	})
}

// FuzzParse: a grant document either parses, validates and survives a
// round trip (JSON, Parse, same canonical bytes and digest), or fails
// with ErrInvalidGrant; never a panic.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"auto":false,"env":[],"executable":"/usr/bin/chromium","execution_hash":"` + hashA + `","mode":"launch","network_class":"loopback","origins":["http://127.0.0.1:4010"],"schema":"browser-grant/v1"}`))
	f.Add([]byte(`{"auto":true,"endpoint":"ws://127.0.0.1:9222/devtools/browser/x","env":["PIN"],"execution_hash":"` + hashB + `","mode":"connect","network_class":"public","origins":["https://a.example.com"],"schema":"browser-grant/v1"}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`[`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		g, err := grant.Parse(raw)
		if err != nil {
			if !errors.Is(err, grant.ErrInvalidGrant) {
				t.Fatalf("error %v does not wrap ErrInvalidGrant", err)
			}
			return
		}
		if g.Checked() {
			t.Fatal("a parsed grant is checked")
		}
		out, err := g.JSON()
		if err != nil {
			t.Fatalf("JSON of a parsed grant: %v", err)
		}
		g2, err := grant.Parse(out)
		if err != nil {
			t.Fatalf("reparse: %v", err)
		}
		out2, _ := g2.JSON()
		d1, err1 := g.Digest()
		d2, err2 := g2.Digest()
		if !bytes.Equal(out, out2) || err1 != nil || err2 != nil || d1 != d2 {
			t.Fatalf("round trip differs: %s / %s", out, out2)
		}
	})
}
