package mcpserver_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/tool/mcpserver"
)

// TestStreamableHTTP approves a gate through elicitation over streamable
// HTTP, for the newest protocol (multi round-trip) and an older one
// (direct elicitation on the call's stream).
func TestStreamableHTTP(t *testing.T) {
	for _, protocol := range []string{"", "2025-11-25"} {
		t.Run("protocol_"+protocol, func(t *testing.T) {
			s := mcpserver.New()
			defer s.Close()
			if err := s.Add(flagTool(t)); err != nil {
				t.Fatal(err)
			}
			hs := httptest.NewServer(s.HTTPHandler())
			defer hs.Close()
			rec := &recorder{answer: "approve"}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cs, err := rec.client().Connect(ctx, &mcp.StreamableClientTransport{Endpoint: hs.URL, HTTPClient: hs.Client()}, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			out := callTool(t, cs, rec, "teller.flag-member", map[string]any{"member_id": "100234", "pin": pin})
			if out.Status != runtime.StateCompleted || out.Outputs["confirmation"] != "Member flagged for review" {
				t.Fatalf("result %+v", out)
			}
			rec.mu.Lock()
			defer rec.mu.Unlock()
			if len(rec.elicits) != 1 {
				t.Errorf("%d elicitations", len(rec.elicits))
			}
		})
	}
}

// TestCloseEndsParkedRun: a run waiting at a gate for an answer that never
// comes ends when the server closes, and leaves no goroutine (TestMain).
func TestCloseEndsParkedRun(t *testing.T) {
	s := mcpserver.New(mcpserver.WithApprovalTimeout(time.Hour))
	if err := s.Add(flagTool(t)); err != nil {
		t.Fatal(err)
	}
	asked := make(chan struct{})
	c := mcp.NewClient(&mcp.Implementation{Name: "silent", Version: "v0"}, &mcp.ClientOptions{
		ElicitationHandler: func(ctx context.Context, _ *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
			close(asked)
			<-ctx.Done() // the person never answers
			return nil, ctx.Err()
		},
	})
	cs := connect(t, s, c, "")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "teller.flag-member", Arguments: map[string]any{"member_id": "1", "pin": pin}})
		done <- err
	}()
	select {
	case <-asked:
	case <-time.After(time.Minute):
		t.Fatal("never asked")
	}
	closed := make(chan struct{})
	go func() { s.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("Close did not end the parked run")
	}
	cancel()
	<-done
}
