package browser

import (
	"errors"
	"fmt"

	"github.com/vera-run/vera/runtime"
)

// ErrEndpointNotAllowed is wrapped by every [EndpointError]: the CDP
// endpoint given to [Connect] is malformed or outside what the options
// allow.
var ErrEndpointNotAllowed = errors.New("browser: CDP endpoint not allowed")

// ErrInvalidSelector is returned by Find and Frame when the browser
// rejects a CSS selector.
var ErrInvalidSelector = errors.New("browser: invalid CSS selector")

// ErrInvalidOrigin is returned by RestrictOrigins for an entry that is not
// a bare http(s) origin such as "https://example.com" or
// "http://127.0.0.1:8080".
var ErrInvalidOrigin = errors.New("browser: invalid origin")

// EndpointError describes why [Connect] refused an endpoint. It never
// holds the endpoint's query, user info or path, which may carry tokens.
type EndpointError struct {
	// Endpoint is the endpoint's scheme and host, e.g. "ws://10.0.0.5:9222".
	Endpoint string
	// Reason says what is wrong.
	Reason string
}

func (e *EndpointError) Error() string {
	if e.Endpoint == "" {
		return fmt.Sprintf("%v: %s", ErrEndpointNotAllowed, e.Reason)
	}
	return fmt.Sprintf("%v: %s: %s", ErrEndpointNotAllowed, e.Endpoint, e.Reason)
}

// Unwrap returns [ErrEndpointNotAllowed].
func (e *EndpointError) Unwrap() error { return ErrEndpointNotAllowed }

// errNilContext is returned, wrapping [runtime.ErrInvalidArgument], by
// Launch, Connect and every driver call given a nil context.
var errNilContext = fmt.Errorf("browser: %w: nil context", runtime.ErrInvalidArgument)

// ErrInvalidOption is returned by [Launch] and [Connect] for an option
// value outside its documented range.
var ErrInvalidOption = errors.New("browser: invalid option")

// ErrProtocol is wrapped by every [*ProtocolError]: the CDP endpoint sent
// something that is not the Chrome DevTools Protocol over WebSocket.
var ErrProtocol = errors.New("browser: CDP protocol violation")

// ErrEndpointStalled: the CDP endpoint stopped answering while its
// connection stayed open (a ping got no pong, or a write did not
// complete, within the stall timeout).
var ErrEndpointStalled = errors.New("browser: CDP endpoint stalled")

// ErrDisconnected: the CDP connection ended from the endpoint's side,
// with a close frame ([*CloseError]) or without one (reset, end of
// stream, a truncated frame).
var ErrDisconnected = errors.New("browser: CDP connection ended by the endpoint")

// ProtocolError says what the endpoint sent that is not CDP. The driver
// closes the connection on the first such message; the error reaches the
// caller wrapped in [runtime.ErrBrowserCrashed] (during a run) or
// [runtime.ErrBrowserUnavailable] (during [Connect] or [Launch]).
type ProtocolError struct {
	// Endpoint is the endpoint's scheme and host, e.g. "ws://127.0.0.1:9222".
	Endpoint string
	// Reason says what was wrong, e.g. `"id" is a JSON string, not an
	// integer` or "a message exceeds the read limit". It never quotes
	// the message.
	Reason string
}

func (e *ProtocolError) Error() string {
	return fmt.Sprintf("%v: %s: %s", ErrProtocol, e.Endpoint, e.Reason)
}

// Unwrap returns [ErrProtocol].
func (e *ProtocolError) Unwrap() error { return ErrProtocol }

// CloseError is a close frame the endpoint sent.
type CloseError struct {
	// Endpoint is the endpoint's scheme and host.
	Endpoint string
	// Code is the WebSocket close status (1000 normal, 1001 going away...).
	Code int
	// Reason is the close frame's reason text (at most 123 bytes).
	Reason string
}

func (e *CloseError) Error() string {
	if e.Reason == "" {
		return fmt.Sprintf("%v: %s: close frame, status %d", ErrDisconnected, e.Endpoint, e.Code)
	}
	return fmt.Sprintf("%v: %s: close frame, status %d (%q)", ErrDisconnected, e.Endpoint, e.Code, e.Reason)
}

// Unwrap returns [ErrDisconnected].
func (e *CloseError) Unwrap() error { return ErrDisconnected }
