package testsite

import (
	"net/http"
	"strings"
)

// Escape page paths on the Teller origin. Each one tries to reach the
// Outside origin in a different way; origin-scope tests load them and assert
// that Outside recorded no hit.
const (
	EscapeRedirect    = "/escape/redirect"    // 302 to <outside>/page
	EscapeJSRedirect  = "/escape/js-redirect" // location.href = <outside>/page on load
	EscapePopup       = "/escape/popup"       // button "Open popup" -> window.open
	EscapeIframe      = "/escape/iframe"      // iframe "Outside frame"
	EscapeForm        = "/escape/form"        // button "Send" POSTs to <outside>/submit
	EscapeSubresource = "/escape/subresource" // img + script from outside
	EscapeLink        = "/escape/link"        // link "Leave"
	// EscapeWorkerWS starts a dedicated worker loaded over http
	// (/assets/escape-worker.js) that opens ws://<outside>/ws; the status
	// reads "Worker WebSocket: open" or "Worker WebSocket: error" after.
	EscapeWorkerWS = "/escape/worker-ws"
	// EscapeServiceWorker registers the service worker /escape/sw.js
	// (scope /escape/), which fetches <outside>/sw-fetch and opens
	// ws://<outside>/ws when it activates; the status reads "Service
	// worker ready" once navigator.serviceWorker.ready resolved, then
	// "Service worker ready, WebSocket open" (or "error").
	EscapeServiceWorker = "/escape/service-worker"
	// EscapePreconnect carries <link rel=preconnect> to <outside> and to
	// its https twin, and <link rel=dns-prefetch> to <outside>.
	EscapePreconnect = "/escape/preconnect"
	// EscapeRebind has a button "Fetch data" that fetches
	// /escape/rebind/data/1..4 from the page's own origin in parallel and
	// shows the outcome in its status; the page and the data answer with
	// Connection: close. These are the moves of a DNS-rebinding page: a
	// fresh connection per request, so that a name switched to another
	// address after the first load is resolved again.
	EscapeRebind = "/escape/rebind"
)

type escapeData struct {
	Kind       string
	Title      string
	Outside    string
	OutsideTLS string // the https origin at the outside host and port
}

func (t *Teller) escapeRoutes(mux *http.ServeMux) {
	pages := map[string]string{
		EscapeJSRedirect:    "JS redirect escape",
		EscapePopup:         "Popup escape",
		EscapeIframe:        "Iframe escape",
		EscapeForm:          "Form escape",
		EscapeSubresource:   "Subresources",
		EscapeLink:          "Link escape",
		EscapeWorkerWS:      "Worker WebSocket escape",
		EscapeServiceWorker: "Service worker escape",
		EscapePreconnect:    "Preconnect escape",
		EscapeRebind:        "Rebinding page",
	}
	for path, title := range pages {
		kind := path[len("/escape/"):]
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
			out := t.outsideOrigin()
			if out == "" {
				http.Error(w, "testsite: no outside origin configured", http.StatusServiceUnavailable)
				return
			}
			if path == EscapeRebind {
				w.Header().Set("Connection", "close")
			}
			render(w, http.StatusOK, "escape.html", escapeData{Kind: kind, Title: title, Outside: out,
				OutsideTLS: "https://" + strings.TrimPrefix(out, "http://")})
		})
	}
	mux.HandleFunc("GET /escape/sw.js", func(w http.ResponseWriter, r *http.Request) {
		b, err := webFS.ReadFile("web/assets/escape-sw.js")
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(b)
	})
	mux.HandleFunc("GET /escape/rebind/data/{n}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("Connection", "close")
		_, _ = w.Write([]byte("data " + r.PathValue("n") + "\n"))
	})
	mux.HandleFunc("GET "+EscapeRedirect, func(w http.ResponseWriter, r *http.Request) {
		out := t.outsideOrigin()
		if out == "" {
			http.Error(w, "testsite: no outside origin configured", http.StatusServiceUnavailable)
			return
		}
		http.Redirect(w, r, out+"/page", http.StatusFound)
	})
}
