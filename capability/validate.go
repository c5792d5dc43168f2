package capability

import (
	"errors"
	"fmt"
	"github.com/vera-run/vera/internal/textrule"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-playground/validator/v10"

	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/internal/strictjson"
)

// Validate checks the document against every rule of browser-capability/v1
// and returns every problem, each with a JSON path, a stable code and a
// message, in document order (then code). An empty list means the document
// is valid. Validate is about the document: whether its state may run at all
// is [Capability.ValidateForExecution]'s concern.
func (c *Capability) Validate() ErrorList {
	if c == nil {
		return ErrorList{{Code: CodeRequired, Message: "nil capability"}}
	}
	v := newValidation(c)
	v.identity()
	v.site()
	v.runtime()
	v.privacy()
	v.inputDecls()
	v.outputDecls()
	v.milestoneRules()
	v.framePaths()
	v.outcomes()
	v.expectations()
	v.detectWhere()
	v.inputUsage()
	v.outputUsage()
	v.flow()
	v.literals()
	v.unsubstituted()
	v.secretEnums()
	v.byteBounds()
	v.secrets() // secrets.go
	v.seed()    // seed.go
	v.errs = append(v.errs, fieldRules(c)...)
	return v.sorted()
}

// ValidateForExecution is [Capability.Validate] plus the rules that decide
// whether the capability may run at all: only authored, discovered and
// validated_local run. A scaffold or draft is reported as
// [CodeRiskyBelowDiscovered] when it is risky (it has a consequential
// action, see [Capability.Risky]: the more specific reason) and as
// [CodeStateNotExecutable] otherwise; exactly one of the two.
func (c *Capability) ValidateForExecution() ErrorList {
	errs := c.Validate()
	if c == nil {
		return errs
	}
	l := errList{errs: errs}
	if c.State.Rank() >= 0 && !c.State.Executable() {
		if c.Risky() {
			l.add(at("state"), CodeRiskyBelowDiscovered, "a capability with a consequential action runs only from state authored or discovered on (it must be reviewed)", "")
		} else {
			l.add(at("state"), CodeStateNotExecutable, fmt.Sprintf("a %s capability is not executable: only authored, discovered and validated_local run", c.State), "")
		}
	}
	return l.sorted()
}

// errList accumulates problems.
type errList struct{ errs ErrorList }

func (l *errList) add(path pth, code Code, msg, bad string) {
	l.errs = append(l.errs, &Error{Path: path.String(), Code: code, Message: safeMessage(msg), BadValue: safeBadValue(bad)})
}

// safeMessage withholds a message that quotes a credential-shaped value or
// the redaction marker (messages of package locator quote values).
func safeMessage(msg string) string {
	if _, secret := redact.FindSecret(msg); secret || strings.Contains(msg, redact.Marker) {
		return "the value breaks this rule; details withheld because it is credential-shaped or redacted"
	}
	return msg
}

// maxBadValue bounds an echoed bad value, in bytes.
const maxBadValue = 120

