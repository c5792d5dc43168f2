// Package cdpws is the Chrome DevTools Protocol transport under go-rod's
// CDP client: a WebSocket connection (github.com/coder/websocket) whose
// Send and Read satisfy cdp.WebSocketable, hardened so that no endpoint,
// however broken or hostile, can make rod's reader goroutine panic,
// allocate without bound or hang a call.
//
// Invariants:
//   - rod's reader decodes every message with encoding/json and panics
//     (utils.E) on any error: Read hands it only messages [Validate]
//     accepted, and ends the connection on the first one it refuses.
//   - Pings are answered, close frames end the connection with a
//     [*CloseError], fragmented messages are reassembled (all by the
//     WebSocket layer); frames that break RFC 6455 end it with a
//     [*ProtocolError].
//   - One message (its fragments together) is read up to
//     MaxMessageBytes ([DefaultMaxMessageBytes] = 256 MiB) into a
//     buffer that grows with the bytes actually received: a frame header
//     that claims 2^62 bytes allocates nothing, and the connection closes
//     when the received bytes pass the limit.
//   - A stalled endpoint (the TCP connection open, nothing answered) is
//     found while a call waits: after a second with nothing received the
//     keepalive pings, and a ping without its pong within the stall
//     timeout ([DefaultStallTimeout]) while the reader waits on the
//     network ends the connection with a [*StallError]. A write that does
//     not complete within the stall timeout does too. The reader busy
//     delivering a message to rod is never counted as a stall.
//   - The first error that ends the connection is kept ([Conn.Err]) and
//     returned by every later Send and Read.
//   - Close drops the socket at once, without the close handshake (which
//     waits up to 10 s for the peer), and waits for the keepalive.
//   - Dial uses no proxy from the environment and follows no redirect;
//     it is bounded by ctx and the dial timeout.
package cdpws
