package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/tool"
)

// approvalKey is the id of the one input request a parked run asks for.
const approvalKey = "approval"

// call is one tool call's run, which may outlive the MCP request that
// started it while it waits at a gate (multi round-trip).
type call struct {
	id     string
	tool   *tool.Tool
	asks   chan *ask
	done   chan struct{}
	res    *tool.Result
	err    error
	cancel context.CancelFunc

	mu       sync.Mutex
	session  *mcp.ServerSession
	token    any // the current request's progress token, nil for none
	progress float64
	pending  *ask // set while parked
}

// ask is one approval the run waits for.
type ask struct {
	req   runtime.ApprovalRequest
	reply chan runtime.Approval
}

// handler is the MCP handler of t.
func (s *Server) handler(t *tool.Tool) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Params.RequestState != "" {
			return s.resume(ctx, t, req)
		}
		c, err := s.start(t, req)
		if err != nil {
			return nil, err
		}
		return s.wait(ctx, c)
	}
}

// start begins the run of one call in its own goroutine, bound to the
// server's lifetime rather than the request's, so that it can wait at a
// gate across a multi round-trip.
func (s *Server) start(t *tool.Tool, req *mcp.CallToolRequest) (*call, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	ctx, cancel := context.WithCancel(s.ctx)
	c := &call{id: newID(), tool: t, asks: make(chan *ask), done: make(chan struct{}), cancel: cancel}
	s.wg.Add(1)
	s.mu.Unlock()
	c.follow(req)

	var approver runtime.Approver
	caps := req.ClientCapabilities()
	switch {
	case caps == nil || caps.Elicitation == nil:
		// No way to ask the person: the run stops at the gate with the
		// decision to make. Never an automatic approval.
	case req.ProtocolVersion() >= ProtocolMultiRoundTrip:
		approver = runtime.ApproverFunc(func(ctx context.Context, r runtime.ApprovalRequest) (runtime.Approval, error) {
			return s.askParked(ctx, c, r)
		})
	default:
		session := req.Session
		approver = runtime.ApproverFunc(func(ctx context.Context, r runtime.ApprovalRequest) (runtime.Approval, error) {
			ctx, stop := context.WithTimeout(ctx, s.cfg.approvalTimeout)
			defer stop()
			res, err := session.Elicit(ctx, elicitParams(r))
			if err != nil {
				return runtime.Approval{}, err
			}
			return approval(r, res), nil
		})
	}
	opts := []tool.CallOption{tool.WithHooks(c.hooks(ctx))}
	if approver != nil {
		opts = append(opts, tool.WithApprover(approver))
	}
	args := req.Params.Arguments
	go func() {
		defer s.wg.Done()
		defer cancel()
		c.res, c.err = t.Call(ctx, args, opts...)
		s.mu.Lock()
		delete(s.parked, c.id)
		s.mu.Unlock()
		close(c.done)
	}()
	return c, nil
}

// follow points progress notifications at the current request.
func (c *call) follow(req *mcp.CallToolRequest) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.session = req.Session
	c.token = req.Params.GetProgressToken()
}

// wait waits for the run to end or to ask for an approval. On an
// approval under multi round-trip it parks the run and returns the input
// request; the client answers with a new call carrying the request
// state. If the request ends first, the run is canceled.
func (s *Server) wait(ctx context.Context, c *call) (*mcp.CallToolResult, error) {
	select {
	case <-c.done:
		return c.result()
	case a := <-c.asks:
		s.mu.Lock()
		c.mu.Lock()
		c.pending = a
		c.mu.Unlock()
		s.parked[c.id] = c
		s.mu.Unlock()
		return &mcp.CallToolResult{
			InputRequests: mcp.InputRequestMap{approvalKey: elicitParams(a.req)},
			RequestState:  c.id,
		}, nil
	case <-ctx.Done():
		c.cancel()
		<-c.done
		return nil, ctx.Err()
	}
}

