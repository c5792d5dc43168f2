package strictjson_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/strictjson"
)

type inner struct {
	Name  string `json:"name"`
	Count int32  `json:"count,omitempty"`
}

type Embedded struct {
	Role string `json:"role"`
}

type doc struct {
	Schema   string            `json:"schema"`
	Hash     string            `json:"evidence_hash"`
	Size     int64             `json:"size"`
	Ratio    float64           `json:"ratio,omitempty"`
	Ok       bool              `json:"ok,omitempty"`
	Items    []inner           `json:"items,omitempty"`
	Ptr      *inner            `json:"ptr,omitempty"`
	Labels   map[string]inner  `json:"labels,omitempty"`
	Raw      json.RawMessage   `json:"raw,omitempty"`
	Any      any               `json:"any,omitempty"`
	Small    uint8             `json:"small,omitempty"`
	Skip     string            `json:"-"`
	Untagged string            `json:",omitempty"`
	Texts    map[string]string `json:"texts,omitzero"`
	Embedded
	hidden string
}

func TestDecode(t *testing.T) {
	const base = `"schema":"s/v1","evidence_hash":"h","size":1`
	tests := []struct {
		name string
		doc  string
		kind strictjson.Kind
		path string
	}{
		{name: "ok", doc: `{` + base + `}`},
		{name: "ok with everything", doc: `{` + base + `,"ratio":1.5,"ok":true,"items":[{"name":"a","count":2}],"ptr":{"name":"b"},` +
			`"labels":{"x":{"name":"c"}},"raw":{"ANY":[1]},"any":{"Whatever":1},"small":255,"Untagged":"u","texts":{"K":"v"},"role":"r"}`},
		{name: "nulls", doc: `{` + base + `,"items":null,"ptr":null,"labels":{"x":null},"role":null}`},
		{name: "upper-case schema", doc: `{"SCHEMA":"s/v1","evidence_hash":"h","size":1}`, kind: strictjson.KindUnknownMember, path: "SCHEMA"},
		{name: "mixed-case member", doc: `{"schema":"s/v1","Evidence_Hash":"h","size":1}`, kind: strictjson.KindUnknownMember, path: "Evidence_Hash"},
		{name: "both cases", doc: `{"schema":"s/v1","Schema":"x","evidence_hash":"h","size":1}`, kind: strictjson.KindUnknownMember, path: "Schema"},
		{name: "case in an array element", doc: `{` + base + `,"items":[{"name":"a"},{"NAME":"b"}]}`, kind: strictjson.KindUnknownMember, path: "items[1].NAME"},
		{name: "case in a map value", doc: `{` + base + `,"labels":{"x":{"Name":"c"}}}`, kind: strictjson.KindUnknownMember, path: "labels.x.Name"},
		{name: "case of a promoted member", doc: `{` + base + `,"Role":"r"}`, kind: strictjson.KindUnknownMember, path: "Role"},
		{name: "Go name of a tagged field", doc: `{` + base + `,"Hash":"h"}`, kind: strictjson.KindUnknownMember, path: "Hash"},
		{name: "dash field", doc: `{` + base + `,"Skip":"x"}`, kind: strictjson.KindUnknownMember, path: "Skip"},
		{name: "unexported field", doc: `{` + base + `,"hidden":"x"}`, kind: strictjson.KindUnknownMember, path: "hidden"},
		{name: "embedded struct name", doc: `{` + base + `,"Embedded":{}}`, kind: strictjson.KindUnknownMember, path: "Embedded"},
		{name: "unknown member", doc: `{` + base + `,"extra":1}`, kind: strictjson.KindUnknownMember, path: "extra"},
		{name: "secret-shaped name withheld", doc: `{` + base + `,"ghp_aB3dE5aB3dE5aB3dE5aB3dE5aB3dE5aB3dE5":1}`, kind: strictjson.KindUnknownMember, path: ""},
		{name: "duplicate key", doc: `{` + base + `,"size":2}`, kind: strictjson.KindDuplicateKey},
		{name: "escaped duplicate", doc: `{` + base + `,"\u0073ize":2}`, kind: strictjson.KindDuplicateKey},
		{name: "trailing data", doc: `{` + base + `} {}`, kind: strictjson.KindTrailingData},
		{name: "invalid UTF-8", doc: "{" + base + `,"role":"` + "\xff" + `"}`, kind: strictjson.KindSyntax},
		{name: "empty", doc: ``, kind: strictjson.KindSyntax},
		{name: "string for integer", doc: `{"schema":"s/v1","evidence_hash":"h","size":"1"}`, kind: strictjson.KindWrongType, path: "size"},
		{name: "fraction for integer", doc: `{"schema":"s/v1","evidence_hash":"h","size":1.5}`, kind: strictjson.KindWrongType, path: "size"},
		{name: "exponent for integer", doc: `{"schema":"s/v1","evidence_hash":"h","size":1e2}`, kind: strictjson.KindWrongType, path: "size"},
		{name: "int32 overflow", doc: `{` + base + `,"items":[{"name":"a","count":2147483648}]}`, kind: strictjson.KindWrongType, path: "items[0].count"},
		{name: "uint8 overflow", doc: `{` + base + `,"small":256}`, kind: strictjson.KindWrongType, path: "small"},
		{name: "negative uint", doc: `{` + base + `,"small":-1}`, kind: strictjson.KindWrongType, path: "small"},
		{name: "number for string", doc: `{"schema":1,"evidence_hash":"h","size":1}`, kind: strictjson.KindWrongType, path: "schema"},
		{name: "object for array", doc: `{` + base + `,"items":{}}`, kind: strictjson.KindWrongType, path: "items"},
		{name: "array for object", doc: `{` + base + `,"ptr":[]}`, kind: strictjson.KindWrongType, path: "ptr"},
		{name: "string for bool", doc: `{` + base + `,"ok":"true"}`, kind: strictjson.KindWrongType, path: "ok"},
		{name: "string for float", doc: `{` + base + `,"ratio":"1"}`, kind: strictjson.KindWrongType, path: "ratio"},
		{name: "top-level array", doc: `[]`, kind: strictjson.KindWrongType, path: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d doc
			err := strictjson.Decode([]byte(tt.doc), &d)
			if tt.kind == "" {
				if err != nil {
					t.Fatalf("Decode: %v", err)
				}
				return
			}
			var e *strictjson.Error
			if !errors.As(err, &e) {
				t.Fatalf("Decode = %v, want a *strictjson.Error of kind %s", err, tt.kind)
			}
			if e.Kind != tt.kind || e.Path != tt.path {
				t.Fatalf("Decode = %s at %q (%v), want %s at %q", e.Kind, e.Path, err, tt.kind, tt.path)
			}
			if strings.Contains(err.Error(), "ghp_") {
				t.Fatalf("error echoes a secret-shaped name: %v", err)
			}
		})
	}
}

