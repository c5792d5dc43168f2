package testsite

import (
	"encoding/json"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"
)

// Unseen pages (on the Stress origin): business apps modelled on real
// ones and unlike the other test pages, for the "sites the code has never
// seen" checks of runtime/browser (unseen_test.go). Each page is served
// from web/unseen_*.html with /assets/unseen.js, which renders the whole
// UI from one state object (every change replaces the elements).
//
//	GET /unseen/settings      h1 "Notification settings"; switches (button
//	                          role=switch, aria-checked, aria-labelledby)
//	                          "Email alerts" (off), "SMS alerts" (off),
//	                          "Weekly digest" (on), re-rendered (new
//	                          elements) on every click; a native
//	                          input[type=checkbox][role=switch] "Dark mode"
//	                          (off), visually hidden under its label's drawn
//	                          track; button "Save" disabled until the state
//	                          differs from the saved one; Save POSTs
//	                          /unseen/api/settings (300 ms), then shows the
//	                          toast (role status) "Settings saved" for 1 s and
//	                          p#last-saved "Last saved: email=on sms=off ...";
//	                          ?autosave=1: a switch click POSTs the new state at
//	                          once (aria-busy) and flips only once the server
//	                          answered (300 ms)
//	POST /unseen/api/settings JSON {"email","sms","digest","dark"} booleans;
//	                          recorded ([Stress.UnseenSettings])
//	GET /unseen/wizard        h1 "New supplier": a three-step wizard whose
//	                          Next re-renders the whole form (keyed remount)
//	                          and keeps the earlier steps in the DOM, hidden:
//	                          ?hide=display (default: display:none), inert
//	                          (inert + aria-hidden, slid out of a clipping
//	                          track) or aria (aria-hidden only, off-screen).
//	                          Step "Company": textbox "Name", textbox "Email",
//	                          button "Next" (after GET /unseen/api/vat, 250 ms);
//	                          step "Contact": the same labels "Name" and
//	                          "Email", buttons "Back", "Next"; step "Review":
//	                          dl#review (dd data-testid=company, company-email,
//	                          contact, contact-email), buttons "Back",
//	                          "Create supplier" (POST /unseen/api/suppliers,
//	                          then h2 "Supplier created" and dd data-testid=supplier-id)
//	POST /unseen/api/suppliers JSON {"company","company_email","contact","contact_email"};
//	                          recorded ([Stress.UnseenSuppliers]); answers {"id": "SUP-<n>"}
//	GET /unseen/table         h1 "Invoices": table "Invoices" (caption) in a
//	                          scrolled div (max-height 320 px) with a sticky
//	                          thead; column headers (aria-sort) hold buttons
//	                          "Number", "Customer", "Amount"; a header click
//	                          fetches /unseen/api/invoices?sort=&dir= (200-600 ms)
//	                          and only then re-renders the body (ascending first,
//	                          then descending); each row (tr.inv-row, td.num,
//	                          td.cust, td.amount, td.status) has a kebab button
//	                          "Actions for <number>" (aria-haspopup=menu) that
//	                          opens a menu "Actions for <number>" (role menu,
//	                          menuitems "View", "Duplicate", "Archive"),
//	                          positioned fixed at the end of body; an outside
//	                          mousedown or Escape closes it. "Archive" POSTs
//	                          /unseen/api/invoices/<number>/archive and the row's
//	                          status becomes "Archived" ([Stress.UnseenArchived])
//	GET /unseen/worker        h1 "Open orders": skeleton cards and rows (no
//	                          text, aria-busy on section#orders) until a
//	                          dedicated worker (/assets/unseen-worker.js)
//	                          fetches /unseen/api/orders (?delay=<ms> on the page,
//	                          else 400-900 ms) and posts the data; then dd
//	                          data-testid=open-total "€ <sum>" and tr.order-row
//	                          (td.ref, td.cust, td.total); ?work=<ms>: the worker
//	                          aggregates that long before posting. ?via=sw: the
//	                          data comes from a fetch a service worker
//	                          (/unseen-sw.js, 300 ms to install) answers by
//	                          fetching the API itself
//	GET /unseen/contacts      h1 "Contacts": list "Contacts"; button "New
//	                          contact" opens a <dialog> with showModal() whose
//	                          form holds form-associated custom elements
//	                          <vera-field> (closed shadow root, delegatesFocus,
//	                          ElementInternals) labelled by <label for>:
//	                          "Full name", "Work email"; a native select
//	                          "Role" (Viewer, Editor, Admin); buttons "Cancel"
//	                          and "Save contact" (POST /unseen/api/contacts,
//	                          then the dialog closes and the list gains the
//	                          contact "<name> (<role>)")
//	POST /unseen/api/contacts JSON {"name","email","role"}; recorded ([Stress.UnseenContacts])

