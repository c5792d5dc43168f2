package capability

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"

	"github.com/vera-run/vera/locator"
)

// schemaTypes are the struct types whose validate tags shape the schema,
// by definition name ("" for the root).
var schemaTypes = map[string]reflect.Type{
	"":                reflect.TypeOf(Capability{}),
	"Provenance":      reflect.TypeOf(Provenance{}),
	"Review":          reflect.TypeOf(Review{}),
	"Site":            reflect.TypeOf(Site{}),
	"Runtime":         reflect.TypeOf(Runtime{}),
	"Authority":       reflect.TypeOf(Authority{}),
	"Privacy":         reflect.TypeOf(Privacy{}),
	"Input":           reflect.TypeOf(Input{}),
	"Output":          reflect.TypeOf(Output{}),
	"OutputField":     reflect.TypeOf(OutputField{}),
	"Milestone":       reflect.TypeOf(Milestone{}),
	"Transition":      reflect.TypeOf(Transition{}),
	"Condition":       reflect.TypeOf(Condition{}),
	"Action":          reflect.TypeOf(Action{}),
	"Extraction":      reflect.TypeOf(Extraction{}),
	"Field":           reflect.TypeOf(Field{}),
	"BusinessOutcome": reflect.TypeOf(BusinessOutcome{}),
	"OutcomeDetect":   reflect.TypeOf(OutcomeDetect{}),
	"Validation":      reflect.TypeOf(Validation{}),
	"Candidate":       reflect.TypeOf(locator.Candidate{}),
	"QueryEntry":      reflect.TypeOf(QueryEntry{}),
	"Secret":          reflect.TypeOf(Secret{}),
	"Seed":            reflect.TypeOf(Seed{}),
	"SeedCookie":      reflect.TypeOf(SeedCookie{}),
	"SeedStorage":     reflect.TypeOf(SeedStorage{}),
	"SeedValue":       reflect.TypeOf(SeedValue{}),
}

// uniqueLists are the string lists Validate rejects duplicates in.
var uniqueLists = map[string]bool{
	"Site.AllowedOrigins": true, "Site.SubresourceOrigins": true, "Privacy.DataClasses": true,
	"Input.Values": true, "Validation.Receipts": true, "Extraction.RequiredFields": true,
	"Extraction.DedupeKeys": true,
}

