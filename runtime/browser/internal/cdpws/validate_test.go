package cdpws

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/go-rod/rod/lib/cdp"
)

func TestValidate(t *testing.T) {
	cases := []struct {
		msg  string
		kind Kind // 0: refused
		id   int64
		why  string // part of the reason when refused
	}{
		{`{"id":1,"result":{}}`, Response, 1, ""},
		{`{"id":7,"result":{"a":[1,2]},"sessionId":"S"}`, Response, 7, ""},
		{`{"id":2,"error":{"code":-32000,"message":"No node"}}`, Response, 2, ""},
		{`{"id":2,"error":{"code":-32000,"message":"x","data":"more"}}`, Response, 2, ""},
		{` {"id":0,"result":{}} `, Response, 0, ""},
		{`{"id":9223372036854775807,"result":{}}`, Response, 9223372036854775807, ""},
		{`{"method":"Page.loadEventFired","params":{"timestamp":1}}`, Event, 0, ""},
		{`{"method":"Target.attachedToTarget","params":{},"sessionId":"AB"}`, Event, 0, ""},
		{`{"method":"X.y"}`, Event, 0, ""},
		{`{"method":"X.y","params":{},"unknown":[1,{"id":"x"}]}`, Event, 0, ""},
		{`{"\u006dethod":"X.y"}`, Event, 0, ""},

		{`not json`, 0, 0, "not valid JSON"},
		{`{"id":1,"result":{}`, 0, 0, "not valid JSON"},
		{`{"id":1,"result":{}}{}`, 0, 0, "not valid JSON"},
		{``, 0, 0, "not valid JSON"},
		{`[{"id":1,"result":{}}]`, 0, 0, "array"},
		{`"hello"`, 0, 0, "string"},
		{`42`, 0, 0, "number"},
		{`null`, 0, 0, "null"},
		{`true`, 0, 0, "boolean"},
		{`{"id":"abc","result":{}}`, 0, 0, `"id" is a JSON string`},
		{`{"id":1.5,"result":{}}`, 0, 0, "not an integer"},
		{`{"id":1e2,"result":{}}`, 0, 0, "not an integer"},
		{`{"id":-1,"result":{}}`, 0, 0, "negative"},
		{`{"id":9223372036854775808,"result":{}}`, 0, 0, "out of range"},
		{`{"id":null,"result":{}}`, 0, 0, "null"},
		{`{"method":123}`, 0, 0, `"method" is a JSON number`},
		{`{"method":""}`, 0, 0, "empty"},
		{`{"method":null}`, 0, 0, `"method" is a JSON null`},
		{`{"method":"X.y","params":[]}`, 0, 0, `"params" is a JSON array`},
		{`{"method":"X.y","params":"s"}`, 0, 0, `"params"`},
		{`{"method":"X.y","sessionId":5}`, 0, 0, `"sessionId"`},
		{`{"method":"X.y","sessionId":null}`, 0, 0, `"sessionId"`},
		{`{"id":1,"result":[]}`, 0, 0, `"result" is a JSON array`},
		{`{"id":1,"result":null}`, 0, 0, `"result" is a JSON null`},
		{`{"id":1,"error":"bad"}`, 0, 0, `"error" is a JSON string`},
		{`{"id":1,"error":null}`, 0, 0, `"error" is a JSON null`},
		{`{"id":1,"error":{"message":"x"}}`, 0, 0, "no \"code\""},
		{`{"id":1,"error":{"code":"1","message":"x"}}`, 0, 0, "error.code"},
		{`{"id":1,"error":{"code":1.5,"message":"x"}}`, 0, 0, "error.code"},
		{`{"id":1,"error":{"code":1}}`, 0, 0, "error.message"},
		{`{"id":1,"error":{"code":1,"message":7}}`, 0, 0, "error.message"},
		{`{"id":1,"error":{"code":1,"message":"m","data":{}}}`, 0, 0, "error.data"},
		{`{"id":1,"error":{"code":1,"message":"m","Code":"x"}}`, 0, 0, "case variant"},
		{`{"id":1,"error":{"code":1,"code":2,"message":"m"}}`, 0, 0, "twice"},
		{`{"id":1,"result":{},"error":{"code":1,"message":"m"}}`, 0, 0, "both"},
		{`{"id":1}`, 0, 0, "neither"},
		{`{"id":1,"method":"X.y","result":{}}`, 0, 0, "both a response"},
		{`{"id":1,"params":{},"result":{}}`, 0, 0, "both a response"},
		{`{"result":{}}`, 0, 0, "without \"id\""},
		{`{"error":{"code":1,"message":"m"}}`, 0, 0, "without \"id\""},
		{`{}`, 0, 0, "neither"},
		{`{"sessionId":"S"}`, 0, 0, "neither"},
		{`{"id":1,"id":"abc","result":{}}`, 0, 0, "twice"},
		{`{"method":"X.y","method":1}`, 0, 0, "twice"},
		{`{"ID":"abc","method":"X.y"}`, 0, 0, "case variant"},
		{`{"Method":1}`, 0, 0, "case variant"},
		{`{"ſessionId":5,"method":"X.y"}`, 0, 0, "case variant"},
		{`{"method":"X.y","\u0049d":"x"}`, 0, 0, "case variant"},
		{`{"method":"X.y","paramſ":[]}`, 0, 0, "case variant"},
		{strings.Repeat("[", 20000) + strings.Repeat("]", 20000), 0, 0, "not valid JSON"},
	}
	for _, c := range cases {
		kind, id, err := Validate([]byte(c.msg))
		if c.kind == 0 {
			var se *ShapeError
			if err == nil || !errors.As(err, &se) {
				t.Errorf("Validate(%.60s) = %v, %v, want a *ShapeError", c.msg, kind, err)
				continue
			}
			if !strings.Contains(err.Error(), c.why) {
				t.Errorf("Validate(%.60s): reason %q, want it to mention %q", c.msg, err, c.why)
			}
			continue
		}
		if err != nil || kind != c.kind || id != c.id {
			t.Errorf("Validate(%s) = %v, %d, %v, want %v, %d", c.msg, kind, id, err, c.kind, c.id)
		}
		if err := rodDecodes([]byte(c.msg)); err != nil {
			t.Errorf("%s accepted but rod cannot decode it: %v", c.msg, err)
		}
	}
}

