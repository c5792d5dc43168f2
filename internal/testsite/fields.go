package testsite

import (
	"encoding/json"
	"net/http"
	"sync"
)

// The fields page (on the Stress origin), for the fill tests of
// runtime/browser: a profile form whose fields count the events a page
// sees, served from web/fields.html with /assets/fields.js.
//
//	GET /fields                 h1 "Your profile"; textbox "Full name" (its change
//	                            handler autosaves: POST /fields/api/autosave, then
//	                            renders status "Autosaved <name> (<n> saves)",
//	                            n the server's count for the page load), textbox
//	                            "Email" (type attribute "EMAIL"), "Password", textbox
//	                            "Nickname" (a React-style controlled input: a
//	                            value tracker on the element, onChange only when
//	                            the value differs from the tracked one, every
//	                            change re-renders the greeting "Hello, <nick>"),
//	                            textbox "Postcode" (controlled the same way: it takes
//	                            digits, spaces dropped, and renders anything else
//	                            away, back to the old value),
//	                            searchbox "Search" (Enter runs the search: status
//	                            "Results for <q>"), textarea "Notes", textarea
//	                            "Locked note" (its beforeinput handler cancels every edit),
//	                            contenteditable textbox "Bio", date "Birth date",
//	                            time "Alarm", number "Guests", range "Volume",
//	                            color "Colour"; fields that refuse a fill: textbox
//	                            "Reference" (its input handler puts "REF-1" back),
//	                            "Coupon" (puts "WELCOME" back from a 0 ms timer),
//	                            "PIN" (maxlength 0), "Member number" (value "M-100",
//	                            every beforeinput cancelled), date "Arrival" (its
//	                            change handler puts 2026-01-10 back from a 0 ms
//	                            timer), contenteditable textbox "Motto" ("carpe
//	                            diem", every beforeinput cancelled), textarea
//	                            "Slogan" ("keep", maxlength 4); fields that
//	                            reformat what is typed: "Phone" (digits masked
//	                            "(ddd) ddd-dddd"), "Plate" ("AB123CD", upper case),
//	                            "Amount" (thousands separators), "City" (trimmed),
//	                            "Initials" (maxlength 3); textbox "Branch" (disabled,
//	                            "Milano"); combobox (select) "Country", and,
//	                            below the fold, button "Done" (it counts its
//	                            clicks into status "Done <n>").
//	                            window.fieldEvents(): JSON {field id: {"input",
//	                            "change", "blur", "focusout", and each with "!"
//	                            appended for the untrusted ones: counts}};
//	                            window.fieldChanges(): JSON [field id of each
//	                            change, in order]
//	POST /fields/api/autosave   ?page=<load id>&v=<name>: JSON {"v", "n"}, n the
//	                            saves of that page load so far
type fields struct {
	mu    sync.Mutex
	saves map[string]int
}

func (f *fields) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /fields", func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "fields.html", "Your profile")
	})
	mux.HandleFunc("POST /fields/api/autosave", func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		f.mu.Lock()
		if f.saves == nil {
			f.saves = map[string]int{}
		}
		f.saves[q.Get("page")]++
		n := f.saves[q.Get("page")]
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_ = json.NewEncoder(w).Encode(map[string]any{"v": q.Get("v"), "n": n})
	})
}
