package canonjson_test

import (
	"errors"
	"fmt"

	"github.com/vera-run/vera/internal/canonjson"
)

func ExampleTransform() {
	out, err := canonjson.Transform([]byte(`{
		"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, -0],
		"string": "\u20ac<\/>\u000f",
		"b": true, "a": null
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	// Output:
	// {"a":null,"b":true,"numbers":[333333333.3333333,1e+30,4.5,0.002,0],"string":"€</>\u000f"}
}

func ExampleTransform_errors() {
	for _, in := range []string{
		`{"id":1,"\u0069d":2}`,
		`{"id":9007199254740993}`,
		`"\ud800"`,
		`{"a":1} {}`,
	} {
		_, err := canonjson.Transform([]byte(in))
		var se *canonjson.SyntaxError
		if errors.As(err, &se) {
			fmt.Println(se.Offset, errors.Is(err, canonjson.ErrDuplicateKey),
				errors.Is(err, canonjson.ErrUnsafeInteger),
				errors.Is(err, canonjson.ErrLoneSurrogate),
				errors.Is(err, canonjson.ErrTrailingData))
		}
	}
	// Output:
	// 8 true false false false
	// 6 false true false false
	// 1 false false true false
	// 8 false false false true
}

func ExampleMarshal() {
	type step struct {
		ID     string `json:"id"`
		Status string `json:"status"`
		Ms     int    `json:"elapsed_ms"`
		Note   string `json:"note,omitempty"`
	}
	out, err := canonjson.Marshal(step{ID: "s1", Status: "passed", Ms: 120})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(out))
	// Output:
	// {"elapsed_ms":120,"id":"s1","status":"passed"}
}

func ExampleDigest() {
	d, err := canonjson.Digest(map[string]any{"b": 2, "a": 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	same, _ := canonjson.DigestBytes([]byte(`{ "a": 1.0, "b": 2 }`))
	fmt.Println(d)
	fmt.Println(d == same, d == canonjson.SumBytes([]byte(`{"a":1,"b":2}`)))
	// Output:
	// sha256:43258cff783fe7036d8a43033f830adfc60ec037382473548ac742b888292777
	// true true
}

func ExampleSumBytes() {
	fmt.Println(canonjson.SumBytes([]byte("hello\n")))
	// Output:
	// sha256:5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03
}

func ExampleParseDigest() {
	h, err := canonjson.ParseDigest("sha256:5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03")
	fmt.Printf("%x %v\n", h[:4], err)
	fmt.Println(canonjson.ValidDigest("sha256:5891B5B522D5DF086D0FF0B110FBD9D21BB4FC7163AF34D08286A2E846F6BE03"))
	// Output:
	// 5891b5b5 <nil>
	// false
}
