package mcpserver_test

import (
	"context"
	"encoding/json"
	"github.com/vera-run/vera/internal/testmain"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.uber.org/goleak"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/runtimetest"
	"github.com/vera-run/vera/runtime/tool"
	"github.com/vera-run/vera/runtime/tool/mcpserver"
)

func TestMain(m *testing.M) { testmain.SetTestCeiling(); goleak.VerifyTestMain(m) }

const origin = "http://127.0.0.1:4010"

// pin is the flag capability's secret input.
const pin = "pin-5521-never-echoed"

func flagTool(t *testing.T) *tool.Tool {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "flag.capability.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	site := &runtimetest.Site{Pages: map[string]*runtimetest.Page{
		origin + "/flag": {
			Title: "Flag member",
			Body: []*runtimetest.Node{{Tag: "main", ID: "main", Children: []*runtimetest.Node{
				{Tag: "input", ID: "pin", Label: "PIN", Attributes: map[string]string{"type": "password"}},
				{Tag: "button", ID: "flag", Text: "Flag member"},
			}}},
			Rules: []runtimetest.Rule{{On: runtimetest.Trigger{Node: "flag", Act: runtime.ActClick}, Effects: []runtimetest.Effect{{Navigate: "/flagged"}}}},
		},
		origin + "/flagged": {
			Title: "Flagged",
			Body: []*runtimetest.Node{{Tag: "main", ID: "main", Children: []*runtimetest.Node{
				{Tag: "p", ID: "done", TestID: "confirmation", Text: "Member flagged for review"},
				{Tag: "p", ID: "ticket", TestID: "ticket", Text: "AUD-4411"},
			}}},
		},
	}}
	tl, err := tool.New(c, tool.WithRunDir(t.TempDir()),
		tool.WithDriver(func(context.Context) (runtime.Driver, error) { return runtimetest.NewDriver(site), nil }))
	if err != nil {
		t.Fatal(err)
	}
	return tl
}

// recorder is a client that records everything the server sent it.
type recorder struct {
	mu       sync.Mutex
	elicits  []*mcp.ElicitParams
	progress []*mcp.ProgressNotificationParams
	answer   string // "approve", "reject"; "" declares no elicitation
}

func (r *recorder) client() *mcp.Client {
	opts := &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			r.mu.Lock()
			r.progress = append(r.progress, req.Params)
			r.mu.Unlock()
		},
	}
	if r.answer != "" {
		opts.ElicitationHandler = func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			r.mu.Lock()
			r.elicits = append(r.elicits, req.Params)
			r.mu.Unlock()
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"decision": r.answer}}, nil
		}
	}
	return mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, opts)
}

// connect serves s to a new client over an in-memory transport.
func connect(t *testing.T, s *mcpserver.Server, c *mcp.Client, protocol string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := c.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// callTool calls name and returns the structured result, failing when a
// secret appears anywhere the client saw.
func callTool(t *testing.T, cs *mcp.ClientSession, rec *recorder, name string, args map[string]any) *tool.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := &mcp.CallToolParams{Name: name, Arguments: args}
	p.SetProgressToken("tok-" + name)
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	rec.mu.Lock()
	seen, _ := json.Marshal([]any{rec.elicits, rec.progress})
	rec.mu.Unlock()
	for _, secret := range secrets {
		if strings.Contains(string(raw), secret) || strings.Contains(string(seen), secret) {
			t.Fatalf("secret %q reached the client: %s %s", secret, raw, seen)
		}
	}
	if res.StructuredContent == nil {
		t.Fatalf("no structured content: %s", raw)
	}
	var out tool.Result
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if res.IsError != (out.Status == runtime.StateFailed) {
		t.Errorf("IsError %v for %s", res.IsError, out.Status)
	}
	return &out
}

// secrets are every secret input value the tests pass.
var secrets = []string{pin, tellerPassword}

func TestListTools(t *testing.T) {
	s := mcpserver.New()
	defer s.Close()
	tl := flagTool(t)
	if err := s.Add(tl); err != nil {
		t.Fatal(err)
	}
	if err := s.Add(flagTool(t)); err == nil {
		t.Error("a duplicate name was served")
	}
	cs := connect(t, s, (&recorder{}).client(), "")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Tools) != 1 {
		t.Fatalf("%d tools", len(res.Tools))
	}
	got := res.Tools[0]
	d := tl.Description()
	var in, out map[string]any
	remarshal(t, got.InputSchema, &in)
	remarshal(t, got.OutputSchema, &out)
	var win, wout map[string]any
	remarshal(t, d.InputSchema, &win)
	remarshal(t, d.OutputSchema, &wout)
	if got.Name != "teller.flag-member" || got.Description != d.Description || !reflect.DeepEqual(in, win) || !reflect.DeepEqual(out, wout) {
		t.Errorf("tool %+v", got)
	}
	if p := in["properties"].(map[string]any)["pin"].(map[string]any); p["writeOnly"] != true {
		t.Errorf("pin %v", p)
	}
	if a := got.Annotations; a == nil || a.ReadOnlyHint || a.DestructiveHint == nil || !*a.DestructiveHint {
		t.Errorf("annotations %+v", a)
	}
}

