package testsite

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"time"
)

// Webcheck pages (on the Stress origin): small apps that behave like
// today's web apps, for the outside-checker tests of runtime/browser.
// Each page is served from web/webcheck_*.html with /assets/webcheck.js.
//
//	GET /webcheck/spa/accounts/{id}  a single-page app: nav "Accounts" with links
//	                                 "Current account", "Savings account",
//	                                 "Business account". A link click calls
//	                                 history.pushState at once, keeps the old view
//	                                 (aria-busy, unless ?busy=no) until GET /webcheck/api/accounts/{id}
//	                                 answers (?delay=<ms> on the page: its API delay),
//	                                 then replaces the whole main subtree:
//	                                 h1 account name, dd data-testid=balance, button
//	                                 "Show details" (fetches again, re-renders the
//	                                 subtree with dd data-testid=iban).
//	                                 ?clock=<ms>: span.clock in the top bar shows the
//	                                 time, updated every <ms> (it never stops mutating).
//	GET /webcheck/api/accounts/{id}  JSON {"id","name","balance","iban"}, after
//	                                 ?delay=<ms> (at most 5000) or a delay in
//	                                 [WebcheckDelayMin, WebcheckDelayMax] varying per request;
//	                                 404 for an unknown id
//	GET /webcheck/combo              a booking form: combobox "Destination city"
//	                                 (label for), listbox "Cities"; focus or typing shows
//	                                 the recent cities matching the text at once, then a
//	                                 debounced (150 ms) GET /webcheck/api/cities?q= replaces
//	                                 them with suggestions (a group heading first); an
//	                                 option is chosen on mousedown; status "Chosen: <city>"
//	GET /webcheck/api/cities         JSON array of city names whose name starts with q
//	                                 (case-insensitive), most popular first, after 0-100 ms
//	GET /webcheck/modal              button "Edit shipping address" opens dialog
//	                                 "Shipping address" (aria-modal, focus trap, 400 ms
//	                                 opacity/transform entrance); it loads the saved
//	                                 address (GET /webcheck/api/address, 300 ms) into its
//	                                 fields, disabled until then (?guard=no: editable, so
//	                                 text typed early is overwritten); textbox "Street" and "City" (aria-labelledby
//	                                 only), button "Save address"; status "Saved: <street>, <city>"
//	GET /webcheck/form               a support request: textbox "Order number" (wrapping
//	                                 label, required, pattern [A-Z]{2}-[0-9]{4}), textbox
//	                                 "Contact email" (aria-labelledby, type=email, required),
//	                                 button "Send request" (native validation)
//	POST /webcheck/form              h1 "Request received", dd#order, dd#email
//	GET /webcheck/late-frame         h1 "Statements"; after GET /webcheck/api/config
//	                                 (500 ms) inserts iframe#statements title "Statements
//	                                 frame" whose document (GET /webcheck/frame, 400 ms)
//	                                 holds table "Statements" and button "Request copy"
//	GET /webcheck/grid               a virtualized grid "Orders" (role grid, aria-rowcount
//	                                 1001: 1000 orders and the header row; rows carry
//	                                 aria-rowindex): only the rows in view exist in the DOM;
//	                                 ?rows=<n> holds n orders (aria-rowcount n+1), so with
//	                                 n <= 6 every row exists
//	GET /webcheck/inbox              list "Messages": 10 listitems at a time (aria-setsize
//	                                 ?total=, default 40; aria-posinset) from
//	                                 GET /webcheck/api/items, the whole list re-rendered per
//	                                 batch; button "Load more" while some are missing
//	                                 (hidden while a batch loads);
//	                                 status "Showing <n> of <total>"
//	GET /webcheck/feed               feed "News": articles 5 at a time with aria-setsize=-1
//	                                 (unknown; ?total=<n> declares n), the next batch loaded
//	                                 when the last article scrolls into view (aria-busy)
//	GET /webcheck/api/items          JSON [{"n","title","from"}]: the batch after ?offset=
//	                                 of ?total= items (kind=list: 10 "Message <n>"; kind=feed:
//	                                 5 "Story <n>"), after 150-300 ms

// WebcheckAccount is one account of the webcheck single-page app.
type WebcheckAccount struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Balance string `json:"balance"`
	IBAN    string `json:"iban"`
}

// WebcheckAccounts returns the accounts of the webcheck single-page app.
func WebcheckAccounts() []WebcheckAccount {
	return []WebcheckAccount{
		{"A-1", "Current account", "€ 2,310.40", "IT60 X054 2811 1010 0000 0123 456"},
		{"A-2", "Savings account", "€ 18,902.00", "IT60 X054 2811 1010 0000 0654 321"},
		{"A-3", "Business account", "€ 7,045.15", "IT60 X054 2811 1010 0000 0777 888"},
	}
}

// webcheckCities are the cities the combobox suggests, most popular first.
var webcheckCities = []string{"Milazzo", "Milano", "Militello", "Roma", "Torino", "Rimini", "Ravenna", "Mirano"}

