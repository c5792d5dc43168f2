package testsite

import "net/http"

// summaryRoutes adds the account summary page, GET /members/{id}/summary
// (signed in): a definition list of three <dd> values where the balance,
// <dd id="saldo">, has no semantic handle of its own (no label, no test
// id, no distinctive text; its <dt> does not name it in the accessibility
// tree). A role=definition candidate matches all three <dd>s, so only CSS
// identifies the value: the page for CSS-only locators with a declared
// reason, and for decoy candidates. The member page links to it
// ("Account summary").
func (t *Teller) summaryRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /members/{id}/summary", t.summary)
}

func (t *Teller) summary(w http.ResponseWriter, r *http.Request) {
	if !t.guard(w, r) {
		return
	}
	m, ok := LookupMember(r.PathValue("id"))
	if !ok {
		http.NotFound(w, r)
		return
	}
	render(w, http.StatusOK, "teller_summary.html", m)
}
