package canonjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func FuzzTransform(f *testing.F) {
	seeds := []string{
		``, `null`, `true`, `-0`, `1E30`, `1e400`, `9007199254740993`, `0.000001`,
		`"\ud83d\ude02"`, `"\ud800"`, `"\udc00x"`, "\"\xff\"", `"\u0000\u007f\u2028"`,
		`{"b":1,"a":[1,{"d":null,"c":"x"}]}`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`,
		"{\"\uE000\":1,\"\U00010000\":2}", `[1,]`, `{"a" 1}`, `01`, `[[[[[]]]]]`, `{} x`,
		`{"\u20ac":"Euro Sign","\r":"Carriage Return","1":"One"}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	for _, dir := range []string{"input", "output"} {
		files, _ := filepath.Glob(filepath.Join("testdata", "jcs", dir, "*.json"))
		for _, name := range files {
			if b, err := os.ReadFile(name); err == nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := Transform(in)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("error %T is not a *SyntaxError: %v", err, err)
			}
			if se.Offset < 0 || se.Offset > int64(len(in)) {
				t.Fatalf("offset %d out of range [0,%d]", se.Offset, len(in))
			}
			// Grammar errors must agree with encoding/json; our extra
			// rules come with a sentinel.
			if se.Err == nil && json.Valid(in) {
				t.Fatalf("rejected valid JSON %q with a grammar error: %v", in, err)
			}
			return
		}
		if !json.Valid(in) {
			t.Fatalf("accepted invalid JSON %q", in)
		}
		if !json.Valid(out) {
			t.Fatalf("output %q is not valid JSON", out)
		}
		var a, b any
		if err := json.Unmarshal(in, &a); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(out, &b); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("value changed: %q -> %q", in, out)
		}
		again, err := Transform(out)
		if err != nil {
			t.Fatalf("output %q rejected: %v", out, err)
		}
		if !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %q -> %q -> %q", in, out, again)
		}
	})
}

func FuzzParseDigest(f *testing.F) {
	f.Add("sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
	f.Add("sha256:E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseDigest(s)
		if err != nil {
			if ValidDigest(s) {
				t.Fatal("ValidDigest disagrees with ParseDigest")
			}
			return
		}
		if !ValidDigest(s) {
			t.Fatal("ValidDigest disagrees with ParseDigest")
		}
		// Exactly one spelling per digest.
		var want [DigestLen]byte
		copy(want[:], "sha256:")
		for i, c := range h {
			want[7+2*i] = hexDigits[c>>4]
			want[8+2*i] = hexDigits[c&0xF]
		}
		if string(want[:]) != s {
			t.Fatalf("accepted %q, canonical spelling %q", s, want)
		}
	})
}
