package testsite

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"mime"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func startInvoicing(t *testing.T) *Invoicing {
	t.Helper()
	inv, err := StartInvoicing()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(inv.Close)
	return inv
}

func TestInvoicingOrigins(t *testing.T) {
	inv := startInvoicing(t)
	if !strings.HasPrefix(inv.URL(), "http://127.0.0.1:") {
		t.Errorf("shell origin %q", inv.URL())
	}
	if !strings.HasPrefix(inv.WorkspaceOrigin(), "http://localhost:") || inv.Workspace.URL() != inv.WorkspaceOrigin() {
		t.Errorf("workspace origin %q", inv.WorkspaceOrigin())
	}
	c := newClient(t)
	wantRedirect(t, c.get(inv.URL()+"/"), http.StatusSeeOther, "/billing")
	r := c.get(inv.URL() + "/billing")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, "<h1>Billing</h1>",
		`<iframe id="workspace" title="Invoice workspace" src="`+inv.WorkspaceOrigin()+`/workspace"></iframe>`)

	// Origin A serves only the shell; origin B serves the frames.
	wantStatus(t, c.get(inv.URL()+"/ledger"), http.StatusNotFound)
	wantStatus(t, c.get(inv.WorkspaceOrigin()+"/billing"), http.StatusNotFound)

	r = c.get(inv.WorkspaceOrigin() + "/workspace")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, "<h2>Workspace</h2>", `<iframe id="ledger" title="Invoice ledger" src="/ledger"></iframe>`)
	if inv.Hits("/billing") != 1 || inv.Workspace.Hits("/workspace") != 1 || inv.Hits("/workspace") != 0 {
		t.Errorf("hits: A /billing=%d B /workspace=%d", inv.Hits("/billing"), inv.Workspace.Hits("/workspace"))
	}
}

var invoiceDataRE = regexp.MustCompile(`(?s)<script type="application/json" id="invoice-data">(.*?)</script>`)

func TestLedgerPage(t *testing.T) {
	inv := startInvoicing(t)
	c := newClient(t)
	r := c.get(inv.WorkspaceOrigin() + "/ledger")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r,
		`data-survey="false"`, `data-native-dialog="false"`,
		`data-issue-number="INV-2064"`, `data-issue-customer="Acme S.p.A."`,
		"<h2>Invoices</h2>",
		`<button type="button" id="export-csv">Export CSV</button>`,
		`<button type="button" id="issue-invoice">Issue invoice</button>`,
		`<p role="status" class="status" id="issue-status" hidden></p>`,
		"<caption>Invoices</caption>",
		`<th scope="col">Number</th><th scope="col">Customer</th><th scope="col">Date</th><th scope="col">Amount</th><th scope="col">Status</th>`,
		`Previous page</button>`, `Next page</button>`, `id="page-status"`,
		`role="dialog" aria-modal="true" aria-labelledby="confirm-title"`,
		`<h2 id="confirm-title">Confirm issue</h2>`,
		`<p id="confirm-text">Issue invoice INV-2064 to Acme S.p.A.?</p>`,
		`id="confirm-yes">Confirm</button>`, `id="confirm-cancel">Cancel</button>`,
		`role="dialog" aria-modal="true" aria-labelledby="survey-title"`,
		`<h2 id="survey-title">Quick survey</h2>`,
		`id="survey-yes">Yes</button>`, `id="survey-no">No thanks</button>`,
	)
	m := invoiceDataRE.FindStringSubmatch(r.body)
	if m == nil {
		t.Fatal("no invoice-data")
	}
	var got []Invoice
	if err := json.Unmarshal([]byte(m[1]), &got); err != nil {
		t.Fatalf("invoice-data: %v", err)
	}
	if !slices.Equal(got, Invoices) {
		t.Errorf("invoice-data differs from Invoices")
	}

	inv.ShowSurvey(true)
	inv.ShowNativeDialog(true)
	r = c.get(inv.WorkspaceOrigin() + "/ledger")
	wantContains(t, r, `data-survey="true"`, `data-native-dialog="true"`)

	js := c.get(inv.WorkspaceOrigin() + "/assets/ledger.js")
	wantStatus(t, js, http.StatusOK)
	wantContains(t, js, "'invoice-row-' + randomHex()", "window.confirm(", "'/api/issue'",
		"'/export/invoices.csv'", "PAGE_SIZE = 10")
}

