package jsonptr

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

func TestJSONPointerEval(t *testing.T) {
	// The RFC 6901 section 5 document.
	doc := `{"foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8, "pet": {"name": "Pet not found"}}`
	tests := []struct {
		ptr  string
		want any
		err  error
	}{
		{"/foo/0", "bar", nil},
		{"/", json.Number("0"), nil},
		{"/a~1b", json.Number("1"), nil},
		{"/m~0n", json.Number("8"), nil},
		{"/ ", json.Number("7"), nil},
		{"/k\"l", json.Number("6"), nil},
		{"/pet/name", "Pet not found", nil},
		{"/foo/2", nil, ErrMissing},
		{"/foo/-", nil, ErrMissing},
		{"/foo/01", nil, ErrMissing},
		{"/nope", nil, ErrMissing},
		{"/pet/name/x", nil, ErrMissing},
		{"foo", nil, ErrSyntax},
		{"/m~2n", nil, ErrSyntax},
		{"/m~", nil, ErrSyntax},
	}
	for _, tt := range tests {
		got, err := Eval(doc, tt.ptr)
		if !errors.Is(err, tt.err) || tt.err == nil && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Eval(%q) = %#v, %v; want %#v, %v", tt.ptr, got, err, tt.want, tt.err)
		}
	}
	if whole, err := Eval(`[1]`, ""); err != nil || !reflect.DeepEqual(whole, []any{json.Number("1")}) {
		t.Errorf("Eval of the whole document = %#v, %v", whole, err)
	}
	for _, bad := range []string{"", "Pet not found", `{"a":1} {"b":2}`, `{"a":`} {
		if _, err := Eval(bad, "/a"); !errors.Is(err, ErrNotJSON) {
			t.Errorf("Eval(%q) err = %v, want ErrNotJSON", bad, err)
		}
	}
}

func FuzzJSONPointer(f *testing.F) {
	f.Add(`{"a":[1,{"b":"c"}]}`, "/a/1/b")
	f.Add(`[]`, "/~")
	f.Fuzz(func(t *testing.T, text, ptr string) {
		_, _ = Eval(text, ptr)
		_, _ = Parse(ptr)
	})
}
