package strictjson

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/redact"
)

// Kind classifies a problem.
type Kind string

// The kinds of problem.
const (
	// KindSyntax: not one well-formed JSON value (grammar, invalid UTF-8,
	// lone surrogates, unsafe integers, excessive nesting).
	KindSyntax Kind = "syntax"
	// KindDuplicateKey: an object repeats a member name.
	KindDuplicateKey Kind = "duplicate_key"
	// KindTrailingData: bytes after the top-level value.
	KindTrailingData Kind = "trailing_data"
	// KindUnknownMember: a member the type does not define with exactly
	// that name (case included).
	KindUnknownMember Kind = "unknown_member"
	// KindMissingMember: a required member is absent ([Missing] only).
	KindMissingMember Kind = "missing_member"
	// KindWrongType: a value of another JSON type than its field's, or an
	// integer out of the field's range.
	KindWrongType Kind = "wrong_type"
)

// Error is one problem of a document.
type Error struct {
	// Kind classifies the problem.
	Kind Kind
	// Path is the JSON path of the offending member or value
	// (a.b[2].c), "" for the document itself. For an unknown member whose
	// name is withheld it is the path of its object.
	Path string
	// Offset is the byte offset of the problem when known, else -1.
	Offset int64
	// Line and Column locate Offset for a person (1-based; the column
	// counts runes of the line up to the problem), 0 when Offset is
	// unknown.
	Line, Column int
	// Err describes the problem; for syntax problems it is the
	// *canonjson.SyntaxError (wrapping canonjson's sentinels).
	Err error
}

// ErrBOM is the cause of a syntax [Error] for a document that starts
// with a UTF-8 byte-order mark (EF BB BF): every Vera format is UTF-8
// JSON without one (RFC 8259 section 8.1 lets a parser refuse it).
var ErrBOM = errors.New("the document starts with a byte-order mark (U+FEFF, bytes EF BB BF); JSON documents are UTF-8 without a BOM")

var bom = []byte{0xef, 0xbb, 0xbf}

// LineColumn returns the 1-based line and column (in runes) of byte
// offset off in raw, or 0, 0 when off is outside raw. Lines end at LF.
func LineColumn(raw []byte, off int64) (line, col int) {
	if off < 0 || off > int64(len(raw)) {
		return 0, 0
	}
	head := raw[:off]
	line = 1 + bytes.Count(head, []byte{'\n'})
	if i := bytes.LastIndexByte(head, '\n'); i >= 0 {
		head = head[i+1:]
	}
	return line, 1 + len([]rune(string(head)))
}

// Error implements error. A syntax problem is located by line and
// column, and by byte offset.
func (e *Error) Error() string {
	msg := e.Err.Error()
	if e.Line > 0 && (e.Kind == KindSyntax || e.Kind == KindDuplicateKey || e.Kind == KindTrailingData) {
		var se *canonjson.SyntaxError
		if errors.As(e.Err, &se) {
			msg = se.Reason
		}
		msg = fmt.Sprintf("line %d, column %d (byte %d): %s", e.Line, e.Column, e.Offset, msg)
	}
	if e.Path == "" {
		return msg
	}
	return e.Path + ": " + msg
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Document is a JSON text that passed [Parse].
type Document struct {
	raw   []byte
	canon []byte
	value any
}

// Parse checks raw with [canonjson.Transform] (one valid UTF-8 JSON value,
// no duplicate member at any depth, no trailing data, integers exact in a
// double, nesting within canonjson.MaxDepth) and decodes it generically,
// numbers as json.Number. Errors are *[Error] of kind [KindSyntax],
// [KindDuplicateKey] or [KindTrailingData]. raw is retained, not copied.
func Parse(raw []byte) (*Document, error) {
	canon, err := canonjson.Transform(raw)
	if err != nil {
		e := &Error{Kind: KindSyntax, Offset: -1, Err: err}
		var se *canonjson.SyntaxError
		if errors.As(err, &se) {
			e.Offset = int64(se.Offset)
		}
		switch {
		case errors.Is(err, canonjson.ErrDuplicateKey):
			e.Kind = KindDuplicateKey
		case errors.Is(err, canonjson.ErrTrailingData):
			e.Kind = KindTrailingData
		}
		if bytes.HasPrefix(raw, bom) {
			// "invalid character byte 0xef" names no cause a person
			// recognises: say what it is.
			e.Offset, e.Err = 0, ErrBOM
		}
		e.Line, e.Column = LineColumn(raw, e.Offset)
		return nil, e
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		// Unreachable after Transform; kept so no input can slip through.
		return nil, &Error{Kind: KindSyntax, Offset: dec.InputOffset(), Err: err}
	}
	return &Document{raw: raw, canon: canon, value: v}, nil
}

// Canonical returns the RFC 8785 form of the document. The caller must
// not modify it.
func (d *Document) Canonical() []byte { return d.canon }

// Value returns the generic decoding: map[string]any, []any, string,
// json.Number, bool or nil. The caller must not modify it.
func (d *Document) Value() any { return d.value }

// Member returns the top-level member of exactly that name. ok is false
// when the document is not an object or has no such member.
func (d *Document) Member(name string) (v any, ok bool) {
	obj, isObj := d.value.(map[string]any)
	if !isObj {
		return nil, false
	}
	v, ok = obj[name]
	return v, ok
}

// Decode checks the document against v's type ([Check]: exact member
// names, no unknown member, JSON types) and decodes it into v, which must
// be a non-nil pointer. The error is the first problem, an *[Error].
func (d *Document) Decode(v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return &Error{Kind: KindWrongType, Offset: -1, Err: errors.New("decode target is not a non-nil pointer")}
	}
	var first *Error
	walk(d.value, rv.Type().Elem(), nil, false, func(e *Error) bool {
		first = e
		return false
	})
	if first != nil {
		return first
	}
	dec := json.NewDecoder(bytes.NewReader(d.raw))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		e := &Error{Kind: KindWrongType, Offset: dec.InputOffset(), Err: err}
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			e.Offset, e.Path = te.Offset, te.Field
		}
		return e
	}
	return nil
}