// safeBadValue returns s fit for [Error.BadValue]: empty when it is
// credential-shaped or holds the redaction marker, truncated otherwise.
func safeBadValue(s string) string {
	if s == "" {
		return ""
	}
	if _, secret := redact.FindSecret(s); secret || strings.Contains(s, redact.Marker) {
		return ""
	}
	if len(s) > maxBadValue {
		cut := maxBadValue
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	if !utf8.ValidString(s) {
		return ""
	}
	return s
}

func (l *errList) sorted() ErrorList {
	if len(l.errs) == 0 {
		return nil
	}
	type keyed struct {
		key []int
		e   *Error
	}
	ks := make([]keyed, len(l.errs))
	for i, e := range l.errs {
		ks[i] = keyed{pathKey(e.Path), e}
	}
	slices.SortStableFunc(ks, func(a, b keyed) int {
		if c := slices.Compare(a.key, b.key); c != 0 {
			return c
		}
		if c := strings.Compare(string(a.e.Code), string(b.e.Code)); c != 0 {
			return c
		}
		return strings.Compare(a.e.Message, b.e.Message)
	})
	out := make(ErrorList, 0, len(ks))
	for i, k := range ks {
		// Drop exact duplicates (the same rule reached twice).
		if i > 0 && *ks[i-1].e == *k.e {
			continue
		}
		out = append(out, k.e)
	}
	return out
}

// pth is a JSON path under construction (a.b[2].c). It is a value built
// without allocation; it is rendered only when a problem is reported, which
// keeps Validate cheap on valid documents.
type pth struct {
	base string // rendered prefix
	segs [maxPathSegs]strictjson.PathSeg
	n    int
}

const maxPathSegs = 12

// at starts a path from a rendered prefix such as "provenance.review".
func at(s string) pth { return pth{base: s} }

func (p pth) push(s strictjson.PathSeg) pth {
	if p.n == maxPathSegs {
		p = pth{base: p.String()}
	}
	p.segs[p.n] = s
	p.n++
	return p
}

// f appends a member name.
func (p pth) f(name string) pth { return p.push(strictjson.PathSeg{Name: name}) }

// i appends an array index.
func (p pth) i(idx int) pth { return p.push(strictjson.PathSeg{Index: idx}) }

// String renders the path.
func (p pth) String() string {
	if p.n == 0 {
		return p.base
	}
	var b strings.Builder
	b.Grow(len(p.base) + 16*p.n)
	b.WriteString(p.base)
	strictjson.WritePath(&b, p.segs[:p.n])
	return b.String()
}

// The go-playground validator: field-level rules declared as struct tags.

var fieldValidator = sync.OnceValue(func() *validator.Validate {
	v := validator.New(validator.WithRequiredStructEnabled())
	v.RegisterTagNameFunc(func(f reflect.StructField) string {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			return ""
		}
		return name
	})
	str := func(fn func(string) bool) validator.Func {
		return func(fl validator.FieldLevel) bool {
			f := fl.Field()
			return f.Kind() == reflect.String && fn(f.String())
		}
	}
	custom := map[string]validator.Func{
		"capid":        str(validID),
		"name":         str(validName),
		"semver":       str(validSemver),
		"sha256digest": str(validDigest),
		"rfc3339":      str(validTimestamp),
		"origin":       str(func(s string) bool { return originForm(s) == "" }),
		"nonblank":     str(func(s string) bool { return !textrule.Blank(s) }),
	}
	for tag, fn := range custom {
		// Registration fails only for reserved tag names, which these are
		// not; a failure would surface as unknown-tag errors in tests.
		_ = v.RegisterValidation(tag, fn)
	}
	return v
})

// fieldRules runs the struct-tag rules and translates their errors.
func fieldRules(c *Capability) ErrorList {
	var v errList
	err := fieldValidator().Struct(c)
	if err == nil {
		return nil
	}
	var fes validator.ValidationErrors
	if !errors.As(err, &fes) {
		v.add(at(""), CodeRequired, "field validation failed: "+err.Error(), "")
		return v.errs
	}
	for _, fe := range fes {
		path := fe.Namespace()
		if _, rest, ok := strings.Cut(path, "."); ok {
			path = rest
		} else {
			path = ""
		}
		code, msg := translateFieldError(fe)
		bad := ""
		switch fe.Tag() {
		case "required", "nonblank":
		default:
			switch x := fe.Value().(type) {
			case string:
				bad = x
			case int:
				bad = strconv.Itoa(x)
			case State, Effect, Operation, Confirmation, InputType, OutputKind, Exposure,
				FieldType, ConditionKind, ExtractMode, ReadKind:
				bad = fmt.Sprint(x)
			}
		}
		v.add(at(path), code, msg, bad)
	}
	return v.errs
}

// goField returns the Go field name of a namespace segment without index.
func goField(seg string) string {
	if i := strings.IndexByte(seg, '['); i >= 0 {
		return seg[:i]
	}
	return seg
}

