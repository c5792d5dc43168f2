package capability

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// structInfo describes the JSON members of a struct type in declaration
// order. It is shared by the path ordering and the literal scan of
// Validate; the strict member check of Parse is internal/strictjson.
type structInfo struct {
	fields []fieldInfo
	byName map[string]int // json name -> position in fields
}

type fieldInfo struct {
	name  string // json member name
	index int    // Go field index
	typ   reflect.Type
}

var structInfos sync.Map // reflect.Type -> *structInfo

func infoOf(t reflect.Type) *structInfo {
	if v, ok := structInfos.Load(t); ok {
		return v.(*structInfo)
	}
	si := &structInfo{byName: map[string]int{}}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		si.byName[name] = len(si.fields)
		si.fields = append(si.fields, fieldInfo{name: name, index: i, typ: f.Type})
	}
	v, _ := structInfos.LoadOrStore(t, si)
	return v.(*structInfo)
}

var (
	capabilityType = reflect.TypeOf(Capability{})
	rawMessageType = reflect.TypeOf(json.RawMessage{})
)

// pathKey maps a JSON path of a capability to a sort key that follows
// document order: member positions in declaration order and array indexes.
// Unknown members sort after known ones.
func pathKey(path string) []int {
	var key []int
	t := capabilityType
	for path != "" {
		var seg string
		switch path[0] {
		case '.':
			path = path[1:]
			continue
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return append(key, 1<<30)
			}
			n, err := strconv.Atoi(path[1:end])
			if err != nil {
				n = 1 << 30
			}
			key = append(key, n)
			path = path[end+1:]
			t = elemType(t)
			continue
		}
		end := strings.IndexAny(path, ".[")
		if end < 0 {
			end = len(path)
		}
		seg, path = path[:end], path[end:]
		t = derefType(t)
		if t == nil || t.Kind() != reflect.Struct {
			key = append(key, 1<<30)
			t = nil
			continue
		}
		si := infoOf(t)
		pos, ok := si.byName[seg]
		if !ok {
			key = append(key, 1<<30)
			t = nil
			continue
		}
		key = append(key, pos)
		t = si.fields[pos].typ
	}
	return key
}

func derefType(t reflect.Type) reflect.Type {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func elemType(t reflect.Type) reflect.Type {
	t = derefType(t)
	if t == nil || (t.Kind() != reflect.Slice && t.Kind() != reflect.Array) {
		return nil
	}
	return t.Elem()
}
