// Package mcpserver serves verified capability bundles as MCP tools, on
// the official SDK (github.com/modelcontextprotocol/go-sdk): [Load] reads
// every bundle in a folder, serves each one bundle.Verify accepts as one
// tool (package tool describes and runs it) and lists the others as
// [Rejection]s, never as tools. [Server.ServeStdio] and
// [Server.HTTPHandler] (streamable HTTP) are the transports;
// [Server.MCP] gives the SDK server for any other.
//
// # Decisions
//
//   - Gates: a consequential action asks the person through MCP
//     elicitation: a form naming the action (effect, id, operation,
//     milestone, capability, intent) with one required choice, approve or
//     reject. Only an accepted form with "approve" approves; decline,
//     cancel, no answer within [WithApprovalTimeout] or a failed request
//     reject. A client that does not declare elicitation gets
//     stopped_at_gate with the decision to make (tool.Decision), never an
//     automatic approval.
//   - Protocol versions: from [ProtocolMultiRoundTrip] a server may not
//     send its own requests while serving a call; it returns input
//     requests and the client calls again with the answers and the
//     request state (SEP-2322). The run therefore belongs to the server,
//     not the request: it parks at the gate under an unguessable request
//     state until the answer comes (or the timeout, or [Server.Close]).
//     The request state is 128 random bits, good for one answer to that
//     tool; the retry's arguments are ignored (the parked run keeps the
//     ones it started with). An answer arriving after the timeout gets a
//     tool error saying no run waits for it: call the tool again. With an
//     older client the run elicits directly. A request canceled
//     while the run is not parked cancels the run.
//   - Progress: when the call carries a progress token, every milestone
//     start and end is one notification ("milestone login completed ->
//     search"): ids and statuses only, never a value.
//   - Concurrency: bundle tools share one tool.Semaphore
//     ([WithMaxConcurrent], default tool.DefaultMaxConcurrent) unless
//     [WithToolOptions] passes a tool.WithRunner (a job runner).
//   - A failed run is a tool error (IsError) with the structured result;
//     refused arguments are a tool error naming inputs and rules, never a
//     value; a secret input never appears in a result or a notification.
//   - Duplicate tool names are refused ([ErrDuplicate]): two versions of
//     one capability in one folder serve the first in name order.
package mcpserver
