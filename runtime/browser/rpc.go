package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/runtime"
)

// objectGroup groups every remote object the driver creates.
const objectGroup = "vera-driver"

// callArg is one Runtime.callFunctionOn argument: a JSON value or a
// remote object.
type callArg struct {
	Value    json.RawMessage             `json:"value,omitempty"`
	ObjectID proto.RuntimeRemoteObjectID `json:"objectId,omitempty"`
}

func val(v any) callArg {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte("null")
	}
	return callArg{Value: b}
}

func obj(id proto.RuntimeRemoteObjectID) callArg {
	if id == "" {
		return callArg{Value: json.RawMessage("null")}
	}
	return callArg{ObjectID: id}
}

type callFunctionOn struct {
	FunctionDeclaration string                      `json:"functionDeclaration"`
	ObjectID            proto.RuntimeRemoteObjectID `json:"objectId,omitempty"`
	Arguments           []callArg                   `json:"arguments,omitempty"`
	ReturnByValue       bool                        `json:"returnByValue,omitempty"`
	AwaitPromise        bool                        `json:"awaitPromise,omitempty"`
	UserGesture         bool                        `json:"userGesture,omitempty"`
	ObjectGroup         string                      `json:"objectGroup,omitempty"`
}

func (callFunctionOn) ProtoReq() string { return "Runtime.callFunctionOn" }

type remoteObject struct {
	Type        string                      `json:"type"`
	Subtype     string                      `json:"subtype"`
	Description string                      `json:"description"`
	Value       json.RawMessage             `json:"value"`
	ObjectID    proto.RuntimeRemoteObjectID `json:"objectId"`
}

type callResult struct {
	Result           remoteObject                   `json:"result"`
	ExceptionDetails *proto.RuntimeExceptionDetails `json:"exceptionDetails"`
}

// jsError is an exception thrown by a page-side helper.
type jsError struct{ msg string }

func (e *jsError) Error() string { return "page script: " + e.msg }

func exceptionText(x *proto.RuntimeExceptionDetails) string {
	if x.Exception != nil && x.Exception.Description != "" {
		s := x.Exception.Description
		if i := strings.IndexByte(s, '\n'); i > 0 {
			s = s[:i]
		}
		return s
	}
	return x.Text
}

// callOn calls fn with this = object on session sid. With byValue the
// result is decoded into out (when out is not nil); otherwise the result
// object is returned.
func (d *Driver) callOn(ctx context.Context, sid proto.TargetSessionID, this proto.RuntimeRemoteObjectID, fn string, byValue bool, out any, args ...callArg) (remoteObject, error) {
	return d.callOnWith(ctx, sid, callFunctionOn{FunctionDeclaration: fn, ObjectID: this, Arguments: args, ReturnByValue: byValue}, out)
}

// callAwait calls fn, an async function, with this = object on session
// sid, waits for its promise and decodes the value it resolved to into
// out (when out is not nil).
func (d *Driver) callAwait(ctx context.Context, sid proto.TargetSessionID, this proto.RuntimeRemoteObjectID, fn string, out any, args ...callArg) error {
	_, err := d.callOnWith(ctx, sid, callFunctionOn{FunctionDeclaration: fn, ObjectID: this, Arguments: args, ReturnByValue: true, AwaitPromise: true}, out)
	return err
}

// callOnWith sends c (its object group set here) and decodes as callOn.
func (d *Driver) callOnWith(ctx context.Context, sid proto.TargetSessionID, c callFunctionOn, out any) (remoteObject, error) {
	if trace := d.declTrace.Load(); trace != nil {
		(*trace)(c.FunctionDeclaration)
	}
	var res callResult
	byValue := c.ReturnByValue
	c.ObjectGroup = objectGroup
	err := d.call(ctx, sid, c, &res)
	if err != nil {
		return remoteObject{}, err
	}
	if res.ExceptionDetails != nil {
		return remoteObject{}, &jsError{msg: exceptionText(res.ExceptionDetails)}
	}
	if byValue && out != nil && len(res.Result.Value) > 0 {
		if err := json.Unmarshal(res.Result.Value, out); err != nil {
			return remoteObject{}, fmt.Errorf("decode page result: %w", err)
		}
	}
	return res.Result, nil
}

