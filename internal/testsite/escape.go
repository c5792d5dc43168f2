package testsite

import "net/http"

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
)

type escapeData struct {
	Kind    string
	Title   string
	Outside string
}

func (t *Teller) escapeRoutes(mux *http.ServeMux) {
	pages := map[string]string{
		EscapeJSRedirect:  "JS redirect escape",
		EscapePopup:       "Popup escape",
		EscapeIframe:      "Iframe escape",
		EscapeForm:        "Form escape",
		EscapeSubresource: "Subresources",
		EscapeLink:        "Link escape",
	}
	for path, title := range pages {
		kind := path[len("/escape/"):]
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
			out := t.outsideOrigin()
			if out == "" {
				http.Error(w, "testsite: no outside origin configured", http.StatusServiceUnavailable)
				return
			}
			render(w, http.StatusOK, "escape.html", escapeData{Kind: kind, Title: title, Outside: out})
		})
	}
	mux.HandleFunc("GET "+EscapeRedirect, func(w http.ResponseWriter, r *http.Request) {
		out := t.outsideOrigin()
		if out == "" {
			http.Error(w, "testsite: no outside origin configured", http.StatusServiceUnavailable)
			return
		}
		http.Redirect(w, r, out+"/page", http.StatusFound)
	})
}