// generateSchema reflects the Go types with invopop/jsonschema and then
// applies the validate tags (required, lengths, bounds, enums, patterns).
func generateSchema(t *testing.T) []byte {
	t.Helper()
	r := &jsonschema.Reflector{
		DoNotReference:             false,
		ExpandedStruct:             true,
		AllowAdditionalProperties:  false,
		RequiredFromJSONSchemaTags: true, // required comes from the validate tags below
		Anonymous:                  true,
		Mapper: func(t reflect.Type) *jsonschema.Schema {
			if t == rawMessageType {
				return &jsonschema.Schema{Description: "any JSON value (type-checked against the input by Validate)"}
			}
			return nil
		},
	}
	if err := r.AddGoComments("github.com/vera-run/vera/capability", "."); err != nil {
		t.Fatal(err)
	}
	if err := r.AddGoComments("github.com/vera-run/vera/capability", "../locator"); err != nil {
		t.Fatal(err)
	}
	s := r.Reflect(&Capability{})
	s.ID = SchemaID
	s.Title = SchemaV1
	for name, typ := range schemaTypes {
		def := s
		if name != "" {
			def = s.Definitions[name]
			if def == nil {
				t.Fatalf("no definition %s", name)
			}
		}
		applyTags(t, def, typ)
	}
	requireNested(s)
	nullableLists(t, s)
	// The locator candidate: a closed strategy set and the ARIA roles.
	cand := s.Definitions["Candidate"]
	setEnum(prop(t, cand, "strategy"), strategies())
	setEnum(prop(t, cand, "role"), locator.Roles())
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

func strategies() []string {
	var out []string
	for _, s := range locator.Strategies() {
		out = append(out, string(s))
	}
	return out
}

func prop(t *testing.T, s *jsonschema.Schema, name string) *jsonschema.Schema {
	t.Helper()
	p, ok := s.Properties.Get(name)
	if !ok {
		t.Fatalf("no property %s", name)
	}
	return p
}

func setEnum(s *jsonschema.Schema, vals []string) {
	s.Enum = nil
	for _, v := range vals {
		s.Enum = append(s.Enum, v)
	}
}

func u64(s string) *uint64 {
	n, _ := strconv.ParseUint(s, 10, 64)
	return &n
}

func applyTags(t *testing.T, def *jsonschema.Schema, typ reflect.Type) {
	t.Helper()
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		tag := f.Tag.Get("validate")
		if tag == "" || tag == "-" {
			continue
		}
		p := prop(t, def, name)
		if uniqueLists[typ.Name()+"."+f.Name] {
			p.UniqueItems = true
		}
		target := p
		for _, rule := range strings.Split(tag, ",") {
			key, param, _ := strings.Cut(rule, "=")
			switch key {
			case "dive":
				target = p.Items
			case "omitempty":
			case "required", "nonblank":
				if target == p {
					def.Required = append(def.Required, name)
				}
				if key == "nonblank" {
					target.Pattern = `\S`
				}
			case "min", "max":
				switch target.Type {
				case "string":
					if key == "max" {
						target.MaxLength = u64(param)
					} else {
						target.MinLength = u64(param)
					}
				case "array":
					if key == "max" {
						target.MaxItems = u64(param)
					} else {
						target.MinItems = u64(param)
					}
				default:
					if key == "max" {
						target.Maximum = json.Number(param)
					} else {
						target.Minimum = json.Number(param)
					}
				}
			case "oneof":
				setEnum(target, strings.Fields(param))
			case "eq":
				target.Const = param
				def.Required = append(def.Required, name)
			case "capid":
				target.Pattern, target.MaxLength = IDPattern, u64(strconv.Itoa(MaxIDLen))
			case "name":
				target.Pattern, target.MaxLength = NamePattern, u64(strconv.Itoa(MaxIDLen))
			case "semver":
				target.Pattern, target.MaxLength = SemverPattern, u64(strconv.Itoa(MaxVersionLen))
			case "sha256digest":
				target.Pattern = DigestPattern
			case "origin":
				target.Pattern = OriginPattern
			case "rfc3339":
				target.Format = "date-time"
			default:
				t.Fatalf("%s.%s: validate rule %q has no schema mapping", typ.Name(), f.Name, key)
			}
		}
	}
}

// nullableLists lets the always-written list members (inputs, outputs,
// data_classes, receipts) be null, which is how Marshal writes a nil list.
func nullableLists(t *testing.T, s *jsonschema.Schema) {
	t.Helper()
	for name, typ := range schemaTypes {
		def := s
		if name != "" {
			def = s.Definitions[name]
		}
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			member, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if f.Type.Kind() != reflect.Slice || f.Type == rawMessageType || strings.Contains(opts, "omitempty") {
				continue
			}
			if slices.Contains(def.Required, member) {
				continue
			}
			p := prop(t, def, member)
			def.Properties.Set(member, &jsonschema.Schema{
				Description: p.Description,
				OneOf:       []*jsonschema.Schema{p, {Type: "null"}},
			})
			p.Description = ""
		}
	}
}

// requireNested marks a non-pointer struct member required when its own
// definition requires members (site, runtime, authority, when).
func requireNested(s *jsonschema.Schema) {
	for name, typ := range schemaTypes {
		def := s
		if name != "" {
			def = s.Definitions[name]
		}
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if f.Type.Kind() != reflect.Struct {
				continue
			}
			member, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if nested := s.Definitions[f.Type.Name()]; nested != nil && len(nested.Required) > 0 {
				def.Required = append(def.Required, member)
			}
		}
	}
}

// TestSchemaUpToDate regenerates the JSON Schema and compares it with
// schema.json; with -update it rewrites the file.
func TestSchemaUpToDate(t *testing.T) {
	got := generateSchema(t)
	if *update {
		if err := os.WriteFile("schema.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, JSONSchema()) {
		t.Fatal("schema.json is stale; run go test ./capability -run TestSchemaUpToDate -update")
	}
}
