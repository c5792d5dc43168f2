package testsite

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Invoicing constants that tests and capabilities rely on.
const (
	// DefaultExportFilename is the Content-Disposition filename of the CSV
	// export until [Invoicing.SetExportFilename] changes it.
	DefaultExportFilename = "invoices.csv"
	// ExportPath is the path of the CSV export on the workspace origin.
	ExportPath = "/export/invoices.csv"
	// IssueNumber is the invoice number "Issue invoice" issues.
	IssueNumber = "INV-2064"
	// IssueCustomer is the customer "Issue invoice" issues to.
	IssueCustomer = "Acme S.p.A."
	// LedgerPageSize is how many invoices one ledger page shows.
	LedgerPageSize = 10
	// MaxExportSize bounds [Invoicing.SetExportSize] (64 MiB).
	MaxExportSize = 64 << 20
)

// Invoicing is the billing app spread over two loopback origins: the shell
// (origin A, http://127.0.0.1:<port>, embedded [Server]) serves GET /billing,
// which frames the workspace (origin B, http://localhost:<port>,
// [Invoicing.Workspace]), which frames the ledger on the same origin B.
// Hits and URL on the embedded Server refer to origin A; use
// inv.Workspace.Hits for origin B. All methods are safe for concurrent use.
type Invoicing struct {
	*Server
	// Workspace is origin B: /workspace, /ledger, /export/invoices.csv,
	// /api/issue and /api/survey.
	Workspace *Server

	mu           sync.Mutex
	filename     string
	exportDelay  time.Duration
	exportStall  time.Duration
	exportSize   int
	issueDelay   time.Duration
	survey       bool
	nativeDialog bool
	issued       int
	surveyAnswer int
}

// StartInvoicing starts the shell (origin A, 127.0.0.1) and the workspace
// (origin B, localhost).
func StartInvoicing(opts ...Option) (*Invoicing, error) {
	o := buildOptions(opts)
	inv := &Invoicing{filename: DefaultExportFilename}

	bmux, err := baseMux()
	if err != nil {
		return nil, err
	}
	bmux.HandleFunc("GET /workspace", func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "workspace.html", nil)
	})
	bmux.HandleFunc("GET /ledger", inv.ledger)
	bmux.HandleFunc("GET "+ExportPath, inv.export)
	bmux.HandleFunc("POST /api/issue", inv.issue)
	bmux.HandleFunc("POST /api/survey", inv.answerSurvey)
	if inv.Workspace, err = newServer("invoicing-workspace", "localhost", bmux, o.Logger); err != nil {
		return nil, err
	}

	amux, err := baseMux()
	if err != nil {
		inv.Workspace.Close()
		return nil, err
	}
	amux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/billing", http.StatusSeeOther)
	})
	amux.HandleFunc("GET /billing", func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "billing.html", inv.Workspace.Origin())
	})
	inv.listRoutes(amux, bmux)
	inv.deskRoutes(amux)
	if inv.Server, err = newServer("invoicing", "127.0.0.1", amux, o.Logger); err != nil {
		inv.Workspace.Close()
		return nil, err
	}
	return inv, nil
}

// Close stops both origins. It is idempotent.
func (inv *Invoicing) Close() {
	inv.Server.Close()
	inv.Workspace.Close()
}

// WorkspaceOrigin returns origin B, e.g. "http://localhost:41235".
func (inv *Invoicing) WorkspaceOrigin() string { return inv.Workspace.Origin() }

// SetExportFilename sets the Content-Disposition filename of the CSV
// export; "" restores [DefaultExportFilename]. The name is sent as given
// (RFC 2231 encoded when not plain ASCII); the browser sanitizes it.
func (inv *Invoicing) SetExportFilename(name string) {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	if name == "" {
		name = DefaultExportFilename
	}
	inv.filename = name
}

// SetExportDelay delays the export's response headers by d.
func (inv *Invoicing) SetExportDelay(d time.Duration) {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	inv.exportDelay = max(d, 0)
}

// SetIssueDelay delays the answer to POST /api/issue by d; the invoice
// is issued (counted) before the wait, as a slow back end commits and
// then answers late. While the answer is pending the ledger keeps its
// "Confirm issue" dialog open; it closes the dialog and shows the issued
// status when the answer arrives.
func (inv *Invoicing) SetIssueDelay(d time.Duration) {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	inv.issueDelay = max(d, 0)
}

// SetExportStall makes the export send its headers and the first half of
// the body, flush, wait d, then send the rest, so the browser holds a
// partial download for about d.
func (inv *Invoicing) SetExportStall(d time.Duration) {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	inv.exportStall = max(d, 0)
}

// SetExportSize pads the CSV with extra "PAD-" rows to n bytes: exactly n
// whenever n is at least 34 bytes more than the unpadded CSV, otherwise at
// most 34 bytes more than n; n at or below the unpadded size, or 0, means
// no padding. n is clamped to [MaxExportSize].
func (inv *Invoicing) SetExportSize(n int) {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	inv.exportSize = min(max(n, 0), MaxExportSize)
}