// UnseenSettings is one saved state of the settings page.
type UnseenSettings struct {
	Email  bool `json:"email"`
	SMS    bool `json:"sms"`
	Digest bool `json:"digest"`
	Dark   bool `json:"dark"`
}

// UnseenSupplier is one supplier the wizard created.
type UnseenSupplier struct {
	Company      string `json:"company"`
	CompanyEmail string `json:"company_email"`
	Contact      string `json:"contact"`
	ContactEmail string `json:"contact_email"`
}

// UnseenContact is one contact the dialog saved.
type UnseenContact struct {
	Name  string `json:"name"`
	Email string `json:"email"`
	Role  string `json:"role"`
}

// UnseenInvoice is one row of the invoices table.
type UnseenInvoice struct {
	Number   string `json:"number"`
	Customer string `json:"customer"`
	Amount   int    `json:"amount"` // euro cents
	Status   string `json:"status"`
}

// UnseenOrder is one open order of the worker dashboard.
type UnseenOrder struct {
	Ref      string `json:"ref"`
	Customer string `json:"customer"`
	Total    int    `json:"total"` // euro cents
}

// UnseenInvoices returns the invoices of the table page, in number order.
func UnseenInvoices() []UnseenInvoice {
	custs := []string{"Etna Coop", "Borgo Srl", "Lario Spa", "Monviso Sas", "Tevere Srl", "Arno Coop"}
	out := make([]UnseenInvoice, 0, 24)
	for i := 0; i < 24; i++ {
		out = append(out, UnseenInvoice{
			Number:   "INV-" + itoa(1001+i),
			Customer: custs[(i*5)%len(custs)],
			Amount:   ((i*7919)%9000 + 100) * 100,
			Status:   "Open",
		})
	}
	return out
}

// UnseenOrders returns the open orders of the worker dashboard.
func UnseenOrders() []UnseenOrder {
	return []UnseenOrder{
		{"SO-5501", "Borgo Srl", 125050},
		{"SO-5502", "Etna Coop", 48000},
		{"SO-5503", "Lario Spa", 9975},
	}
}

// UnseenEuro formats cents as the pages do: "€ 1,250.50".
func UnseenEuro(cents int) string {
	whole := itoa(cents / 100)
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	frac := cents % 100
	return "€ " + b.String() + "." + string(rune('0'+frac/10)) + string(rune('0'+frac%10))
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}

// unseen holds what the unseen pages' servers recorded.
type unseen struct {
	st *Stress

	mu        sync.Mutex
	settings  []UnseenSettings
	suppliers []UnseenSupplier
	contacts  []UnseenContact
	archived  []string
	calls     uint64
}

// UnseenSettings returns every settings state the settings page saved, in order.
func (st *Stress) UnseenSettings() []UnseenSettings {
	st.unseen.mu.Lock()
	defer st.unseen.mu.Unlock()
	return append([]UnseenSettings(nil), st.unseen.settings...)
}

// UnseenSuppliers returns every supplier the wizard created, in order.
func (st *Stress) UnseenSuppliers() []UnseenSupplier {
	st.unseen.mu.Lock()
	defer st.unseen.mu.Unlock()
	return append([]UnseenSupplier(nil), st.unseen.suppliers...)
}

// UnseenContacts returns every contact the dialog saved, in order.
func (st *Stress) UnseenContacts() []UnseenContact {
	st.unseen.mu.Lock()
	defer st.unseen.mu.Unlock()
	return append([]UnseenContact(nil), st.unseen.contacts...)
}

// UnseenArchived returns the invoice numbers archived from the table, in order.
func (st *Stress) UnseenArchived() []string {
	st.unseen.mu.Lock()
	defer st.unseen.mu.Unlock()
	return append([]string(nil), st.unseen.archived...)
}

// delay returns lo + a deterministic step in [0, span).
func (u *unseen) delay(lo, span time.Duration) time.Duration {
	u.mu.Lock()
	u.calls++
	n := u.calls
	u.mu.Unlock()
	return lo + time.Duration((n*uint64(277*time.Millisecond))%uint64(span))
}

// decode reads a small JSON body into v.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		http.Error(w, "bad json", http.StatusBadRequest)
		return false
	}
	return true
}