// resume delivers the person's answer to a parked run and waits again.
func (s *Server) resume(ctx context.Context, t *tool.Tool, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	s.mu.Lock()
	c := s.parked[req.Params.RequestState]
	if c != nil && c.tool == t {
		delete(s.parked, c.id)
	} else {
		c = nil
	}
	s.mu.Unlock()
	if c == nil {
		return errorResult(errors.New("no run waits for this answer (unknown, answered or expired request state); call the tool again")), nil
	}
	c.mu.Lock()
	a := c.pending
	c.pending = nil
	c.mu.Unlock()
	c.follow(req)
	res, _ := req.Params.InputResponses[approvalKey].(*mcp.ElicitResult)
	ap := approval(a.req, res)
	select {
	case a.reply <- ap:
	case <-c.done:
	}
	return s.wait(ctx, c)
}

// askParked hands the approval request to the waiting handler and waits
// for the answer, at most the approval timeout.
func (s *Server) askParked(ctx context.Context, c *call, r runtime.ApprovalRequest) (runtime.Approval, error) {
	a := &ask{req: r, reply: make(chan runtime.Approval, 1)}
	timer := time.NewTimer(s.cfg.approvalTimeout)
	defer timer.Stop()
	select {
	case c.asks <- a:
	case <-ctx.Done():
		return runtime.Approval{}, ctx.Err()
	}
	select {
	case ap := <-a.reply:
		return ap, nil
	case <-timer.C:
		s.mu.Lock()
		delete(s.parked, c.id)
		s.mu.Unlock()
		return runtime.Approval{}, fmt.Errorf("no answer within %s", s.cfg.approvalTimeout)
	case <-ctx.Done():
		return runtime.Approval{}, ctx.Err()
	}
}

// result is the ended run as an MCP result.
func (c *call) result() (*mcp.CallToolResult, error) {
	if c.err != nil {
		if errors.Is(c.err, tool.ErrArguments) || errors.Is(c.err, tool.ErrNoDriver) || errors.Is(c.err, tool.ErrDriver) {
			return errorResult(c.err), nil
		}
		return nil, c.err
	}
	return toolResult(c.res), nil
}

// hooks report milestones as progress notifications to the current
// request, when it asked for progress.
func (c *call) hooks(ctx context.Context) *runtime.Hooks {
	notify := func(msg string) {
		c.mu.Lock()
		session, token := c.session, c.token
		c.progress++
		p := c.progress
		c.mu.Unlock()
		if token == nil || session == nil {
			return
		}
		_ = session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: p, Message: msg})
	}
	return &runtime.Hooks{
		MilestoneStart: func(i runtime.MilestoneStartInfo) {
			notify(fmt.Sprintf("milestone %s started", i.ID))
		},
		MilestoneDone: func(i runtime.MilestoneDoneInfo) {
			msg := fmt.Sprintf("milestone %s %s", i.ID, i.Status)
			if i.Next != "" {
				msg += " -> " + i.Next
			}
			notify(msg)
		},
	}
}

// elicitParams asks the person to approve or reject one named action.
func elicitParams(r runtime.ApprovalRequest) *mcp.ElicitParams {
	return &mcp.ElicitParams{
		Mode: "form",
		Message: fmt.Sprintf("Approve the %s action %q (%s, milestone %s) of %s %s? %s",
			r.Effect, r.ActionID, r.Operation, r.Milestone, r.CapabilityID, r.Version, r.Intent),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"decision": map[string]any{
					"type":        "string",
					"title":       "Decision",
					"description": "approve performs the action " + r.ActionID + "; reject stops the run at its gate",
					"enum":        []any{"approve", "reject"},
				},
			},
			"required": []any{"decision"},
		},
	}
}

// approval is the person's answer: approved only for an accepted form
// whose decision is "approve"; decline, cancel, no answer or anything else
// rejects.
func approval(r runtime.ApprovalRequest, res *mcp.ElicitResult) runtime.Approval {
	ok := res != nil && res.Action == "accept" && res.Content["decision"] == "approve"
	return runtime.Approval{ActionID: r.ActionID, Approved: ok, Approver: "mcp-elicitation"}
}
