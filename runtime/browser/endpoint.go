package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/vera-run/vera/internal/origin"
	"github.com/vera-run/vera/runtime"
	"github.com/vera-run/vera/runtime/browser/internal/cdpws"
)

// maxVersionBody bounds the /json/version answer Connect reads.
const maxVersionBody = 64 << 10

// endpoint is a checked CDP endpoint.
type endpoint struct {
	u     *url.URL
	local bool
}

// localHostsRule is the endpoint rule as errors state it.
const localHostsRule = "only 127.0.0.1, localhost and [::1] are local endpoints; any other host (other 127.x addresses included) needs WithRemoteEndpoint"

// isLocalEndpointHost reports whether host (a URL's Hostname: no brackets,
// no port) is one of the three local endpoint hosts Connect accepts
// without [WithRemoteEndpoint]: internal/origin's loopback hosts
// 127.0.0.1, localhost (any case) and ::1, written exactly so. Other
// loopback spellings and addresses (127.0.0.2, 0:0:0:0:0:0:0:1, 127.1,
// localhost.) are not local endpoints.
func isLocalEndpointHost(host string) bool { return origin.IsLoopbackHost(host) }

// redacted is the endpoint's scheme and host only, for errors and logs.
func (e endpoint) redacted() string { return e.u.Scheme + "://" + e.u.Host }

// parseEndpoint checks a Connect endpoint: http(s) discovery URLs and
// ws(s) browser URLs on a local host (see isLocalEndpointHost) with an
// explicit port, or, with remote allowed, a ws(s) URL on any host.
func parseEndpoint(raw string, remote bool) (endpoint, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || u.Opaque != "" {
		return endpoint{}, &EndpointError{Reason: "not an absolute URL with a host"}
	}
	red := u.Scheme + "://" + u.Host
	switch u.Scheme {
	case "http", "https", "ws", "wss":
	default:
		return endpoint{}, &EndpointError{Endpoint: red, Reason: "scheme must be http, https, ws or wss"}
	}
	host := u.Hostname()
	if isLocalEndpointHost(host) {
		if u.Port() == "" {
			return endpoint{}, &EndpointError{Endpoint: red, Reason: "a local endpoint needs an explicit port"}
		}
		if u.User != nil {
			return endpoint{}, &EndpointError{Endpoint: red, Reason: "user info is not allowed"}
		}
		return endpoint{u: u, local: true}, nil
	}
	if !remote {
		return endpoint{}, &EndpointError{Endpoint: red, Reason: localHostsRule}
	}
	if u.Scheme != "ws" && u.Scheme != "wss" {
		return endpoint{}, &EndpointError{Endpoint: red, Reason: "a remote endpoint (" + localHostsRule + ") must be a ws:// or wss:// browser URL"}
	}
	return endpoint{u: u}, nil
}

// webSocketURL returns the browser's websocket URL: the endpoint itself
// for ws(s), or the webSocketDebuggerUrl of /json/version for http(s),
// re-pointed at the endpoint's host and port so a browser that reports
// another address cannot redirect the connection.
func (e endpoint) webSocketURL(ctx context.Context) (string, error) {
	if e.u.Scheme == "ws" || e.u.Scheme == "wss" {
		return e.u.String(), nil
	}
	// The discovery is bounded like the dial, whatever ctx allows.
	ctx, cancel := context.WithTimeout(ctx, cdpws.DefaultDialTimeout)
	defer cancel()
	v := *e.u
	v.Path = "/json/version"
	v.RawQuery = ""
	v.Fragment = ""
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, v.String(), nil)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", runtime.ErrBrowserUnavailable, e.redacted(), err)
	}
	// Its own transport: no proxy from the environment, no connection
	// kept idle after the answer.
	tr := &http.Transport{Proxy: nil, DisableKeepAlives: true}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %v", runtime.ErrBrowserUnavailable, e.redacted(), err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("%w: %s: /json/version answered HTTP %d", runtime.ErrBrowserUnavailable, e.redacted(), res.StatusCode)
	}
	var doc struct {
		WebSocketDebuggerURL string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, maxVersionBody)).Decode(&doc); err != nil {
		return "", fmt.Errorf("%w: %s: /json/version: %v", runtime.ErrBrowserUnavailable, e.redacted(), err)
	}
	ws, err := url.Parse(doc.WebSocketDebuggerURL)
	if err != nil || (ws.Scheme != "ws" && ws.Scheme != "wss") || !strings.HasPrefix(ws.Path, "/devtools/browser/") {
		return "", fmt.Errorf("%w: %s: /json/version has no browser websocket URL", runtime.ErrBrowserUnavailable, e.redacted())
	}
	ws.Host = e.u.Host
	if e.u.Scheme == "https" {
		ws.Scheme = "wss"
	} else {
		ws.Scheme = "ws"
	}
	return ws.String(), nil
}