func TestInvoicesSeed(t *testing.T) {
	if len(Invoices) != 23 {
		t.Fatalf("%d invoices", len(Invoices))
	}
	amount := regexp.MustCompile(`^\d{1,3}(,\d{3})*\.\d{2}$`)
	date := regexp.MustCompile(`^2026-\d{2}-\d{2}$`)
	for i, in := range Invoices {
		if want := "INV-" + strconv.Itoa(2041+i); in.Number != want {
			t.Errorf("invoice %d number %q, want %q", i, in.Number, want)
		}
		if !amount.MatchString(in.Amount) {
			t.Errorf("%s amount %q", in.Number, in.Amount)
		}
		if _, err := strconv.ParseFloat(strings.ReplaceAll(in.Amount, ",", ""), 64); err != nil {
			t.Errorf("%s amount not numeric: %v", in.Number, err)
		}
		if !date.MatchString(in.Date) || (in.Status != "Paid" && in.Status != "Open") || in.Customer == "" {
			t.Errorf("bad invoice %+v", in)
		}
	}
	if pages := (len(Invoices) + LedgerPageSize - 1) / LedgerPageSize; pages != 3 {
		t.Errorf("pages = %d", pages)
	}
}

func TestExport(t *testing.T) {
	inv := startInvoicing(t)
	c := newClient(t)
	u := inv.WorkspaceOrigin() + ExportPath

	r := c.get(u)
	wantStatus(t, r, http.StatusOK)
	if !bytes.Equal(r.raw, inv.ExportCSV()) {
		t.Fatal("export bytes differ from ExportCSV()")
	}
	if r.header.Get("Content-Type") != "text/csv; charset=utf-8" || r.header.Get("Content-Length") != strconv.Itoa(len(r.raw)) {
		t.Errorf("headers %v", r.header)
	}
	_, params, err := mime.ParseMediaType(r.header.Get("Content-Disposition"))
	if err != nil || params["filename"] != DefaultExportFilename {
		t.Errorf("Content-Disposition %q", r.header.Get("Content-Disposition"))
	}
	recs, err := csv.NewReader(bytes.NewReader(r.raw)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 24 || !slices.Equal(recs[0], []string{"Number", "Customer", "Date", "Amount", "Status"}) {
		t.Fatalf("csv header/rows: %d %v", len(recs), recs[0])
	}
	for i, in := range Invoices {
		if !slices.Equal(recs[i+1], []string{in.Number, in.Customer, in.Date, in.Amount, in.Status}) {
			t.Errorf("row %d = %v", i+1, recs[i+1])
		}
	}
	if inv.Workspace.Hits(ExportPath) != 1 {
		t.Errorf("export hits = %d", inv.Workspace.Hits(ExportPath))
	}

	// Filename knob, including names mime cannot quote plainly.
	for _, name := range []string{"march.csv", "fatture marzo.csv", "café €.csv", "a\"b.csv", ""} {
		inv.SetExportFilename(name)
		want := name
		if want == "" {
			want = DefaultExportFilename
		}
		if inv.ExportFilename() != want {
			t.Errorf("ExportFilename = %q", inv.ExportFilename())
		}
		r := c.get(u)
		_, params, err := mime.ParseMediaType(r.header.Get("Content-Disposition"))
		if err != nil || params["filename"] != want {
			t.Errorf("name %q: Content-Disposition %q (%v)", name, r.header.Get("Content-Disposition"), err)
		}
	}
}

func TestExportSize(t *testing.T) {
	inv := startInvoicing(t)
	c := newClient(t)
	base := len(inv.ExportCSV())
	for _, n := range []int{1 << 20, base + 34, base + 35, base + 1000, 0, base, base - 10} {
		inv.SetExportSize(n)
		got := inv.ExportCSV()
		switch {
		case n <= base:
			if len(got) != base {
				t.Errorf("size %d: len %d, want unpadded %d", n, len(got), base)
			}
		default:
			if len(got) != n {
				t.Errorf("size %d: len %d", n, len(got))
			}
		}
		r := c.get(inv.WorkspaceOrigin() + ExportPath)
		if !bytes.Equal(r.raw, got) {
			t.Errorf("size %d: served bytes differ from ExportCSV", n)
		}
		recs, err := csv.NewReader(bytes.NewReader(got)).ReadAll()
		if err != nil {
			t.Errorf("size %d: padded CSV does not parse: %v", n, err)
		}
		for _, rec := range recs {
			if len(rec) != 5 {
				t.Errorf("size %d: record with %d fields", n, len(rec))
			}
		}
	}
	// Within 34 bytes of the unpadded size the result overshoots a little.
	inv.SetExportSize(base + 5)
	if got := len(inv.ExportCSV()); got < base+5 || got > base+5+34 {
		t.Errorf("size base+5: len %d", got)
	}
	inv.SetExportSize(MaxExportSize + 1)
	inv.mu.Lock()
	clamped := inv.exportSize
	inv.mu.Unlock()
	if clamped != MaxExportSize {
		t.Errorf("clamped size = %d", clamped)
	}
	inv.SetExportSize(-1)
	if got := len(inv.ExportCSV()); got != base {
		t.Errorf("negative size: len %d", got)
	}
}

func TestExportDelayAndStall(t *testing.T) {
	inv := startInvoicing(t)
	c := newClient(t)
	inv.SetExportDelay(time.Millisecond)
	inv.SetExportStall(time.Millisecond)
	r := c.get(inv.WorkspaceOrigin() + ExportPath)
	wantStatus(t, r, http.StatusOK)
	if !bytes.Equal(r.raw, inv.ExportCSV()) {
		t.Error("stalled export bytes differ")
	}
	inv.SetExportDelay(0)
	inv.SetExportStall(0)

	// A long stall must not keep Close waiting.
	inv.SetExportStall(time.Hour)
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := c.hc.Get(inv.WorkspaceOrigin() + ExportPath)
		if err == nil {
			_, _ = bytes.NewBuffer(nil).ReadFrom(resp.Body)
			resp.Body.Close()
		}
	}()
	for inv.Workspace.Hits(ExportPath) < 2 {
		time.Sleep(time.Millisecond)
	}
	inv.Close()
	<-done
}

