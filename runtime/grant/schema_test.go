package grant_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/vera-run/vera/runtime/grant"
)

// The schema lists exactly the grant's members, accepts what Vera writes
// and refuses the structural mistakes.
func TestJSONSchema(t *testing.T) {
	raw := grant.JSONSchema()
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	var props struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(raw, &props); err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for k := range props.Properties {
		got = append(got, k)
	}
	for f := range reflect.TypeFor[grant.Grant]().Fields() {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && name != "-" {
			want = append(want, name)
		}
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("schema members %v, Go members %v", got, want)
	}
	root := t.TempDir()
	bin := exe(t, root, "chrome")
	c := &grant.Ceiling{Enabled: true, ExecutableRoots: []string{root}, CDPEndpoints: []string{"http://127.0.0.1:9222"}, AllowedOrigins: []string{"http://127.0.0.1:*"}}
	for _, tg := range []grant.Target{grant.LaunchTarget(bin), grant.ConnectTarget("ws://127.0.0.1:9222/devtools/browser/x")} {
		g, err := c.Grant(grant.Request{Target: tg, ExecutionHash: hashA, Origins: []string{"http://127.0.0.1:4010"}})
		if err != nil {
			t.Fatal(err)
		}
		doc, _ := g.JSON()
		var v any
		if err := json.Unmarshal(doc, &v); err != nil {
			t.Fatal(err)
		}
		if err := rs.Validate(v); err != nil {
			t.Errorf("%s: the schema refuses what Vera writes: %v", tg, err)
		}
		m := v.(map[string]any)
		for name, edit := range map[string]func(map[string]any){
			"unknown member": func(m map[string]any) { m["extra"] = 1 },
			"no origins":     func(m map[string]any) { m["origins"] = []any{} },
			"bad class":      func(m map[string]any) { m["network_class"] = "internet" },
			"both targets":   func(m map[string]any) { m["executable"] = "/x"; m["endpoint"] = "http://127.0.0.1:1" },
			"bad hash":       func(m map[string]any) { m["execution_hash"] = "sha256:x" },
		} {
			cp := map[string]any{}
			for k, x := range m {
				cp[k] = x
			}
			edit(cp)
			if err := rs.Validate(cp); err == nil {
				t.Errorf("%s: %s accepted", tg, name)
			}
		}
	}
}