func remarshal(t *testing.T, v any, into any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, into); err != nil {
		t.Fatal(err)
	}
}

func TestGates(t *testing.T) {
	args := map[string]any{"member_id": "100234", "pin": pin}
	for _, tc := range []struct {
		name, protocol, answer string
		status                 runtime.TerminalState
		reason                 string
	}{
		{"approved_multi_round_trip", "", "approve", runtime.StateCompleted, ""},
		{"approved_direct_elicitation", "2025-11-25", "approve", runtime.StateCompleted, ""},
		{"rejected", "", "reject", runtime.StateStoppedAtGate, "denied"},
		{"rejected_direct", "2025-11-25", "reject", runtime.StateStoppedAtGate, "denied"},
		{"no_elicitation", "", "", runtime.StateStoppedAtGate, "no_approver"},
		{"no_elicitation_old_protocol", "2025-06-18", "", runtime.StateStoppedAtGate, "no_approver"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mcpserver.New()
			defer s.Close()
			tl := flagTool(t)
			if err := s.Add(tl); err != nil {
				t.Fatal(err)
			}
			rec := &recorder{answer: tc.answer}
			cs := connect(t, s, rec.client(), tc.protocol)
			want := tc.protocol
			if want == "" {
				want = mcpserver.ProtocolMultiRoundTrip
			}
			if got := cs.InitializeResult().ProtocolVersion; got != want {
				t.Fatalf("negotiated %s, want %s", got, want)
			}
			out := callTool(t, cs, rec, "teller.flag-member", args)
			if out.Status != tc.status {
				t.Fatalf("status %s (%+v), want %s", out.Status, out.Failure, tc.status)
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if tc.answer == "" {
				if len(rec.elicits) != 0 {
					t.Errorf("elicited without the capability: %v", rec.elicits)
				}
			} else if len(rec.elicits) != 1 || !strings.Contains(rec.elicits[0].Message, `"flag-member"`) || !strings.Contains(rec.elicits[0].Message, "Flag the member for review") {
				t.Errorf("elicitations %+v", rec.elicits)
			}
			switch tc.status {
			case runtime.StateCompleted:
				if out.Outputs["confirmation"] != "Member flagged for review" || !out.EffectDispatched {
					t.Errorf("result %+v", out)
				}
			case runtime.StateStoppedAtGate:
				d := out.Decision
				if d == nil || d.ActionID != "flag-member" || d.Reason != tc.reason || d.ExecutionHash != tl.ExecutionHash() || d.Effect != capability.EffectConsequential || out.EffectDispatched {
					t.Errorf("decision %+v result %+v", d, out)
				}
			}
			// Milestones were reported as progress on the call's token.
			if len(rec.progress) == 0 {
				t.Fatal("no progress notification")
			}
			last := 0.0
			for _, p := range rec.progress {
				if p.ProgressToken != "tok-teller.flag-member" || p.Progress <= last || !strings.HasPrefix(p.Message, "milestone ") {
					t.Errorf("progress %+v", p)
				}
				last = p.Progress
			}
		})
	}
}

func TestStaleRequestState(t *testing.T) {
	s := mcpserver.New()
	defer s.Close()
	if err := s.Add(flagTool(t)); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, (&recorder{}).client(), "")
	p := &mcp.CallToolParams{Name: "teller.flag-member", Arguments: map[string]any{"member_id": "1", "pin": pin}, RequestState: "forged"}
	res, err := cs.CallTool(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError {
		t.Errorf("a forged request state was accepted: %+v", res)
	}
}

func TestBadArguments(t *testing.T) {
	s := mcpserver.New()
	defer s.Close()
	if err := s.Add(flagTool(t)); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s, (&recorder{}).client(), "")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "teller.flag-member", Arguments: map[string]any{"pin": pin, "reason": pin}})
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	if !res.IsError || strings.Contains(string(raw), pin) || !strings.Contains(string(raw), "member_id") {
		t.Errorf("result %s", raw)
	}
}
