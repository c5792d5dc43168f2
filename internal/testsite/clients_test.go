package testsite

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func getBody(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", u, resp.StatusCode, err)
	}
	return string(b)
}

// TestClientSearchAndFramedList: /clients?q= lists exactly SearchClients
// (an '&' in q is data), /frame/invoices pages by its query.
func TestClientSearchAndFramedList(t *testing.T) {
	inv, err := StartInvoicing()
	if err != nil {
		t.Fatal(err)
	}
	defer inv.Close()
	if got := SearchClients("bianchi & f"); len(got) != 1 || got[0].Name != "Bianchi & Figli S.r.l." {
		t.Fatalf("SearchClients: %+v", got)
	}
	body := getBody(t, inv.URL()+ClientsPath+"?q="+url.QueryEscape("Bianchi & Figli"))
	if n := strings.Count(body, `class="client-row"`); n != 1 || !strings.Contains(body, "Bianchi &amp; Figli S.r.l.") {
		t.Fatalf("%d rows:\n%s", n, body)
	}
	if body := getBody(t, inv.URL()+ClientsPath+"?q=zzz"); !strings.Contains(body, "No client matches") {
		t.Fatalf("no-match page:\n%s", body)
	}
	p1 := getBody(t, inv.WorkspaceOrigin()+FrameInvoicesPath+"?page=1")
	p2 := getBody(t, inv.WorkspaceOrigin()+FrameInvoicesPath+"?page=2")
	if !strings.Contains(p1, "INV-2041") || strings.Contains(p1, "Previous page") || !strings.Contains(p1, `href="/frame/invoices?page=2"`) {
		t.Fatalf("page 1:\n%s", p1)
	}
	if strings.Contains(p2, "INV-2041") || !strings.Contains(p2, "Page 2 of") || !strings.Contains(p2, "Previous page") {
		t.Fatalf("page 2:\n%s", p2)
	}
	if shell := getBody(t, inv.URL()+InvoiceListPath); !strings.Contains(shell, inv.WorkspaceOrigin()+"/frame/invoices?page=1") {
		t.Fatalf("shell:\n%s", shell)
	}
}
