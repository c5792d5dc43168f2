package testsite

import (
	"encoding/json"
	"net/http"
	"reflect"
	"sort"
	"testing"
)

func TestUnseenPages(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	for _, p := range []string{"settings", "wizard", "table", "worker", "contacts"} {
		r := c.get(st.URL() + "/unseen/" + p)
		wantStatus(t, r, http.StatusOK)
		wantContains(t, r, `data-page="`+p+`"`, `/assets/unseen.js`)
	}
	for _, a := range []string{"/assets/unseen.js", "/assets/unseen.css", "/assets/unseen-worker.js", "/unseen-sw.js"} {
		wantStatus(t, c.get(st.URL()+a), http.StatusOK)
	}
}

func TestUnseenAPI(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	// Bad bodies are refused and recorded nowhere.
	for _, tc := range []struct{ path, body string }{
		{"/unseen/api/settings", `{"email": "yes"}`},
		{"/unseen/api/settings", `{"email": true, "extra": 1}`},
		{"/unseen/api/suppliers", `[`},
		{"/unseen/api/contacts", ``},
	} {
		wantStatus(t, c.post(st.URL()+tc.path, "application/json", tc.body), http.StatusBadRequest)
	}
	wantStatus(t, c.post(st.URL()+"/unseen/api/invoices/INV-9999/archive", "application/json", `{}`), http.StatusNotFound)
	if len(st.UnseenSettings())+len(st.UnseenSuppliers())+len(st.UnseenContacts())+len(st.UnseenArchived()) != 0 {
		t.Fatal("a refused request was recorded")
	}

	wantStatus(t, c.post(st.URL()+"/unseen/api/settings", "application/json", `{"email": true, "sms": false, "digest": false, "dark": true}`), http.StatusOK)
	if got, want := st.UnseenSettings(), []UnseenSettings{{Email: true, Dark: true}}; !reflect.DeepEqual(got, want) {
		t.Errorf("settings = %+v, want %+v", got, want)
	}
	r := c.post(st.URL()+"/unseen/api/suppliers", "application/json", `{"company": "A", "company_email": "a@x", "contact": "B", "contact_email": "b@x"}`)
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, `"id":"SUP-701"`)

	wantStatus(t, c.post(st.URL()+"/unseen/api/invoices/INV-1003/archive", "application/json", `{}`), http.StatusOK)
	r = c.get(st.URL() + "/unseen/api/invoices?sort=amount&dir=desc")
	wantStatus(t, r, http.StatusOK)
	var rows []UnseenInvoice
	if err := json.Unmarshal([]byte(r.body), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(UnseenInvoices()) || !sort.SliceIsSorted(rows, func(i, j int) bool { return rows[i].Amount > rows[j].Amount }) {
		t.Errorf("rows not sorted by amount, descending: %+v", rows)
	}
	amounts := map[int]bool{}
	for _, row := range rows {
		amounts[row.Amount] = true
		if want := map[bool]string{true: "Archived", false: "Open"}[row.Number == "INV-1003"]; row.Status != want {
			t.Errorf("%s status %q, want %q", row.Number, row.Status, want)
		}
	}
	if len(amounts) != len(rows) {
		t.Error("two invoices share an amount: the sorted order is not unique")
	}
}

func TestUnseenEuro(t *testing.T) {
	for cents, want := range map[int]string{0: "€ 0.00", 5: "€ 0.05", 9975: "€ 99.75", 125050: "€ 1,250.50", 183025: "€ 1,830.25", 123456789: "€ 1,234,567.89"} {
		if got := UnseenEuro(cents); got != want {
			t.Errorf("UnseenEuro(%d) = %q, want %q", cents, got, want)
		}
	}
}
