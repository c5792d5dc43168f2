package testsite

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"testing"
)

func TestUnseen2Pages(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	for p, want := range map[string]string{
		"notes":      `role="textbox" contenteditable="true"`,
		"assign":     `role: "combobox"`,
		"payments":   `aria-label="Payments"`,
		"invoice":    `Record payment`,
		"team":       `role: "table"`,
		"frame":      `title="Expense form"`,
		"frame/form": `Submit expense`,
		"orders":     `<p data-testid="order-count">12 orders</p>`,
	} {
		r := c.get(st.URL() + "/unseen2/" + p)
		wantStatus(t, r, http.StatusOK)
		wantContains(t, r, want)
	}
}

func TestUnseen2API(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	// Bad requests are refused and recorded nowhere.
	wantStatus(t, c.post(st.URL()+"/unseen2/api/notes", "application/json", `{"text": 1}`), http.StatusBadRequest)
	wantStatus(t, c.post(st.URL()+"/unseen2/api/assign", "application/json", `{"ticket": "T-3107", "assignee": "u99"}`), http.StatusUnprocessableEntity)
	wantStatus(t, c.post(st.URL()+"/unseen2/api/invoices/INV-1/pay", "application/json", `{}`), http.StatusNotFound)
	wantStatus(t, c.get(st.URL()+"/unseen2/api/payments?offset=x"), http.StatusBadRequest)
	wantStatus(t, c.postForm(st.URL()+"/unseen2/frame/form", url.Values{"description": {"Taxi"}}), http.StatusBadRequest)
	if len(st.Unseen2Notes())+len(st.Unseen2Assignments())+len(st.Unseen2PayAttempts())+len(st.Unseen2Expenses()) != 0 {
		t.Fatal("a refused request was recorded")
	}

	wantStatus(t, c.post(st.URL()+"/unseen2/api/notes", "application/json", `{"text": "Hello"}`), http.StatusOK)
	if got := st.Unseen2Notes(); !reflect.DeepEqual(got, []string{"Hello"}) {
		t.Errorf("notes = %q", got)
	}
	r := c.get(st.URL() + "/unseen2/api/people?q=ada")
	wantStatus(t, r, http.StatusOK)
	var people []Unseen2Person
	if err := json.Unmarshal([]byte(r.body), &people); err != nil || len(people) != 3 || people[0].ID != "u11" {
		t.Errorf("people for ada = %+v (%v)", people, err)
	}
	r = c.post(st.URL()+"/unseen2/api/assign", "application/json", `{"ticket": "T-3107", "assignee": "u11"}`)
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, `"name":"Ada Rossi"`)

	// Pages of 10, then the rest.
	var all []Unseen2Payment
	for off := 0; off < 27; off += 10 {
		r := c.get(st.URL() + "/unseen2/api/payments?offset=" + itoa(off))
		wantStatus(t, r, http.StatusOK)
		var page struct {
			Items []Unseen2Payment `json:"items"`
			Total int              `json:"total"`
		}
		if err := json.Unmarshal([]byte(r.body), &page); err != nil || page.Total != 27 {
			t.Fatalf("page at %d: %s (%v)", off, r.body, err)
		}
		all = append(all, page.Items...)
	}
	if !reflect.DeepEqual(all, Unseen2Payments()) {
		t.Errorf("pages = %+v", all)
	}

	wantStatus(t, c.post(st.URL()+"/unseen2/api/invoices/INV-2042/pay?outcome=conflict&delay=0", "application/json", `{}`), http.StatusConflict)
	wantStatus(t, c.post(st.URL()+"/unseen2/api/invoices/INV-2042/pay?delay=0", "application/json", `{}`), http.StatusOK)
	if got, want := st.Unseen2PayAttempts(), []string{"INV-2042", "INV-2042"}; !reflect.DeepEqual(got, want) {
		t.Errorf("attempts = %v", got)
	}
	if got := st.Unseen2Paid(); !reflect.DeepEqual(got, []string{"INV-2042"}) {
		t.Errorf("paid = %v", got)
	}

	r = c.postForm(st.URL()+"/unseen2/frame/form", url.Values{"description": {"Taxi"}, "amount": {"12.00"}})
	wantRedirect(t, r, http.StatusSeeOther, "/unseen2/frame/form?done=EXP-501")
	r = c.get(st.URL() + "/unseen2/frame/form?done=EXP-501")
	wantContains(t, r, "Expense submitted", "EXP-501")
	wantNotContains(t, c.get(st.URL()+"/unseen2/frame/form?done=EXP-999"), "Expense submitted")
}

// TestUnseen2Orders: the filter buttons list only the orders of their
// status, the form carries the page's delay, and a bad delay is dropped.
func TestUnseen2Orders(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	r := c.get(st.URL() + "/unseen2/orders?delay=50")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, `name="delay" value="50"`)
	r = c.get(st.URL() + "/unseen2/orders?delay=50&status=shipped")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, `<p data-testid="order-count">4 orders</p>`)
	r = c.get(st.URL() + "/unseen2/orders?status=open&delay=x")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, `<p data-testid="order-count">8 orders</p>`)
	wantContains(t, r, `name="delay" value=""`)
	r = c.get(st.URL() + "/unseen2/orders/desk?delay=70")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, `<iframe title="Orders" src="/unseen2/orders?delay=70"`)
}