// WebcheckDelay is the range of the single-page app's API delay.
const (
	WebcheckDelayMin = 200 * time.Millisecond
	WebcheckDelayMax = 800 * time.Millisecond
)

type webcheck struct {
	st    *Stress
	calls atomic.Uint64
}

// delay is a deterministic sequence over [WebcheckDelayMin, WebcheckDelayMax].
func (wc *webcheck) delay() time.Duration {
	n := wc.calls.Add(1)
	span := uint64(WebcheckDelayMax - WebcheckDelayMin)
	return WebcheckDelayMin + time.Duration((n*uint64(373*time.Millisecond))%span)
}

func (wc *webcheck) sleep(r *http.Request, d time.Duration) bool {
	return wc.st.sleep(r.Context(), d)
}

func wcJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(v)
}

func (wc *webcheck) routes(mux *http.ServeMux) {
	page := func(name, title string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) { render(w, http.StatusOK, name, title) }
	}
	mux.HandleFunc("GET /webcheck/spa/{rest...}", page("webcheck_spa.html", "Accounts"))
	mux.HandleFunc("GET /webcheck/api/accounts/{id}", func(w http.ResponseWriter, r *http.Request) {
		d := wc.delay()
		if ms, ok := pathCount(r.URL.Query().Get("delay"), 0, 5000); ok {
			d = time.Duration(ms) * time.Millisecond
		}
		if !wc.sleep(r, d) {
			return
		}
		for _, a := range WebcheckAccounts() {
			if a.ID == r.PathValue("id") {
				wcJSON(w, a)
				return
			}
		}
		http.NotFound(w, r)
	})
	mux.HandleFunc("GET /webcheck/combo", page("webcheck_combo.html", "Book a trip"))
	mux.HandleFunc("GET /webcheck/api/cities", func(w http.ResponseWriter, r *http.Request) {
		if !wc.sleep(r, wc.delay()/8) {
			return
		}
		q := strings.ToLower(r.URL.Query().Get("q"))
		out := []string{}
		for _, c := range webcheckCities {
			if q != "" && strings.HasPrefix(strings.ToLower(c), q) {
				out = append(out, c)
			}
		}
		wcJSON(w, out)
	})
	mux.HandleFunc("GET /webcheck/modal", page("webcheck_modal.html", "Your order"))
	mux.HandleFunc("GET /webcheck/api/address", func(w http.ResponseWriter, r *http.Request) {
		if !wc.sleep(r, 300*time.Millisecond) {
			return
		}
		wcJSON(w, map[string]string{"street": "Via Roma 1", "city": "Torino"})
	})
	mux.HandleFunc("GET /webcheck/form", page("webcheck_form.html", "Support request"))
	mux.HandleFunc("POST /webcheck/form", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, "bad form", http.StatusBadRequest)
			return
		}
		render(w, http.StatusOK, "webcheck_received.html", map[string]string{
			"Title": "Request received", "Order": r.PostForm.Get("order"), "Email": r.PostForm.Get("email"),
		})
	})
	mux.HandleFunc("GET /webcheck/late-frame", page("webcheck_late.html", "Statements"))
	mux.HandleFunc("GET /webcheck/api/config", func(w http.ResponseWriter, r *http.Request) {
		if !wc.sleep(r, 500*time.Millisecond) {
			return
		}
		wcJSON(w, map[string]string{"frame": "/webcheck/frame"})
	})
	mux.HandleFunc("GET /webcheck/frame", func(w http.ResponseWriter, r *http.Request) {
		if !wc.sleep(r, 400*time.Millisecond) {
			return
		}
		render(w, http.StatusOK, "webcheck_frame.html", "Statements frame")
	})
	mux.HandleFunc("GET /webcheck/grid", page("webcheck_grid.html", "Orders"))
	mux.HandleFunc("GET /webcheck/inbox", page("webcheck_inbox.html", "Inbox"))
	mux.HandleFunc("GET /webcheck/feed", page("webcheck_feed.html", "News"))
	mux.HandleFunc("GET /webcheck/api/items", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		offset, ok1 := pathCount(q.Get("offset"), 0, 100000)
		total, ok2 := pathCount(q.Get("total"), 0, 100000)
		if !ok1 || !ok2 {
			http.Error(w, "bad offset or total", http.StatusBadRequest)
			return
		}
		batch, title := 10, "Message"
		if q.Get("kind") == "feed" {
			batch, title = 5, "Story"
		}
		if !wc.sleep(r, 100*time.Millisecond+wc.delay()/4) {
			return
		}
		senders := []string{"Anna Greco", "Bruno Sala", "Carla Neri", "Dario Riva"}
		out := []map[string]any{}
		for n := offset + 1; n <= min(offset+batch, total); n++ {
			out = append(out, map[string]any{"n": n, "title": fmt.Sprintf("%s %d", title, n), "from": senders[n%len(senders)]})
		}
		wcJSON(w, out)
	})
}
