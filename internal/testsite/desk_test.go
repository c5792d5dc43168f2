package testsite

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestDeskPages: the desk frames B's invoice list and loads its script;
// the search API answers SearchClients (an '&' in q is data, a blank q
// nothing special), the sync API counts every client and only on POST.
func TestDeskPages(t *testing.T) {
	inv, err := StartInvoicing()
	if err != nil {
		t.Fatal(err)
	}
	defer inv.Close()
	body := getBody(t, inv.URL()+DeskPath+"?q=acme")
	for _, want := range []string{`<desk-sync id="desk-sync">`, `src="/assets/desk.js"`, `role="search"`,
		`src="` + inv.WorkspaceOrigin() + FrameInvoicesPath + `?page=1"`} {
		if !strings.Contains(body, want) {
			t.Fatalf("desk lacks %s:\n%s", want, body)
		}
	}
	if js := getBody(t, inv.URL()+"/assets/desk.js"); !strings.Contains(js, "attachShadow({ mode: 'open' })") {
		t.Fatal("desk.js has no open shadow root")
	}
	for _, q := range []string{"Bianchi & Figli", "acme", "zzz", ""} {
		var got []deskClient
		if err := json.Unmarshal([]byte(getBody(t, inv.URL()+DeskClientsAPI+"?q="+url.QueryEscape(q))), &got); err != nil {
			t.Fatal(err)
		}
		want := SearchClients(q)
		if len(got) != len(want) {
			t.Fatalf("q=%q: %d clients, want %d", q, len(got), len(want))
		}
		for i := range want {
			if got[i].Name != want[i].Name || got[i].Invoices != want[i].Invoices {
				t.Errorf("q=%q: client %d = %+v, want %+v", q, i, got[i], want[i])
			}
		}
	}
	resp, err := http.Post(inv.URL()+DeskSyncAPI, "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	var sync map[string]int
	err = json.NewDecoder(resp.Body).Decode(&sync)
	resp.Body.Close()
	if err != nil || sync["clients"] != len(SearchClients("")) {
		t.Fatalf("sync = %v, %v", sync, err)
	}
	if resp, err := http.Get(inv.URL() + DeskSyncAPI); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET sync: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
	if n := inv.Hits(DeskSyncAPI); n != 2 {
		t.Errorf("sync hits = %d, want 2", n)
	}
}
