package capability

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

// FuzzSeedSecrets splices fuzzed "secrets" and "seed" members into the
// portal session capability. Parsing and validation never panic, and a
// capability Validate accepts keeps the rules of FORMAT 3.2.4: every
// seeded origin is allowed, every value is exactly one of public and
// secret, every reference names a declared secret, every declared secret
// is used, and no env name is malformed or reserved. No problem message
// or bad value ever quotes a public value of a credential-named entry.
func FuzzSeedSecrets(f *testing.F) {
	raw, err := os.ReadFile("testdata/valid/portal_session.json")
	if err != nil {
		f.Fatal(err)
	}
	var base map[string]json.RawMessage
	if err := json.Unmarshal(raw, &base); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(base["secrets"]), []byte(base["seed"]))
	f.Add([]byte(`[{"name":"s","env":"HOME"}]`), []byte(`{"cookies":[{"origin":"http://127.0.0.1:4050","name":"sid","value":{"public":"abc"}}]}`))
	f.Add([]byte(`[]`), []byte(`{"local_storage":[{"origin":"http://127.0.0.1:4051","key":"k","value":{}}]}`))
	f.Add([]byte(`[{"name":"a","env":"A"},{"name":"a","env":"A"}]`), []byte(`{"session_storage":[{"origin":"http://127.0.0.1:4050","key":"k","value":{"secret_ref":"b","public":""}}]}`))
	f.Fuzz(func(t *testing.T, secrets, seed []byte) {
		doc := map[string]json.RawMessage{}
		for k, v := range base {
			doc[k] = v
		}
		doc["secrets"], doc["seed"] = secrets, seed
		b, err := json.Marshal(doc)
		if err != nil {
			return // a fragment that is not JSON
		}
		c, err := ParseBytes(b)
		if err != nil {
			return
		}
		errs := c.Validate()
		for _, e := range errs {
			if c.Seed != nil {
				for _, ck := range c.Seed.Cookies {
					if ck.Value.Public != nil && len(*ck.Value.Public) >= 8 && (strings.Contains(e.Message, *ck.Value.Public) || strings.Contains(e.BadValue, *ck.Value.Public)) {
						t.Fatalf("problem %v quotes a cookie value", e)
					}
				}
			}
		}
		if len(errs) > 0 {
			return
		}
		declared := map[string]bool{}
		for _, s := range c.Secrets {
			if !ValidEnvName(s.Env) {
				t.Fatalf("accepted env %q", s.Env)
			}
			declared[s.Name] = true
		}
		used := map[string]bool{}
		c.Seed.eachValue(func(path string, v *SeedValue) {
			if (v.Public == nil) == (v.SecretRef == "") {
				t.Fatalf("accepted %s with public %v and secret %q", path, v.Public, v.SecretRef)
			}
			if v.SecretRef != "" {
				if !declared[v.SecretRef] {
					t.Fatalf("accepted undeclared %q at %s", v.SecretRef, path)
				}
				used[v.SecretRef] = true
			}
		})
		for n := range declared {
			if !used[n] {
				t.Fatalf("accepted unused secret %q", n)
			}
		}
		if c.Seed != nil {
			var origins []string
			for _, ck := range c.Seed.Cookies {
				origins = append(origins, ck.Origin)
				if ck.Value.Public != nil && !CookieValue(*ck.Value.Public) {
					t.Fatalf("accepted cookie value %q", *ck.Value.Public)
				}
			}
			for _, e := range slices.Concat(c.Seed.LocalStorage, c.Seed.SessionStorage) {
				origins = append(origins, e.Origin)
			}
			for _, o := range origins {
				if !slices.Contains(c.Site.AllowedOrigins, o) {
					t.Fatalf("accepted seed origin %q", o)
				}
			}
		}
	})
}
