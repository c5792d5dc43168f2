package capability

import (
	"reflect"
	"strconv"
	"strings"

	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/locator"
)

var candidateType = reflect.TypeOf(locator.Candidate{})

// pathSeg is one step of a JSON path: a member name, or an index when name
// is empty.
type pathSeg struct {
	name  string
	index int
}

func renderPath(segs []pathSeg) string {
	var b strings.Builder
	for _, s := range segs {
		if s.name == "" {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.index))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.name)
	}
	return b.String()
}

// literals scans every string of the document (names, goals,
// descriptions, values, locators, urls, defaults) for credential-shaped
// content and for the discovery redaction marker. Credential values are
// never echoed. Inside locator candidates the marker is reported by package
// locator instead.
func (v *validation) literals() {
	segs := make([]pathSeg, 0, 16)
	v.walkStrings(reflect.ValueOf(v.c).Elem(), segs, false)
}

func (v *validation) walkStrings(val reflect.Value, segs []pathSeg, inCandidate bool) {
	switch val.Kind() {
	case reflect.Pointer:
		if !val.IsNil() {
			v.walkStrings(val.Elem(), segs, inCandidate)
		}
	case reflect.Struct:
		si := infoOf(val.Type())
		cand := val.Type() == candidateType
		for _, f := range si.fields {
			fv := val.Field(f.index)
			markerChecked := cand && f.name != "note"
			v.walkStrings(fv, append(segs, pathSeg{name: f.name}), markerChecked)
		}
	case reflect.Slice:
		if val.Type() == rawMessageType {
			v.literal(segs, string(val.Bytes()), inCandidate)
			return
		}
		for i := 0; i < val.Len(); i++ {
			v.walkStrings(val.Index(i), append(segs, pathSeg{index: i}), inCandidate)
		}
	case reflect.String:
		v.literal(segs, val.String(), inCandidate)
	}
}

func (v *validation) literal(segs []pathSeg, s string, markerChecked bool) {
	if len(s) < 5 {
		return // too short for either check
	}
	if _, secret := redact.FindSecret(s); secret {
		v.add(at(renderPath(segs)), CodeCredentialLiteral,
			"a credential-shaped value (token, key, password or session URL); a capability holds references, never secrets", "")
	}
	if !markerChecked && strings.Contains(s, redact.Marker) {
		v.add(at(renderPath(segs)), CodeRedactionMarker,
			"the discovery redaction marker is evidence of redaction, never a literal value", "")
	}
}
