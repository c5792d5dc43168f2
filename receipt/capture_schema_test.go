package receipt_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/receipt"
)

// TestCaptureSchema: the schema lists exactly the members of the Go
// types, accepts what the writer writes and refuses structural breaks.
func TestCaptureSchema(t *testing.T) {
	var s jsonschema.Schema
	if err := json.Unmarshal(receipt.CaptureSchema(), &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	members := func(typ reflect.Type) []string {
		var out []string
		for f := range typ.Fields() {
			n, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			out = append(out, n)
		}
		slices.Sort(out)
		return out
	}
	props := func(s *jsonschema.Schema) []string {
		var out []string
		for k := range s.Properties {
			out = append(out, k)
		}
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		s   *jsonschema.Schema
		typ reflect.Type
	}{
		{&s, reflect.TypeFor[receipt.Capture]()},
		{s.Properties["context"], reflect.TypeFor[receipt.CaptureContext]()},
		{s.Properties["policy"], reflect.TypeFor[receipt.CapturePolicy]()},
		{s.Properties["totals"], reflect.TypeFor[receipt.CaptureTotals]()},
		{s.Defs["step"], reflect.TypeFor[receipt.CaptureStep]()},
		{s.Defs["section"], reflect.TypeFor[receipt.CaptureSection]()},
		{s.Defs["events"], reflect.TypeFor[receipt.CaptureEvents]()},
		{s.Defs["event"], reflect.TypeFor[receipt.CaptureEvent]()},
	} {
		if got, want := props(c.s), members(c.typ); !slices.Equal(got, want) {
			t.Errorf("%s: schema members %v, Go members %v", c.typ.Name(), got, want)
		}
	}
	run := cleanRun(t, testCapability(), nil)
	raw, err := canonjson.Marshal(captureFor(run))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if err := rs.Validate(doc); err != nil {
		t.Fatalf("the writer's capture fails its schema: %v", err)
	}
	for name, edit := range map[string]func(m map[string]any){
		"unknown member": func(m map[string]any) { m["extra"] = 1 },
		"wrong schema":   func(m map[string]any) { m["schema"] = "browser-run-capture/v2" },
		"bad state":      func(m map[string]any) { m["initial"].(map[string]any)["dom"].(map[string]any)["state"] = "partial" },
		"no steps":       func(m map[string]any) { delete(m, "steps") },
	} {
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		edit(m)
		if err := rs.Validate(m); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