// evalObject evaluates expression in the main world of session sid's
// main frame and returns the result object.
func (d *Driver) evalObject(ctx context.Context, sid proto.TargetSessionID, expression string) (proto.RuntimeRemoteObjectID, error) {
	if trace := d.declTrace.Load(); trace != nil {
		(*trace)(expression)
	}
	var res proto.RuntimeEvaluateResult
	if err := d.call(ctx, sid, proto.RuntimeEvaluate{Expression: expression, ObjectGroup: objectGroup}, &res); err != nil {
		return "", err
	}
	if res.ExceptionDetails != nil {
		return "", &jsError{msg: exceptionText(res.ExceptionDetails)}
	}
	if res.Result == nil || res.Result.ObjectID == "" {
		return "", fmt.Errorf("evaluate %q returned no object", expression)
	}
	return res.Result.ObjectID, nil
}

// arrayObjects returns the object ids of an array's elements, in order.
// An empty array (described "Array(0)") costs no round trip.
func (d *Driver) arrayObjects(ctx context.Context, sid proto.TargetSessionID, arr remoteObject) ([]proto.RuntimeRemoteObjectID, error) {
	if arr.Description == "Array(0)" {
		return nil, nil
	}
	var res proto.RuntimeGetPropertiesResult
	if err := d.call(ctx, sid, proto.RuntimeGetProperties{ObjectID: arr.ObjectID, OwnProperties: true}, &res); err != nil {
		return nil, err
	}
	type item struct {
		i  int
		id proto.RuntimeRemoteObjectID
	}
	var items []item
	for _, p := range res.Result {
		i, err := strconv.Atoi(p.Name)
		if err != nil || p.Value == nil || p.Value.ObjectID == "" {
			continue
		}
		items = append(items, item{i, p.Value.ObjectID})
	}
	out := make([]proto.RuntimeRemoteObjectID, len(items))
	for _, it := range items {
		if it.i >= 0 && it.i < len(out) {
			out[it.i] = it.id
		}
	}
	return out, nil
}

// replacedTexts are the CDP error texts that mean the document, a node
// of it or its execution context was replaced or went away: the page
// changed (it navigated, re-rendered or closed a frame), which is a state
// the caller handles as a stale element or scope and re-resolves, never
// an internal failure. This is the one list of them; nothing else in the
// driver matches CDP error text for this.
var replacedTexts = []string{
	"Argument should belong to the same JavaScript world as target object",
	"Cannot find context with specified id",
	"Execution context was destroyed",
	"No node with given id",
	"Node is detached from document",
	"Node is detached",
	"does not belong to the document",
	"Could not find node with given id",
	"Cannot find object with id",
	"Could not find object with given id",
	"Inspected target navigated or closed",
	"Session with given id not found",
	"No target with given id",
	"Node is not an Element",
	"Cannot find default execution context",
}

// isStaleError reports whether a CDP error means the document, a node of
// it or its execution context was replaced (see replacedTexts).
func isStaleError(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	for _, m := range replacedTexts {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

func jsonNumber(b json.RawMessage, n *int) error { return json.Unmarshal(b, n) }

// helperStatus interprets a page helper's string answer: "stale" when
// the scope's document was replaced, "detached" when the root element
// left its document.
func helperStatus(r remoteObject) error {
	if r.Type != "string" {
		return nil
	}
	var s string
	_ = json.Unmarshal(r.Value, &s)
	switch s {
	case "detached":
		return fmt.Errorf("%w: root element is detached", runtime.ErrStaleElement)
	default:
		return errStaleScope
	}
}
