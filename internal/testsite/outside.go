package testsite

import (
	"encoding/base64"
	"io"
	"net/http"
)

// Outside is an origin that must never be contacted by a capability scoped
// to the other apps. It answers every method and path with 200 and counts
// every request and connection (see the embedded [Server]'s Hits,
// TotalHits, Requests and Connections). It serves GET /pixel.png (1x1 PNG), GET /script.js, GET /page
// (h1 "Outside page"), POST /submit (h1 "Outside received") and text
// "outside" for anything else, including /favicon.ico.
type Outside struct {
	*Server
}

// pixelPNG is a 1x1 transparent PNG.
var pixelPNG, _ = base64.StdEncoding.DecodeString(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")

// StartOutside starts only the outside origin on http://127.0.0.1:<random>.
func StartOutside(opts ...Option) (*Outside, error) {
	return StartOutsideAt("127.0.0.1:0", opts...)
}

// StartOutsideAt starts an outside origin listening on addr, e.g.
// "127.0.0.2:41234" to stand for the address a DNS-rebinding name
// switches to: same port as an allowed origin, another loopback address.
// Its origin names the listening address.
func StartOutsideAt(addr string, opts ...Option) (*Outside, error) {
	o := buildOptions(opts)
	srv, err := newServerAt("outside", "", addr, http.HandlerFunc(serveOutside), o.Logger)
	if err != nil {
		return nil, err
	}
	return &Outside{Server: srv}, nil
}

func serveOutside(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, io.LimitReader(r.Body, 1<<20))
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	switch r.URL.Path {
	case "/pixel.png":
		h.Set("Content-Type", "image/png")
		_, _ = w.Write(pixelPNG)
	case "/script.js":
		h.Set("Content-Type", "text/javascript; charset=utf-8")
		_, _ = io.WriteString(w, "window.__outsideLoaded = true;\n")
	case "/page":
		h.Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Outside page</title></head><body><h1>Outside page</h1></body></html>\n")
	case "/submit":
		h.Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Outside received</title></head><body><h1>Outside received</h1></body></html>\n")
	default:
		h.Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, "outside\n")
	}
}
