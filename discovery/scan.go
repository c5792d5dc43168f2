package discovery

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/internal/strictjson"
)

// errTooLarge is wrapped when a document exceeds its size limit.
var errTooLarge = errors.New("document exceeds its size limit")

// errSchema is wrapped when the schema field is missing or wrong.
var errSchema = errors.New("unsupported schema")

// strictDecode reads one document of the given schema strictly, through
// internal/strictjson as capability.ParseBytes does: at most limit bytes,
// valid UTF-8 JSON without duplicate keys or trailing data, the exact
// schema string in the member named exactly "schema", no unknown member
// (names match exactly, case included: "SCHEMA" or "Evidence_Hash" are
// unknown) and values of the declared JSON types. The cause is a
// *strictjson.Error when the text or its members are at fault.
func strictDecode(raw []byte, schema string, limit int, v any) error {
	fail := func(err error) error { return &ParseError{Schema: schema, Err: err} }
	if len(raw) > limit {
		return fail(fmt.Errorf("%w (%d bytes)", errTooLarge, limit))
	}
	doc, err := strictjson.Parse(raw)
	if err != nil {
		return fail(err)
	}
	s, present := doc.Member("schema")
	if !present || s == nil {
		return fail(fmt.Errorf("%w: missing schema field", errSchema))
	}
	if s != schema {
		return fail(fmt.Errorf("%w: want %q", errSchema, schema))
	}
	if err := doc.Decode(v); err != nil {
		return fail(err)
	}
	return nil
}

// exemptString reports whether a string is exempt from the identifier
// check because of its shape: a sha256 digest, an acceptable origin or an
// RFC 3339 timestamp. Digests are hexadecimal runs the token detector
// would flag; origins and timestamps are boundaries and metadata, not
// page content.
func exemptString(s string) bool {
	if canonjson.ValidDigest(s) || capability.CheckOrigin(s) == nil {
		return true
	}
	_, ok := parseTime(s)
	return ok
}

// scanContent adds a problem for every secret-shaped string of the JSON
// document raw (redact.ScanJSON: values, member names and
// credential-named members) and for every string holding an
// identifier-shaped substring (redact.ContainsIdentifier), except the
// exempt shapes. Problems name the path and kind, never the value.
func scanContent(raw []byte, ps *problems) {
	for _, f := range redact.ScanJSON(raw) {
		where := "value"
		if f.InKey {
			where = "member name"
		}
		ps.add(f.Path, CodeSecret, "a secret-shaped %s (%s)", where, f.Kind)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return
	}
	walkStrings(v, "", func(path string, s string, key bool) {
		if key || !exemptString(s) {
			if ms := redact.FindIdentifiers(s); len(ms) > 0 {
				what := "value"
				if key {
					what = "member name"
				}
				ps.add(path, CodeIdentifier, "a %s holds an identifier-shaped substring (%s)", what, ms[0].Kind)
			}
		}
	})
}

// walkStrings calls fn for every member name and string value of v, with
// its path; object members are visited in sorted order.
func walkStrings(v any, path string, fn func(path, s string, key bool)) {
	switch t := v.(type) {
	case string:
		fn(path, t, false)
	case []any:
		for i, e := range t {
			walkStrings(e, path+"["+strconv.Itoa(i)+"]", fn)
		}
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			seg := k
			if _, secret := redact.FindSecret(k); secret || redact.ContainsIdentifier(k) {
				seg = "[" + Marker + "]" // never echo the name in a path
			}
			p := seg
			if path != "" {
				p = path + "." + seg
			}
			fn(p, k, true)
			walkStrings(t[k], p, fn)
		}
	}
}
