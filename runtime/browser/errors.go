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