func TestDecodeValues(t *testing.T) {
	var d doc
	raw := `{"schema":"s/v1","evidence_hash":"h","size":9007199254740991,"any":12.50,"role":"r","Untagged":"u","raw":{"b":1}}`
	if err := strictjson.Decode([]byte(raw), &d); err != nil {
		t.Fatal(err)
	}
	if d.Size != 1<<53-1 || d.Role != "r" || d.Untagged != "u" || string(d.Raw) != `{"b":1}` {
		t.Fatalf("decoded %+v", d)
	}
	if n, ok := d.Any.(json.Number); !ok || n != "12.50" {
		t.Fatalf("any = %#v, want the exact json.Number", d.Any)
	}
}

func TestDecodeTarget(t *testing.T) {
	var d doc
	if err := strictjson.Decode([]byte(`{}`), d); err == nil {
		t.Fatal("a non-pointer target was accepted")
	}
	if err := strictjson.Decode([]byte(`{}`), (*doc)(nil)); err == nil {
		t.Fatal("a nil pointer target was accepted")
	}
}

func TestSyntaxErrorWrapsCanonjson(t *testing.T) {
	err := strictjson.Decode([]byte(`{"a":1,"a":2}`), new(map[string]int))
	if !errors.Is(err, canonjson.ErrDuplicateKey) {
		t.Fatalf("err = %v, want it to wrap canonjson.ErrDuplicateKey", err)
	}
	var e *strictjson.Error
	if !errors.As(err, &e) || e.Offset < 0 {
		t.Fatalf("err = %#v, want an offset", err)
	}
}

func TestMember(t *testing.T) {
	d, err := strictjson.Parse([]byte(`{"SCHEMA":"x","b":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := d.Member("schema"); ok {
		t.Fatal(`Member("schema") matched "SCHEMA"`)
	}
	if v, ok := d.Member("b"); !ok || v != json.Number("1") {
		t.Fatalf(`Member("b") = %v, %v`, v, ok)
	}
	if string(d.Canonical()) != `{"SCHEMA":"x","b":1}` {
		t.Fatalf("Canonical = %s", d.Canonical())
	}
	a, err := strictjson.Parse([]byte(`[1]`))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := a.Member("schema"); ok {
		t.Fatal("Member on an array")
	}
}

func TestCheckReportsEveryProblem(t *testing.T) {
	d, err := strictjson.Parse([]byte(`{"Schema":"x","size":"1","items":[{"Name":"a"},{"name":2}],"zz":true}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range strictjson.Check(d.Value(), reflect.TypeFor[doc]()) {
		got = append(got, string(e.Kind)+"@"+e.Path)
	}
	want := []string{"unknown_member@Schema", "unknown_member@items[0].Name", "wrong_type@items[1].name", "wrong_type@size", "unknown_member@zz"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Check = %v, want %v", got, want)
	}
}

func TestMissing(t *testing.T) {
	d, err := strictjson.Parse([]byte(`{"schema":"x","items":[{"count":1}],"ptr":{"name":"n"},"ZZ":1}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range strictjson.Missing(d.Value(), reflect.TypeFor[doc]()) {
		if e.Kind != strictjson.KindMissingMember {
			t.Fatalf("Missing returned %v", e)
		}
		got = append(got, e.Path)
	}
	want := []string{"items[0].name", "evidence_hash", "size", "role"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Missing = %v, want %v", got, want)
	}
}

// Ambiguous promoted fields follow encoding/json: the shallowest wins, a
// tagged field wins a tie, an unresolved tie is no member.
func TestPromotion(t *testing.T) {
	type A struct {
		X string `json:"x"`
		Y string
		Z string
	}
	type B struct {
		X string
		Y string `json:"Y"`
		Z string
	}
	type top struct {
		A
		B
		W string `json:"w"`
	}
	var v top
	if err := strictjson.Decode([]byte(`{"x":"1","Y":"2","w":"3"}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.A.X != "1" || v.B.Y != "2" || v.W != "3" {
		t.Fatalf("decoded %+v", v)
	}
	var e *strictjson.Error
	if err := strictjson.Decode([]byte(`{"Z":"1"}`), &v); !errors.As(err, &e) || e.Kind != strictjson.KindUnknownMember {
		t.Fatalf("ambiguous Z: %v", err)
	}
}
