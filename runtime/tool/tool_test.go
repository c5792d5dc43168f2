package tool_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
	"github.com/vera-run/vera/runtime/tool"
)

func fake(site *runtimetest.Site) tool.DriverFunc {
	return func(context.Context) (runtime.Driver, error) { return runtimetest.NewDriver(site), nil }
}

func TestDescribeInputSchema(t *testing.T) {
	c := flagCap(t)
	d, err := tool.Describe(c)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "teller.flag-member" || d.Title != c.Name || !strings.HasPrefix(d.Description, c.Goal) || !strings.Contains(d.Description, "already_flagged") {
		t.Errorf("name/title/description = %q %q %q", d.Name, d.Title, d.Description)
	}
	s := d.InputSchema
	if s["$schema"] != tool.SchemaDialect || s["type"] != "object" || s["additionalProperties"] != false {
		t.Errorf("schema header %v", s)
	}
	// required: declared required inputs without a default.
	if got := s["required"]; !reflect.DeepEqual(got, []string{"member_id", "pin"}) {
		t.Errorf("required = %v", got)
	}
	props := s["properties"].(map[string]any)
	if len(props) != len(c.Inputs) {
		t.Fatalf("%d properties for %d inputs", len(props), len(c.Inputs))
	}
	want := map[string]map[string]any{
		"member_id": {"type": "string", "maxLength": 12, "description": "Numeric ID of the member"},
		"pin":       {"type": "string", "writeOnly": true, "description": "Teller PIN"},
		"reason":    {"type": "string", "enum": []any{"fraud", "member_request"}, "default": "fraud", "description": "Why the member is flagged"},
		"review_by": {"type": "string", "format": "date", "pattern": `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`, "description": "Review deadline"},
		"priority":  {"type": "integer", "minimum": 1.0, "maximum": 5.0},
		"notify":    {"type": "boolean"},
	}
	for name, w := range want {
		if got := props[name]; !reflect.DeepEqual(got, w) {
			t.Errorf("%s = %#v, want %#v", name, got, w)
		}
	}
	// Every input declared is a property of the declared type.
	for _, in := range c.Inputs {
		p := props[in.Name].(map[string]any)
		if _, wo := p["writeOnly"]; wo != in.Secret {
			t.Errorf("%s writeOnly %v, secret %v", in.Name, wo, in.Secret)
		}
	}
	if a := d.Annotations; a.ReadOnly || !a.Destructive || !a.Consequential || a.Idempotent || a.Effect != capability.EffectConsequential {
		t.Errorf("annotations %+v", a)
	}
	if _, err := json.Marshal(d); err != nil {
		t.Fatal(err)
	}
}

func TestDescribeOutputSchema(t *testing.T) {
	d, err := tool.Describe(flagCap(t))
	if err != nil {
		t.Fatal(err)
	}
	props := d.OutputSchema["properties"].(map[string]any)
	outs := props["outputs"].(map[string]any)["properties"].(map[string]any)
	if _, ok := outs["audit"]; ok {
		t.Error("artifact_only output audit is in the model-visible outputs")
	}
	if o := outs["confirmation"].(map[string]any); o["type"] != "string" {
		t.Errorf("confirmation %v", o)
	}
	if _, ok := props["artifacts"].(map[string]any)["properties"].(map[string]any)["audit"]; !ok {
		t.Error("audit not named under artifacts")
	}
	codes := props["outcome"].(map[string]any)["properties"].(map[string]any)["code"].(map[string]any)["enum"]
	if !reflect.DeepEqual(codes, []any{"already_flagged"}) {
		t.Errorf("outcome codes %v", codes)
	}

	teller, err := tool.Describe(tellerCap(t))
	if err != nil {
		t.Fatal(err)
	}
	bal := teller.OutputSchema["properties"].(map[string]any)["outputs"].(map[string]any)["properties"].(map[string]any)["balances"].(map[string]any)
	fields := bal["properties"].(map[string]any)
	if bal["type"] != "object" || len(fields) != 3 || fields["savings"].(map[string]any)["type"] != "string" {
		t.Errorf("balances schema %v", bal)
	}
	if a := teller.Annotations; !a.ReadOnly || a.Destructive || !a.Idempotent {
		t.Errorf("teller annotations %+v", a)
	}
	if p := teller.InputSchema["properties"].(map[string]any)["password"].(map[string]any); p["writeOnly"] != true {
		t.Errorf("password %v", p)
	}
}

func TestNewRefuses(t *testing.T) {
	if _, err := tool.New(nil); !errors.Is(err, tool.ErrInvalidCapability) {
		t.Errorf("nil: %v", err)
	}
	c := flagCap(t)
	c.State = capability.StateDraft
	if _, err := tool.New(c); !errors.Is(err, tool.ErrInvalidCapability) {
		t.Errorf("draft: %v", err)
	}
	tl, err := tool.New(flagCap(t))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tl.Call(context.Background(), json.RawMessage(`{}`)); !errors.Is(err, tool.ErrNoDriver) {
		t.Errorf("no driver: %v", err)
	}
}

func call(t *testing.T, tl *tool.Tool, args string, opts ...tool.CallOption) *tool.Result {
	t.Helper()
	res, err := tl.Call(context.Background(), json.RawMessage(args), opts...)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	if strings.Contains(string(raw), pin) || strings.Contains(string(raw), "s3cret") {
		t.Fatalf("a secret input is in the result: %s", raw)
	}
	return res
}

