package capability

import (
	"reflect"
	"sync"

	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/internal/strictjson"
	"github.com/vera-run/vera/locator"
)

var candidateType = reflect.TypeOf(locator.Candidate{})

// enumValid reports, for the closed string types of the model, whether a
// value is one of the enum's members. A member is a fixed word and never a
// literal worth scanning; anything else is scanned like any string.
var enumValid = map[reflect.Type]func(string) bool{
	reflect.TypeOf(State("")):            func(s string) bool { return State(s).Rank() >= 0 },
	reflect.TypeOf(Effect("")):           func(s string) bool { return Effect(s).Valid() },
	reflect.TypeOf(Confirmation("")):     func(s string) bool { return Confirmation(s).valid() },
	reflect.TypeOf(Operation("")):        func(s string) bool { return Operation(s).valid() },
	reflect.TypeOf(InputType("")):        func(s string) bool { return InputType(s).valid() },
	reflect.TypeOf(OutputKind("")):       func(s string) bool { return OutputKind(s).valid() },
	reflect.TypeOf(Exposure("")):         func(s string) bool { return Exposure(s).valid() },
	reflect.TypeOf(FieldType("")):        func(s string) bool { return knownFieldType(FieldType(s)) },
	reflect.TypeOf(ConditionKind("")):    func(s string) bool { return ConditionKind(s).valid() },
	reflect.TypeOf(ConditionScope("")):   func(s string) bool { return ConditionScope(s).valid() },
	reflect.TypeOf(ExtractMode("")):      func(s string) bool { return ExtractMode(s).valid() },
	reflect.TypeOf(ReadKind("")):         func(s string) bool { return s == "" || s == "text" || s == "value" || s == "attribute" },
	reflect.TypeOf(locator.Strategy("")): func(s string) bool { return locator.Strategy(s).Valid() },
}

func (t InputType) valid() bool {
	switch t {
	case InputString, InputInteger, InputNumber, InputBoolean, InputDate, InputEnum:
		return true
	}
	return false
}

// scanField is the literal-scan plan of one struct member.
type scanField struct {
	name   string
	index  int
	kind   scanKind
	enum   func(string) bool // for scanEnum
	marker bool              // the redaction marker is checked here (not by package locator)
	role   bool              // locator.Candidate.Role: ARIA role names are fixed words
}

type scanKind uint8

const (
	scanSkip    scanKind = iota // numbers, booleans: nothing to scan
	scanString                  // string
	scanEnum                    // closed string type
	scanStrings                 // []string
	scanRaw                     // json.RawMessage
	scanStruct                  // struct
	scanPtr                     // *struct
	scanStructs                 // []struct
	scanStrPtr                  // *string (an optional literal such as a seeded public value)
)

var scanPlans sync.Map // reflect.Type -> []scanField

func scanPlan(t reflect.Type) []scanField {
	if v, ok := scanPlans.Load(t); ok {
		return v.([]scanField)
	}
	var plan []scanField
	cand := t == candidateType
	for _, f := range infoOf(t).fields {
		sf := scanField{name: f.name, index: f.index, marker: !cand || f.name == "note", role: cand && f.name == "role"}
		ft := f.typ
		switch {
		case ft == rawMessageType:
			sf.kind = scanRaw
		case ft.Kind() == reflect.String && enumValid[ft] != nil:
			sf.kind, sf.enum = scanEnum, enumValid[ft]
		case ft.Kind() == reflect.String:
			sf.kind = scanString
		case ft.Kind() == reflect.Struct:
			sf.kind = scanStruct
		case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct:
			sf.kind = scanPtr
		case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.String:
			sf.kind = scanStrPtr
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.String:
			sf.kind = scanStrings
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
			sf.kind = scanStructs
		}
		if sf.kind != scanSkip {
			plan = append(plan, sf)
		}
	}
	v, _ := scanPlans.LoadOrStore(t, plan)
	return v.([]scanField)
}

// literals scans every string of the document (names, goals,
// descriptions, values, locators, urls, defaults) for credential-shaped
// content and for the discovery redaction marker. Credential values are
// never echoed. Inside locator candidates the marker is reported by package
// locator instead. Members of closed enums and known ARIA roles are fixed
// words and are skipped.
func (v *validation) literals() {
	segs := make([]strictjson.PathSeg, 0, 16)
	v.scanStruct(reflect.ValueOf(v.c).Elem(), segs)
}

func (v *validation) scanStruct(val reflect.Value, segs []strictjson.PathSeg) {
	for _, f := range scanPlan(val.Type()) {
		fv := val.Field(f.index)
		p := append(segs, strictjson.PathSeg{Name: f.name})
		switch f.kind {
		case scanString:
			s := fv.String()
			if f.role && locator.KnownRole(s) {
				continue
			}
			v.literal(p, s, f.marker)
		case scanEnum:
			if s := fv.String(); !f.enum(s) {
				v.literal(p, s, f.marker)
			}
		case scanRaw:
			v.literal(p, string(fv.Bytes()), f.marker)
		case scanStrings:
			for i := 0; i < fv.Len(); i++ {
				v.literal(append(p, strictjson.PathSeg{Index: i}), fv.Index(i).String(), f.marker)
			}
		case scanStruct:
			v.scanStruct(fv, p)
		case scanPtr:
			if !fv.IsNil() {
				v.scanStruct(fv.Elem(), p)
			}
		case scanStrPtr:
			if !fv.IsNil() {
				v.literal(p, fv.Elem().String(), f.marker)
			}
		case scanStructs:
			for i := 0; i < fv.Len(); i++ {
				v.scanStruct(fv.Index(i), append(p, strictjson.PathSeg{Index: i}))
			}
		}
	}
}

func (v *validation) literal(segs []strictjson.PathSeg, s string, checkMarker bool) {
	v.characters(segs, s)
	if checkMarker && hasMarkerPart(s) {
		v.add(at(strictjson.Path(segs)), CodeRedactionMarker,
			"the discovery redaction marker (or a part of it) is evidence of redaction, never a literal value", "")
	}
	if len(s) < 5 {
		return // too short for a credential
	}
	if _, secret := redact.FindSecret(s); secret {
		v.add(at(strictjson.Path(segs)), CodeCredentialLiteral,
			"a credential-shaped value (token, key, password or session URL); a capability holds references, never secrets", "")
	}
}