// rodDecodes decodes msg exactly as go-rod's cdp.Client reader does
// (lib/cdp/client.go consumeMessages), returning the error that would
// make the reader panic.
func rodDecodes(msg []byte) error {
	var id struct {
		ID int `json:"id"`
	}
	if err := json.Unmarshal(msg, &id); err != nil {
		return err
	}
	if id.ID == 0 {
		var evt cdp.Event
		return json.Unmarshal(msg, &evt)
	}
	var res cdp.Response
	return json.Unmarshal(msg, &res)
}

// FuzzValidate: Validate never panics, and everything it accepts is a
// message rod's reader decodes without error, as the kind Validate says.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"result":{}}`, `{"method":"A.b","params":{}}`, `{"id":"abc"}`, `{"method":123}`,
		`[1]`, `"s"`, `{"id":1,"error":{"code":1,"message":"m","data":"d"}}`, `{"ID":1,"result":{}}`,
		`{"id":0,"result":{}}`, `{"method":"A.b","sessionId":"x","params":{"a":{"b":[1,"2"]}}}`,
		`{"id":1,"result":{},"id":2}`, `{"iD":1e400,"method":"x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, msg []byte) {
		kind, id, err := Validate(msg)
		if err != nil {
			var se *ShapeError
			if !errors.As(err, &se) || se.Reason == "" {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if err := rodDecodes(msg); err != nil {
			t.Fatalf("accepted %q but rod fails to decode it: %v", msg, err)
		}
		var probe struct {
			ID     int             `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  *cdp.Error      `json:"error"`
		}
		_ = json.Unmarshal(msg, &probe)
		switch kind {
		case Response:
			if int64(probe.ID) != id || (probe.Result == nil) == (probe.Error == nil) || probe.Method != "" {
				t.Fatalf("%q: a response as rod sees it: %+v", msg, probe)
			}
		case Event:
			if probe.ID != 0 || probe.Method == "" || probe.Result != nil || probe.Error != nil {
				t.Fatalf("%q: an event as rod sees it: %+v", msg, probe)
			}
		default:
			t.Fatalf("kind %v", kind)
		}
	})
}
