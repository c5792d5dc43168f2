// Command mcpserver serves every verified capability bundle in a folder
// as MCP tools, over stdio (the default) or streamable HTTP:
//
//	go run ./examples/mcpserver -bundles DIR [-connect WS_ENDPOINT | -browser PATH] [-http 127.0.0.1:8765] [-runs DIR] [-max N] [-allow-launched]
//
// Each bundle is checked with bundle.Verify; a bundle that does not
// verify is reported on standard error and never offered as a tool. Each
// tool call opens its own browser: a new browser context of the Chrome
// named by -connect (its DevTools WebSocket endpoint), or a Chromium
// launched for the call (-browser, $VERA_BROWSER or the usual install
// locations). Consequential actions are approved by the person through
// MCP elicitation; a client without elicitation gets stopped_at_gate with
// the decision to make.
//
// Invariants:
//   - On stdio, standard output carries only MCP messages; logs and the
//     served/rejected list go to standard error.
//   - Run evidence goes to -runs (default: a new folder under the system
//     temporary folder, since run folders are refused inside a Git work
//     tree); it is kept after exit.
//   - At most -max calls run at once (default tool.DefaultMaxConcurrent).
//   - -http listens where it is told; give it a loopback address unless a
//     proxy in front authenticates clients: the server has no
//     authentication of its own.
package main