// ShowSurvey makes the ledger open an unexpected "Quick survey" modal on
// load (pages loaded after the call).
func (inv *Invoicing) ShowSurvey(on bool) {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	inv.survey = on
}

// ShowNativeDialog makes "Issue invoice" ask with window.confirm instead of
// the in-page "Confirm issue" dialog (pages loaded after the call).
func (inv *Invoicing) ShowNativeDialog(on bool) {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	inv.nativeDialog = on
}

// IssuedCount returns how many POST /api/issue requests succeeded, i.e. how
// many times the consequential "Issue invoice" was confirmed.
func (inv *Invoicing) IssuedCount() int {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return inv.issued
}

// SurveyAnswers returns how many times a "Quick survey" button was clicked
// (POST /api/survey). A runtime that never clicks through unknown modals
// leaves it at zero.
func (inv *Invoicing) SurveyAnswers() int {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return inv.surveyAnswer
}

// ExportFilename returns the filename the export currently announces.
func (inv *Invoicing) ExportFilename() string {
	inv.mu.Lock()
	defer inv.mu.Unlock()
	return inv.filename
}

// ExportCSV returns the exact bytes GET /export/invoices.csv serves now:
// a header line "Number,Customer,Date,Amount,Status" and one line per
// [Invoices] entry (RFC 4180 quoting, "\n" line ends), plus padding rows
// when [Invoicing.SetExportSize] is set.
func (inv *Invoicing) ExportCSV() []byte {
	inv.mu.Lock()
	size := inv.exportSize
	inv.mu.Unlock()
	return buildCSV(size)
}

func buildCSV(size int) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"Number", "Customer", "Date", "Amount", "Status"})
	for _, in := range invoices {
		_ = w.Write([]string{in.Number, in.Customer, in.Date, in.Amount, in.Status})
	}
	w.Flush()
	if size <= buf.Len() {
		return buf.Bytes()
	}
	// Padding rows: "PAD-0000001,Padding,2026-01-01,0.00,Paid\n"; the last
	// row's customer is widened with 'x' so the total is exactly size.
	minRow := len(padRow(0, ""))
	buf.Grow(size - buf.Len())
	for i := 1; ; i++ {
		rest := size - buf.Len()
		row := padRow(i, "Padding")
		if rest >= len(row)+minRow {
			buf.WriteString(row)
			continue
		}
		buf.WriteString(padRow(i, strings.Repeat("x", max(rest-minRow, 0))))
		return buf.Bytes()
	}
}

func padRow(i int, customer string) string {
	return fmt.Sprintf("PAD-%07d,%s,2026-01-01,0.00,Paid\n", i, customer)
}

type ledgerData struct {
	Survey       bool
	NativeDialog bool
	Invoices     []Invoice
	IssueNumber  string
	Customer     string
}

func (inv *Invoicing) ledger(w http.ResponseWriter, _ *http.Request) {
	inv.mu.Lock()
	d := ledgerData{Survey: inv.survey, NativeDialog: inv.nativeDialog,
		Invoices: invoices, IssueNumber: IssueNumber, Customer: IssueCustomer}
	inv.mu.Unlock()
	render(w, http.StatusOK, "ledger.html", d)
}

func (inv *Invoicing) export(w http.ResponseWriter, r *http.Request) {
	inv.mu.Lock()
	name, delay, stall, size := inv.filename, inv.exportDelay, inv.exportStall, inv.exportSize
	inv.mu.Unlock()
	if !inv.Workspace.sleep(r.Context(), delay) {
		return
	}
	body := buildCSV(size)
	h := w.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", contentDisposition(name))
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if stall <= 0 {
		_, _ = w.Write(body)
		return
	}
	half := len(body) / 2
	_, _ = w.Write(body[:half])
	_ = http.NewResponseController(w).Flush()
	if !inv.Workspace.sleep(r.Context(), stall) {
		return
	}
	_, _ = w.Write(body[half:])
}

// contentDisposition formats an attachment header for name, falling back to
// an RFC 5987 filename* parameter when mime refuses the name.
func contentDisposition(name string) string {
	if v := mime.FormatMediaType("attachment", map[string]string{"filename": name}); v != "" {
		return v
	}
	return "attachment; filename*=UTF-8''" + url.PathEscape(name)
}

func (inv *Invoicing) issue(w http.ResponseWriter, r *http.Request) {
	inv.mu.Lock()
	inv.issued++
	delay := inv.issueDelay
	inv.mu.Unlock()
	if !inv.Workspace.sleep(r.Context(), delay) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]string{"number": IssueNumber, "status": "issued"})
}

func (inv *Invoicing) answerSurvey(w http.ResponseWriter, _ *http.Request) {
	inv.mu.Lock()
	inv.surveyAnswer++
	inv.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}