func TestCallStates(t *testing.T) {
	approve := func(ok bool) runtime.Approver {
		return runtime.ApproverFunc(func(_ context.Context, r runtime.ApprovalRequest) (runtime.Approval, error) {
			return runtime.Approval{ActionID: r.ActionID, Approved: ok, Approver: "checker"}, nil
		})
	}
	args := `{"member_id":"100234","pin":"` + pin + `"}`

	t.Run("completed", func(t *testing.T) {
		tl, err := tool.New(tellerCap(t), tool.WithDriver(fake(tellerSite())), tool.WithRunDir(t.TempDir()))
		if err != nil {
			t.Fatal(err)
		}
		res := call(t, tl, `{"username":"teller.demo","password":"s3cret-teller","member_id":"100234"}`)
		want := map[string]any{"member_name": "Ada Lovelace", "savings": "$12,480.55", "checking": "$1,204.10"}
		if res.Status != runtime.StateCompleted || !reflect.DeepEqual(res.Outputs["balances"], want) || !res.Clean || res.ReceiptHash == "" {
			t.Errorf("result %+v", res)
		}
	})
	t.Run("business_outcome", func(t *testing.T) {
		tl, err := tool.New(tellerCap(t), tool.WithDriver(fake(tellerSite())), tool.WithRunDir(t.TempDir()))
		if err != nil {
			t.Fatal(err)
		}
		res := call(t, tl, `{"username":"teller.demo","password":"s3cret-teller","member_id":"999999"}`)
		if res.Status != runtime.StateBusinessOutcome || res.Outcome == nil || res.Outcome.Code != "member_not_found" || res.Outcome.Description == "" || res.Outputs != nil {
			t.Errorf("result %+v", res)
		}
	})
	t.Run("gate_without_approver", func(t *testing.T) {
		tl, err := tool.New(flagCap(t), tool.WithDriver(fake(flagSite(false))), tool.WithRunDir(t.TempDir()))
		if err != nil {
			t.Fatal(err)
		}
		res := call(t, tl, args)
		want := &tool.Decision{CapabilityID: "teller.flag-member", Version: "1.0.0", ExecutionHash: tl.ExecutionHash(),
			Milestone: "flag", ActionID: "flag-member", Operation: capability.OpClick, Intent: "Flag the member for review",
			Effect: capability.EffectConsequential, Reason: "no_approver"}
		if res.Status != runtime.StateStoppedAtGate || !reflect.DeepEqual(res.Decision, want) || res.EffectDispatched {
			t.Errorf("result %+v decision %+v", res, res.Decision)
		}
	})
	t.Run("gate_denied", func(t *testing.T) {
		tl, _ := tool.New(flagCap(t), tool.WithDriver(fake(flagSite(false))), tool.WithRunDir(t.TempDir()))
		res := call(t, tl, args, tool.WithApprover(approve(false)))
		if res.Status != runtime.StateStoppedAtGate || res.Decision == nil || res.Decision.Reason != "denied" {
			t.Errorf("result %+v", res)
		}
	})
	t.Run("gate_approved", func(t *testing.T) {
		tl, _ := tool.New(flagCap(t), tool.WithDriver(fake(flagSite(false))), tool.WithRunDir(t.TempDir()))
		res := call(t, tl, args, tool.WithApprover(approve(true)))
		if res.Status != runtime.StateCompleted || res.Outputs["confirmation"] != "Member flagged for review" || !res.EffectDispatched || res.Decision != nil {
			t.Errorf("result %+v", res)
		}
		// artifact_only: named with its count, the value never shown.
		raw, _ := json.Marshal(res)
		if res.Artifacts["audit"] != 1 || strings.Contains(string(raw), "AUD-4411") {
			t.Errorf("artifact_only output leaked or not counted: %s", raw)
		}
	})
	t.Run("bad_arguments", func(t *testing.T) {
		tl, _ := tool.New(flagCap(t), tool.WithDriver(fake(flagSite(false))), tool.WithRunDir(t.TempDir()))
		for _, a := range []string{`[1]`, `{"member_id":"100234","pin":"` + pin + `","reason":"` + pin + `"}`, `{"pin":7}`} {
			_, err := tl.Call(context.Background(), json.RawMessage(a))
			if !errors.Is(err, tool.ErrArguments) {
				t.Errorf("%s: %v", a, err)
			}
			if err != nil && strings.Contains(err.Error(), pin) {
				t.Errorf("error echoes the secret: %v", err)
			}
		}
	})
}

// countingDriver counts the drivers open at once.
type countingDriver struct {
	runtime.Driver
	open *atomic.Int32
}

func (d countingDriver) Close() error { d.open.Add(-1); return d.Driver.Close() }

func TestCallsBounded(t *testing.T) {
	var open, peak atomic.Int32
	site := flagSite(true)
	df := func(context.Context) (runtime.Driver, error) {
		n := open.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		return countingDriver{runtimetest.NewDriver(site, runtimetest.WithLatency(2e6)), &open}, nil
	}
	tl, err := tool.New(flagCap(t), tool.WithDriver(df), tool.WithMaxConcurrent(2), tool.WithRunDir(t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := tl.Call(context.Background(), json.RawMessage(`{"member_id":"1","pin":"`+pin+`"}`))
			if err != nil || res.Status != runtime.StateBusinessOutcome {
				t.Errorf("%v %+v", err, res)
			}
		}()
	}
	wg.Wait()
	if p := peak.Load(); p > 2 || p < 1 {
		t.Errorf("peak concurrent drivers %d, bound 2", p)
	}
	// A call waiting for a slot ends with its context.
	sem := tool.NewSemaphore(1)
	release := make(chan struct{})
	started := make(chan struct{})
	go sem.Run(context.Background(), func(context.Context) error { close(started); <-release; return nil })
	<-started
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := sem.Run(ctx, func(context.Context) error { t.Error("ran without a slot"); return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("waiting run: %v", err)
	}
	close(release)
}
