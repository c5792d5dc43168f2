// Package netgate is the driver's second, network-level layer of origin
// enforcement: a small forward HTTP proxy on a loopback port that one
// browser context sends all its traffic through (the driver passes its
// address as the context's proxyServer, with loopback forced through it).
// It checks every connection against the run's origin scope, whoever in
// the browser opened it: pages, frames, popups, dedicated, shared and
// service workers, preconnects.
//
// Invariants:
//   - It listens on 127.0.0.1 only, on a random port, and serves plain
//     HTTP absolute-form requests ("GET http://host/path") and CONNECT
//     tunnels (https, and ws/wss, which Chromium always tunnels). Anything
//     else is answered 400.
//   - A tunnel may reach the host and effective port of any scope origin
//     (https://h -> h:443; http://h:p -> h:p for ws://). A plain request
//     needs an http origin; one the browser marks as a navigation
//     (Sec-Fetch-Mode navigate, Sec-Fetch-Dest document or a frame type;
//     pages cannot set these headers) needs an Allowed origin. The scope
//     is checked for every request, also on a reused connection.
//   - A host name is resolved once per upstream connection, and the gate
//     dials exactly an address from that answer, so DNS rebinding cannot
//     switch the address under a check. "localhost" (and names under it)
//     is never resolved: it stands for 127.0.0.1 and ::1, as in Chromium.
//   - A non-public address (loopback, RFC 1918 and fc00::/7, 100.64/10,
//     link-local, multicast, unspecified, 0.0.0.0/8; see [Public]) is
//     dialled only when a scope origin names that exact address and port
//     by literal (or localhost). A name that resolves to another loopback
//     or private address (127.0.0.2, 10.0.0.5) is refused. Public
//     addresses behind a scope host are allowed.
//   - The gate never dials itself or an unspecified address, even without
//     a scope; the number of client connections ([MaxConns]) and of
//     requests per connection ([MaxRequestsPerConn]) is bounded.
//   - Hop-by-hop headers (RFC 9110 7.6.1, those Connection names,
//     Proxy-Connection, Proxy-Authorization) are stripped both ways; an
//     upgrade keeps Connection: Upgrade and Upgrade. No header is added
//     (no Via, no X-Forwarded-For, no User-Agent). Header blocks are
//     bounded by [MaxHeaderBytes] (431 beyond), and every connection and
//     tunnel closes after [IdleTimeout] without traffic in either
//     direction.
//   - Every refusal is reported once to the refusal handler, with the
//     origin, a [Kind] and a [Reason]; the refused request gets 403 and
//     never opens a connection. Failures that are not refusals (DNS
//     errors, an unreachable upstream) get 502 and are not reported.
//   - Close closes the listener and every connection and waits for every
//     goroutine of the gate.
//
// Trust: the gate has no authentication. Its port is random and on
// loopback, and it grants nothing: whoever connects gets the same scope
// checks, so a local process learns or reaches nothing it could not reach
// directly (such a process could also use the browser's own DevTools
// port). The worst it can do is add refusals to the run's violations.
// Only the driver's own browser context is configured to use it (the
// proxy is set per context, never browser-wide), so an operator's tabs
// and other drivers' contexts never pass through it.
package netgate
