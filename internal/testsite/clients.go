package testsite

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Paths of the client search and the framed, paginated invoice list.
const (
	// ClientsPath is the client search on origin A: GET /clients?q=<name>.
	ClientsPath = "/clients"
	// InvoiceListPath is the shell page on origin A that frames
	// [FrameInvoicesPath] from origin B.
	InvoiceListPath = "/billing/list"
	// FrameInvoicesPath is the server-paginated invoice list on origin B:
	// GET /frame/invoices?page=<n>.
	FrameInvoicesPath = "/frame/invoices"
	// FramePageSize is how many invoices one framed list page shows.
	FramePageSize = 5
)

// Client is one row of the client search: a customer of [Invoices] and
// how many invoices it has.
type Client struct {
	Name     string
	Invoices int
}

// SearchClients returns the customers of [Invoices] whose name contains q
// case-insensitively (byte-wise after strings.ToLower), in first-invoice order; an
// empty or blank q matches every customer. It is the answer GET
// /clients?q= renders.
func SearchClients(q string) []Client {
	q = strings.ToLower(strings.TrimSpace(q))
	var out []Client
	for _, in := range invoices {
		if !strings.Contains(strings.ToLower(in.Customer), q) {
			continue
		}
		i := slices.IndexFunc(out, func(c Client) bool { return c.Name == in.Customer })
		if i < 0 {
			out = append(out, Client{Name: in.Customer, Invoices: 1})
		} else {
			out[i].Invoices++
		}
	}
	return out
}

type clientsData struct {
	Query   string
	Clients []Client
}

// clients serves GET /clients?q=: a plain GET search form and the
// matching clients. Its URL is the search state, as back-office lists are.
func clients(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query().Get("q")
	render(w, http.StatusOK, "clients.html", clientsData{Query: q, Clients: SearchClients(q)})
}

type framePageData struct {
	Invoices   []Invoice
	Page, Last int
	Prev, Next string
}

// frameInvoices serves GET /frame/invoices?page=n on origin B: one page
// of [FramePageSize] invoices; "Next page" and "Previous page" are links
// that navigate the frame (a new document, a new URL). An unknown page is
// page 1; a page past the end is the last page.
func frameInvoices(w http.ResponseWriter, r *http.Request) {
	last := (len(invoices) + FramePageSize - 1) / FramePageSize
	page, err := strconv.Atoi(r.URL.Query().Get("page"))
	if err != nil || page < 1 {
		page = 1
	}
	page = min(page, last)
	from := (page - 1) * FramePageSize
	d := framePageData{Invoices: invoices[from:min(from+FramePageSize, len(invoices))], Page: page, Last: last}
	if page > 1 {
		d.Prev = FrameInvoicesPath + "?page=" + strconv.Itoa(page-1)
	}
	if page < last {
		d.Next = FrameInvoicesPath + "?page=" + strconv.Itoa(page+1)
	}
	render(w, http.StatusOK, "frame_invoices.html", d)
}

// listRoutes adds the client search and the invoice list shell to origin
// A's mux and the framed list to origin B's.
func (inv *Invoicing) listRoutes(amux, bmux *http.ServeMux) {
	amux.HandleFunc("GET "+ClientsPath, clients)
	amux.HandleFunc("GET "+InvoiceListPath, func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "billing_list.html", inv.Workspace.Origin())
	})
	bmux.HandleFunc("GET "+FrameInvoicesPath, frameInvoices)
}