func translateFieldError(fe validator.FieldError) (code Code, msg string) {
	field := goField(fe.StructField())
	elem := strings.HasSuffix(fe.StructField(), "]")
	parent := ""
	if segs := strings.Split(fe.StructNamespace(), "."); len(segs) >= 2 {
		parent = goField(segs[len(segs)-2])
	}
	switch fe.Tag() {
	case "required", "nonblank":
		switch {
		case field == "LocatorCandidates":
			return CodeFieldLocatorMissing, "a field needs a locator_candidates array; write [] to read the action root itself"
		case field == "FrameSelectors" && elem:
			return CodeInvalidFrameSelector, "a frame selector must not be blank"
		}
		return CodeRequired, "is required and must not be blank"
	case "capid":
		return CodeInvalidID, fmt.Sprintf("must match %s and be at most %d bytes", IDPattern, MaxIDLen)
	case "name":
		if field == "DataClasses" {
			return CodeInvalidDataClass, fmt.Sprintf("a data class must match %s", NamePattern)
		}
		return CodeInvalidName, fmt.Sprintf("must match %s and be at most %d bytes", NamePattern, MaxIDLen)
	case "semver":
		return CodeInvalidVersion, "must be a Semantic Versioning 2.0.0 version such as 1.2.0"
	case "sha256digest":
		return CodeInvalidDigest, `must be "sha256:" followed by 64 lowercase hexadecimal digits`
	case "rfc3339":
		return CodeInvalidTimestamp, "must be an RFC 3339 timestamp such as 2026-03-28T10:15:00Z"
	case "origin":
		return CodeInvalidOrigin, originForm(fmt.Sprint(fe.Value()))
	case "eq":
		return CodeUnsupportedSchema, fmt.Sprintf("schema must be %q", SchemaV1)
	case "oneof":
		allowed := "one of: " + strings.ReplaceAll(fe.Param(), " ", ", ")
		switch field {
		case "State":
			return CodeUnknownState, "unknown state; " + allowed
		case "DiscoveryMode":
			return CodeUnknownDiscoveryMode, "unknown discovery mode; " + allowed

		case "MaxEffect", "Effect":
			return CodeUnknownEffect, "unknown effect; " + allowed
		case "Type":
			if parent == "Inputs" {
				return CodeUnknownInputType, "unknown input type; " + allowed
			}
			return CodeUnknownFieldType, "unknown field type; " + allowed
		case "Kind":
			if parent == "Provenance" {
				return CodeUnknownProvenanceKind, "unknown provenance kind; " + allowed
			}
			if parent == "Outputs" {
				return CodeUnknownOutputKind, "unknown output kind; " + allowed
			}
			return CodeUnknownConditionKind, "unknown condition kind; " + allowed
		case "Exposure":
			return CodeUnknownExposure, "unknown exposure; " + allowed
		case "Operation":
			return CodeUnknownOperation, "unknown operation; " + allowed
		case "Confirmation":
			return CodeUnknownConfirmation, "unknown confirmation mode; " + allowed
		case "Mode":
			return CodeUnknownExtractMode, "unknown extraction mode; " + allowed
		case "Read":
			return CodeUnknownReadKind, "unknown read kind; " + allowed
		case "Scope":
			return CodeFrameScope, "unknown condition scope; " + allowed
		case "ExecutionMode":
			return CodeInvalidExecutionMode, "validation needs a live execution mode; " + allowed
		}
		return CodeRequired, "must be " + allowed
	case "min", "max":
		bound := fe.Tag() + " " + fe.Param()
		switch fe.Kind() {
		case reflect.String:
			if field == "FrameSelectors" {
				return CodeInvalidFrameSelector, fmt.Sprintf("a frame selector is at most %s bytes", fe.Param())
			}
			return CodeTooLong, fmt.Sprintf("longer than %s characters", fe.Param())
		case reflect.Slice:
			switch {
			case field == "FrameSelectors":
				return CodeTooManyFrames, fmt.Sprintf("at most %d frame selectors (nested iframes)", MaxFrameSelectors)
			case fe.Tag() == "min":
				return CodeRequired, "needs at least " + fe.Param() + " item(s)"
			}
			return CodeTooMany, "at most " + fe.Param() + " items"
		default:
			switch field {
			case "ActionTimeoutMS", "TransitionTimeoutMS", "RunTimeoutMS", "TimeoutMS":
				return CodeTimeoutOutOfRange, "timeout out of range (" + bound + " ms; 0 means the default)"
			case "MaxActions":
				return CodeMaxActionsOutOfRange, fmt.Sprintf("max_actions must be 1..%d", MaxActionsCeiling)
			case "MaxVisits":
				return CodeMaxVisitsOutOfRange, fmt.Sprintf("max_visits must be 1..%d", MaxVisitsCeiling)
			case "MaxRecords":
				return CodeMaxRecordsOutOfRange, fmt.Sprintf("max_records must be 1..%d", MaxRecordsCeiling)
			case "MaxLength":
				return CodeInvalidBounds, "max_length must not be negative"
			}
			return CodeTooMany, "out of range (" + bound + ")"
		}
	}
	return CodeRequired, "breaks rule " + fe.Tag()
}
