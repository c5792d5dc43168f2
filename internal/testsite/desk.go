package testsite

import (
	"encoding/json"
	"net/http"
)

// Paths of the client desk, the page set of one capability that acts in
// the top-level page and in a cross-origin frame.
const (
	// DeskPath is the client desk on origin A: GET /desk?q=<name>. The
	// page holds the <desk-sync> web component (its "Sincronizza" button
	// and status live in an open shadow root), a client search whose state
	// is the q query parameter (rendered by the page's script from
	// [DeskClientsAPI]; submitting the form pushes /desk?q=<name>), and
	// the framed invoice list of origin B ([FrameInvoicesPath], in
	// iframe#desk-invoices titled "Invoices").
	DeskPath = "/desk"
	// DeskClientsAPI answers the desk's search on origin A: GET
	// /api/desk/clients?q=<name>, a JSON array of {"name", "invoices"}
	// ([SearchClients]).
	DeskClientsAPI = "/api/desk/clients"
	// DeskSyncAPI is the desk's synchronisation on origin A: POST
	// /api/desk/sync answers {"clients": <count of all clients>}; its
	// hits count the synchronisations.
	DeskSyncAPI = "/api/desk/sync"
)

// deskClient is one search answer of [DeskClientsAPI].
type deskClient struct {
	Name     string `json:"name"`
	Invoices int    `json:"invoices"`
}

// deskRoutes adds the client desk and its two APIs to origin A's mux.
func (inv *Invoicing) deskRoutes(amux *http.ServeMux) {
	amux.HandleFunc("GET "+DeskPath, func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "desk.html", inv.Workspace.Origin())
	})
	amux.HandleFunc("GET "+DeskClientsAPI, func(w http.ResponseWriter, r *http.Request) {
		out := []deskClient{}
		for _, c := range SearchClients(r.URL.Query().Get("q")) {
			out = append(out, deskClient{Name: c.Name, Invoices: c.Invoices})
		}
		writeDeskJSON(w, out)
	})
	amux.HandleFunc("POST "+DeskSyncAPI, func(w http.ResponseWriter, _ *http.Request) {
		writeDeskJSON(w, map[string]int{"clients": len(SearchClients(""))})
	})
}

func writeDeskJSON(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(b)
}