func (u *unseen) routes(mux *http.ServeMux) {
	page := func(name, title string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) { render(w, http.StatusOK, name, title) }
	}
	sleep := func(r *http.Request, d time.Duration) bool { return u.st.sleep(r.Context(), d) }

	mux.HandleFunc("GET /unseen/settings", page("unseen_settings.html", "Notification settings"))
	mux.HandleFunc("POST /unseen/api/settings", func(w http.ResponseWriter, r *http.Request) {
		var s UnseenSettings
		if !decode(w, r, &s) || !sleep(r, 300*time.Millisecond) {
			return
		}
		u.mu.Lock()
		u.settings = append(u.settings, s)
		u.mu.Unlock()
		wcJSON(w, s)
	})

	mux.HandleFunc("GET /unseen/wizard", page("unseen_wizard.html", "New supplier"))
	mux.HandleFunc("GET /unseen/api/vat", func(w http.ResponseWriter, r *http.Request) {
		if !sleep(r, 250*time.Millisecond) {
			return
		}
		wcJSON(w, map[string]bool{"ok": true})
	})
	mux.HandleFunc("POST /unseen/api/suppliers", func(w http.ResponseWriter, r *http.Request) {
		var s UnseenSupplier
		if !decode(w, r, &s) || !sleep(r, 200*time.Millisecond) {
			return
		}
		u.mu.Lock()
		u.suppliers = append(u.suppliers, s)
		id := "SUP-" + itoa(700+len(u.suppliers))
		u.mu.Unlock()
		wcJSON(w, map[string]string{"id": id})
	})

	mux.HandleFunc("GET /unseen/table", page("unseen_table.html", "Invoices"))
	mux.HandleFunc("GET /unseen/api/invoices", func(w http.ResponseWriter, r *http.Request) {
		if !sleep(r, u.delay(200*time.Millisecond, 400*time.Millisecond)) {
			return
		}
		rows := UnseenInvoices()
		u.mu.Lock()
		for i := range rows {
			for _, a := range u.archived {
				if a == rows[i].Number {
					rows[i].Status = "Archived"
				}
			}
		}
		u.mu.Unlock()
		key, desc := r.URL.Query().Get("sort"), r.URL.Query().Get("dir") == "desc"
		sort.SliceStable(rows, func(i, j int) bool {
			a, b := rows[i], rows[j]
			if desc {
				a, b = b, a
			}
			switch key {
			case "customer":
				return a.Customer < b.Customer
			case "amount":
				return a.Amount < b.Amount
			}
			return a.Number < b.Number
		})
		wcJSON(w, rows)
	})
	mux.HandleFunc("POST /unseen/api/invoices/{number}/archive", func(w http.ResponseWriter, r *http.Request) {
		if !sleep(r, 150*time.Millisecond) {
			return
		}
		n := r.PathValue("number")
		for _, inv := range UnseenInvoices() {
			if inv.Number == n {
				u.mu.Lock()
				u.archived = append(u.archived, n)
				u.mu.Unlock()
				wcJSON(w, map[string]string{"number": n, "status": "Archived"})
				return
			}
		}
		http.NotFound(w, r)
	})

	mux.HandleFunc("GET /unseen/worker", page("unseen_worker.html", "Open orders"))
	mux.HandleFunc("GET /unseen-sw.js", func(w http.ResponseWriter, r *http.Request) {
		b, err := webFS.ReadFile("web/assets/unseen-sw.js")
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "text/javascript")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write(b)
	})
	mux.HandleFunc("GET /unseen/api/orders", func(w http.ResponseWriter, r *http.Request) {
		d := u.delay(400*time.Millisecond, 500*time.Millisecond)
		if ms, ok := pathCount(r.URL.Query().Get("delay"), 0, 5000); ok {
			d = time.Duration(ms) * time.Millisecond
		}
		if !sleep(r, d) {
			return
		}
		wcJSON(w, UnseenOrders())
	})

	mux.HandleFunc("GET /unseen/contacts", page("unseen_contacts.html", "Contacts"))
	mux.HandleFunc("POST /unseen/api/contacts", func(w http.ResponseWriter, r *http.Request) {
		var c UnseenContact
		if !decode(w, r, &c) || !sleep(r, 200*time.Millisecond) {
			return
		}
		u.mu.Lock()
		u.contacts = append(u.contacts, c)
		u.mu.Unlock()
		wcJSON(w, c)
	})
}
