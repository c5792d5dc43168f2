package strictjson_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/vera-run/vera/internal/strictjson"
)

// FuzzDecode decodes arbitrary text: never a panic, every error a
// *strictjson.Error, and an accepted document re-encodes to a value whose
// members all carry exact names (decoding the re-encoding again succeeds
// and yields the same value).
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"schema":"s/v1","evidence_hash":"h","size":1}`))
	f.Add([]byte(`{"SCHEMA":"s/v1"}`))
	f.Add([]byte(`{"items":[{"name":"a","count":1}],"labels":{"k":{"name":"b"}},"any":[1,{"A":null}]}`))
	f.Add([]byte(`{"size":1,"size":2}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var d doc
		err := strictjson.Decode(raw, &d)
		if err != nil {
			var e *strictjson.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not a *strictjson.Error", err)
			}
			return
		}
		again, err := json.Marshal(&d)
		if err != nil {
			return // e.g. a float the encoder refuses; not this package's concern
		}
		var d2 doc
		if err := strictjson.Decode(again, &d2); err != nil {
			t.Fatalf("re-encoding %s does not decode: %v", again, err)
		}
		if !reflect.DeepEqual(normal(t, &d), normal(t, &d2)) {
			t.Fatalf("round trip changed the value: %s", again)
		}
	})
}

func normal(t *testing.T, d *doc) any {
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
