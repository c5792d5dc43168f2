package testsite

import (
	"encoding/json"
	"net/http"
	"reflect"
	"testing"
)

func TestUnseen3FormPages(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	for p, want := range map[string]string{
		"transfer": `<label for="iban">IBAN</label>`,
		"shipping": `role: "radiogroup"`,
		"account":  `<span slot="label">Company name</span>`,
		"ledger":   `<caption>Ledger entries</caption>`,
	} {
		r := c.get(st.URL() + "/unseen3/" + p)
		wantStatus(t, r, http.StatusOK)
		wantContains(t, r, want)
	}
}

func TestUnseen3FormAPI(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	if _, ok := Unseen3ValidIBAN("IT60X0542811101000000123456"); !ok {
		t.Fatal("valid IBAN refused")
	}
	if _, ok := Unseen3ValidIBAN("IT61X0542811101000000123456"); ok {
		t.Fatal("IBAN with wrong check digits accepted")
	}
	r := c.get(st.URL() + "/unseen3/api/iban?v=IT60X0542811101000000123456")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, `"bank":"Banca Etna"`)
	// Refused requests are recorded nowhere.
	wantStatus(t, c.post(st.URL()+"/unseen3/api/transfers", "application/json", `{"iban": "IT61X0542811101000000123456", "cents": 100}`), http.StatusUnprocessableEntity)
	wantStatus(t, c.post(st.URL()+"/unseen3/api/shipping", "application/json", `{"country": "Narnia", "speed": "express"}`), http.StatusUnprocessableEntity)
	wantStatus(t, c.post(st.URL()+"/unseen3/api/account", "application/json", `{"company": " "}`), http.StatusUnprocessableEntity)
	wantStatus(t, c.get(st.URL()+"/unseen3/api/ledger?from=10&to=5"), http.StatusBadRequest)
	if len(st.Unseen3Transfers())+len(st.Unseen3Shipping())+len(st.Unseen3Accounts()) != 0 {
		t.Fatal("a refused request was recorded")
	}
	wantStatus(t, c.post(st.URL()+"/unseen3/api/transfers", "application/json", `{"iban": "IT60X0542811101000000123456", "cents": 125050}`), http.StatusOK)
	if got, want := st.Unseen3Transfers(), []Unseen3Transfer{{"IT60X0542811101000000123456", 125050}}; !reflect.DeepEqual(got, want) {
		t.Errorf("transfers = %+v", got)
	}
	var all []Unseen3Entry
	for from := 0; from < 40; from += 5 {
		r := c.get(st.URL() + "/unseen3/api/ledger?from=" + itoa(from) + "&to=" + itoa(from+5))
		wantStatus(t, r, http.StatusOK)
		var page []Unseen3Entry
		if err := json.Unmarshal([]byte(r.body), &page); err != nil {
			t.Fatal(err)
		}
		all = append(all, page...)
	}
	if !reflect.DeepEqual(all, Unseen3Ledger()) {
		t.Errorf("ledger pages = %+v", all)
	}
}