// Decode is [Parse] followed by [Document.Decode].
func Decode(raw []byte, v any) error {
	d, err := Parse(raw)
	if err != nil {
		return err
	}
	return d.Decode(v)
}

// Check walks a generically decoded value (as from [Document.Value]) along
// the Go type t and returns every unknown member (names match exactly,
// case included) and every value of the wrong JSON type, in walk order.
// Below a problem the walk does not descend.
func Check(value any, t reflect.Type) []*Error {
	var out []*Error
	walk(value, t, nil, false, func(e *Error) bool { out = append(out, e); return true })
	return out
}

// Missing walks value along t as [Check] does and returns every absent
// member whose field is required: without omitempty or omitzero in its
// json tag. It reports nothing [Check] reports.
func Missing(value any, t reflect.Type) []*Error {
	var out []*Error
	walk(value, t, nil, true, func(e *Error) bool {
		if e.Kind == KindMissingMember {
			out = append(out, e)
		}
		return true
	})
	return out
}

// PathSeg is one step of a JSON path: a member name, or an array index
// when Name is "".
type PathSeg struct {
	Name  string
	Index int
}

// WritePath appends the rendering of segs to b in Vera's path syntax
// (milestones[1].actions[0].locator_candidates[2]): a member name is
// joined with "." unless it starts the path, an index is "[i]".
func WritePath(b *strings.Builder, segs []PathSeg) {
	for _, s := range segs {
		if s.Name == "" {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(s.Index))
			b.WriteByte(']')
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s.Name)
	}
}