func TestIssueAndSurvey(t *testing.T) {
	inv := startInvoicing(t)
	c := newClient(t)
	wantStatus(t, c.get(inv.WorkspaceOrigin()+"/api/issue"), http.StatusMethodNotAllowed)
	if inv.IssuedCount() != 0 {
		t.Fatal("GET issued an invoice")
	}
	for i := 1; i <= 2; i++ {
		r := c.post(inv.WorkspaceOrigin()+"/api/issue", "application/json", "{}")
		wantStatus(t, r, http.StatusOK)
		wantContains(t, r, `"number":"INV-2064"`)
		if inv.IssuedCount() != i {
			t.Errorf("IssuedCount = %d, want %d", inv.IssuedCount(), i)
		}
	}
	wantStatus(t, c.post(inv.WorkspaceOrigin()+"/api/survey", "text/plain", ""), http.StatusNoContent)
	if inv.SurveyAnswers() != 1 {
		t.Errorf("SurveyAnswers = %d", inv.SurveyAnswers())
	}
	// The shell origin has no API.
	wantStatus(t, c.post(inv.URL()+"/api/issue", "application/json", "{}"), http.StatusNotFound)
}

// TestIssueDelay: with SetIssueDelay the invoice is issued (counted)
// before the answer, which is held for the delay; a request the client
// gives up on is not answered. Then, back to no delay, the answer comes
// at once.
func TestIssueDelay(t *testing.T) {
	inv := startInvoicing(t)
	inv.SetIssueDelay(time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, inv.WorkspaceOrigin()+"/api/issue", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	answered := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		answered <- err
	}()
	for inv.IssuedCount() == 0 {
		select {
		case err := <-answered:
			t.Fatalf("answered before the invoice was counted: %v", err)
		case <-time.After(time.Millisecond):
		}
	}
	select {
	case err := <-answered:
		t.Fatalf("answered at once despite the delay: %v", err)
	default:
	}
	cancel()
	if err := <-answered; err == nil {
		t.Fatal("a canceled request got an answer")
	}
	if n := inv.IssuedCount(); n != 1 {
		t.Fatalf("IssuedCount = %d, want 1", n)
	}
	inv.SetIssueDelay(0)
	wantStatus(t, newClient(t).post(inv.WorkspaceOrigin()+"/api/issue", "application/json", "{}"), http.StatusOK)
	if n := inv.IssuedCount(); n != 2 {
		t.Errorf("IssuedCount = %d, want 2", n)
	}
}
