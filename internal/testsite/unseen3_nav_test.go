package testsite

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

func TestUnseen3NavPages(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	for p, want := range map[string]string{
		"login":              `<label for="password">Password</label>`,
		"crm":                `pushState`,
		"crm/accounts/A-102": `pushState`,
		"profile":            `Retrying`,
		"inbox":              `new EventSource("/unseen3n/api/events")`,
		"orders":             `"ORD-8801"`,
		"editor":             `beforeunload`,
		"search":             `aria-label="Customers"`,
		"docs":               `aria-label="Documents"`,
	} {
		r := c.get(st.URL() + "/unseen3n/" + p)
		wantStatus(t, r, http.StatusOK)
		wantContains(t, r, want)
	}
	// Without a session the bridge goes back to the login.
	wantStatus(t, c.get(st.URL()+"/unseen3n/bridge?to=/unseen3n/home"), http.StatusSeeOther)
}

func TestUnseen3NavAPI(t *testing.T) {
	st := startStress(t)
	c := newClient(t)
	wantStatus(t, c.post(st.URL()+"/unseen3n/api/login", "application/json", `{"email": "ada@borgo.example", "password": "x"}`), http.StatusUnauthorized)
	wantStatus(t, c.get(st.URL()+"/unseen3n/api/me"), http.StatusUnauthorized)
	if n := len(st.Unseen3NavLogins()); n != 0 {
		t.Fatalf("%d logins recorded for a wrong password", n)
	}
	r := c.post(st.URL()+"/unseen3n/api/login", "application/json",
		`{"email": "ada@borgo.example", "password": "`+Unseen3NavPassword+`", "refresh": "0", "next": "//evil.example/"}`)
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, `"next":"/unseen3n/bridge?refresh=0\u0026to=/unseen3n/home"`)
	b := c.get(st.URL() + "/unseen3n/bridge?refresh=0&to=/unseen3n/home")
	wantStatus(t, b, http.StatusOK)
	wantContains(t, b, `<meta http-equiv="refresh" content="0;url=/unseen3n/home">`)
	me := c.get(st.URL() + "/unseen3n/api/me")
	wantStatus(t, me, http.StatusOK)
	wantContains(t, me, `"name":"Ada Rossi"`)

	a := c.get(st.URL() + "/unseen3n/api/accounts/A-104?delay=0")
	wantStatus(t, a, http.StatusOK)
	wantContains(t, a, `"next":"A-101"`)
	if got := st.Unseen3NavAccountReads(); !reflect.DeepEqual(got, []string{"A-104"}) {
		t.Errorf("account reads = %v", got)
	}

	wantStatus(t, c.post(st.URL()+"/unseen3n/api/profile", "application/json", `{"save": "s1", "attempt": 1, "phone": ""}`), http.StatusBadRequest)
	wantStatus(t, c.post(st.URL()+"/unseen3n/api/replies", "application/json", `{"ticket": "S-4410", "text": ""}`), http.StatusBadRequest)
	wantStatus(t, c.post(st.URL()+"/unseen3n/api/profile?fail=1", "application/json", `{"save": "s1", "attempt": 1, "phone": "1"}`), http.StatusServiceUnavailable)
	wantStatus(t, c.post(st.URL()+"/unseen3n/api/profile?fail=1", "application/json", `{"save": "s1", "attempt": 2, "phone": "1"}`), http.StatusOK)
	if got := st.Unseen3NavPhones(); !reflect.DeepEqual(got, []string{"1"}) {
		t.Errorf("phones = %v", got)
	}

	wantStatus(t, c.get(st.URL()+"/unseen3n/api/orders/ORD-8802?expired=1"), http.StatusUnauthorized)
	o := c.get(st.URL() + "/unseen3n/api/orders/ORD-8802")
	wantStatus(t, o, http.StatusOK)
	var order Unseen3NavOrder
	if err := json.Unmarshal([]byte(o.body), &order); err != nil || order.Total != 12990 {
		t.Errorf("order = %+v (%v)", order, err)
	}

	wantStatus(t, c.post(st.URL()+"/unseen3n/api/drafts", "application/json", `{"title": " "}`), http.StatusBadRequest)
	wantStatus(t, c.post(st.URL()+"/unseen3n/api/drafts", "application/json", `{"title": "Q3 <plan>"}`), http.StatusOK)
	wantContains(t, c.get(st.URL()+"/unseen3n/docs"), `<li>Q3 &lt;plan&gt;</li>`)

	if r := c.get(st.URL() + "/unseen3n/api/customers?q=BORGO"); !strings.Contains(r.body, `"Borgognoni \u0026 Figli"`) || strings.Contains(r.body, "Etna") {
		t.Errorf("search borgo = %s", r.body)
	}
	if r := c.get(st.URL() + "/unseen3n/api/customers?recent=0"); !strings.Contains(r.body, "Etna") || strings.Contains(r.body, "Borgo") {
		t.Errorf("recent = %s", r.body)
	}
	if got := st.Unseen3NavSearches(); !reflect.DeepEqual(got, []string{"borgo"}) {
		t.Errorf("searches = %v", got)
	}

	r = c.post(st.URL()+"/unseen3n/api/replies?send=0", "application/json", `{"ticket": "S-4410", "text": "Fixed"}`)
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, `"ref":"R-901"`)
}