// Path renders segs with [WritePath].
func Path(segs []PathSeg) string {
	var b strings.Builder
	WritePath(&b, segs)
	return b.String()
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// selfDecoding reports types that decode themselves.
func selfDecoding(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(unmarshalerType) || pt.Implements(unmarshalerType) ||
		t.Implements(textUnmarshalerType) || pt.Implements(textUnmarshalerType)
}

// withheld reports member names never echoed in a problem.
func withheld(name string) bool {
	if _, secret := redact.FindSecret(name); secret {
		return true
	}
	return redact.ContainsIdentifier(name)
}

// quote quotes an untrusted name for a message, bounded.
func quote(s string) string {
	if len(s) > 64 {
		return strconv.Quote(s[:64]) + "..."
	}
	return strconv.Quote(s)
}

// walk checks v against t and calls emit for each problem until emit
// returns false; it returns false once emit has.
func walk(v any, t reflect.Type, segs []PathSeg, missing bool, emit func(*Error) bool) bool {
	if v == nil {
		return true // null leaves the zero value, as in encoding/json
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if selfDecoding(t) {
		return true
	}
	wrong := func(want string) bool {
		return emit(&Error{Kind: KindWrongType, Path: Path(segs), Offset: -1,
			Err: fmt.Errorf("want %s, found %s", want, kindOf(v))})
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return wrong("an object")
		}
		fs := fieldsOf(t)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			f, ok := fs.byName[k]
			if !ok {
				var e *Error
				if withheld(k) {
					e = &Error{Kind: KindUnknownMember, Path: Path(segs), Offset: -1,
						Err: errors.New("unknown member (name withheld: it is credential- or identifier-shaped)")}
				} else {
					e = &Error{Kind: KindUnknownMember, Path: Path(append(segs, PathSeg{Name: k})), Offset: -1,
						Err: fmt.Errorf("unknown member %s", quote(k))}
				}
				if !emit(e) {
					return false
				}
				continue
			}
			if !walk(obj[k], f.typ, append(segs, PathSeg{Name: k}), missing, emit) {
				return false
			}
		}
		if missing {
			for _, f := range fs.list {
				if _, ok := obj[f.name]; !ok && f.required {
					if !emit(&Error{Kind: KindMissingMember, Path: Path(append(segs, PathSeg{Name: f.name})), Offset: -1,
						Err: fmt.Errorf("missing member %s", quote(f.name))}) {
						return false
					}
				}
			}
		}
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return wrong("an object")
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			name := k
			if withheld(k) {
				name = "[withheld]"
			}
			if !walk(obj[k], t.Elem(), append(segs, PathSeg{Name: name}), missing, emit) {
				return false
			}
		}
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			if _, ok := v.(string); !ok {
				return wrong("a base64 string")
			}
			return true
		}
		arr, ok := v.([]any)
		if !ok {
			return wrong("an array")
		}
		for i, e := range arr {
			if !walk(e, t.Elem(), append(segs, PathSeg{Index: i}), missing, emit) {
				return false
			}
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return wrong("a string")
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return wrong("a boolean")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		if !ok {
			return wrong("an integer")
		}
		if _, err := strconv.ParseInt(string(n), 10, t.Bits()); err != nil {
			return wrong(fmt.Sprintf("an integer of at most %d bits", t.Bits()))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, ok := v.(json.Number)
		if !ok {
			return wrong("a non-negative integer")
		}
		if _, err := strconv.ParseUint(string(n), 10, t.Bits()); err != nil {
			return wrong(fmt.Sprintf("a non-negative integer of at most %d bits", t.Bits()))
		}
	case reflect.Float32, reflect.Float64:
		if _, ok := v.(json.Number); !ok {
			return wrong("a number")
		}
	}
	return true
}

// kindOf names the JSON type of a generically decoded value.
func kindOf(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number" // never the digits: a number can be an identifier
	}
	return "null"
}

// field is one JSON member of a struct type.
type field struct {
	name     string
	typ      reflect.Type
	required bool
}

// fields are the JSON members of a struct type.
type fields struct {
	list   []field // declaration order, embedded fields in place
	byName map[string]field
}

var fieldCache sync.Map // reflect.Type -> *fields

// fieldsOf returns the members of struct type t as encoding/json sees
// them.
func fieldsOf(t reflect.Type) *fields {
	if v, ok := fieldCache.Load(t); ok {
		return v.(*fields)
	}
	type cand struct {
		field
		depth  int
		tagged bool
		order  int
	}
	var cands []cand
	visited := map[reflect.Type]bool{}
	var collect func(t reflect.Type, depth int)
	collect = func(t reflect.Type, depth int) {
		if visited[t] {
			return
		}
		visited[t] = true
		defer delete(visited, t)
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			ft := f.Type
			for ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
				collect(ft, depth+1)
				continue
			}
			if !f.IsExported() {
				continue
			}
			tagged := name != ""
			if !tagged {
				name = f.Name
			}
			required := !strings.Contains(","+opts+",", ",omitempty,") && !strings.Contains(","+opts+",", ",omitzero,")
			cands = append(cands, cand{field: field{name: name, typ: f.Type, required: required}, depth: depth, tagged: tagged, order: len(cands)})
		}
	}
	collect(t, 0)
	groups := map[string][]cand{}
	for _, c := range cands {
		groups[c.name] = append(groups[c.name], c)
	}
	fs := &fields{byName: map[string]field{}}
	for _, c := range cands {
		g := groups[c.name]
		best := slices.MinFunc(g, func(a, b cand) int { return a.depth - b.depth })
		var top []cand
		for _, x := range g {
			if x.depth == best.depth {
				top = append(top, x)
			}
		}
		var winner *cand
		if len(top) == 1 {
			winner = &top[0]
		} else {
			var tagged []cand
			for _, x := range top {
				if x.tagged {
					tagged = append(tagged, x)
				}
			}
			if len(tagged) == 1 {
				winner = &tagged[0]
			}
		}
		if winner == nil || winner.order != c.order {
			continue
		}
		fs.list = append(fs.list, c.field)
		fs.byName[c.name] = c.field
	}
	v, _ := fieldCache.LoadOrStore(t, fs)
	return v.(*fields)
}
