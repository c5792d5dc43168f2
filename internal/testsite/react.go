package testsite

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// React-like page paths on the Teller origin: a client-rendered member
// directory written the way React apps are, for timing measurements.
const (
	// ReactPath is GET the app shell: an empty root and /assets/react.js,
	// a small virtual-DOM renderer with a React-style scheduler. The app
	// renders a search box "Search members" (a controlled input: every
	// keystroke re-renders the app), a button "Search" and a status
	// region. Search fetches [ReactAPIPath] and renders the result rows in
	// time slices of [ReactSliceRows] rows, each slice a separate task
	// that keeps the main thread busy for a few milliseconds (as a
	// concurrent renderer does); when the last slice is committed the
	// status says "N members found".
	ReactPath = "/react/members"
	// ReactAPIPath is GET ?q=<text>: a JSON array of the directory rows
	// whose name contains q (case-insensitive), each {"id","name","branch"};
	// [ReactDirectorySize] rows for an empty q.
	ReactAPIPath = "/react/api/members"
)

// ReactDirectorySize is the number of rows of the React-like directory.
const ReactDirectorySize = 240

// ReactSliceRows is how many rows one render slice of the React-like page
// commits.
const ReactSliceRows = 20

type reactRow struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Branch string `json:"branch"`
}

// reactDirectory is the synthetic directory, deterministic.
func reactDirectory() []reactRow {
	first := []string{"Ada", "Bruno", "Chiara", "Dario", "Elena", "Fabio", "Giulia", "Hugo"}
	last := []string{"Rossi", "Bianchi", "Conti", "Greco", "Marino", "Ricci"}
	branch := []string{"Centro", "Nord", "Sud", "Porto", "Colle"}
	rows := make([]reactRow, ReactDirectorySize)
	for i := range rows {
		rows[i] = reactRow{
			ID:     fmt.Sprintf("M-%05d", 10000+i),
			Name:   first[i%len(first)] + " " + last[(i/len(first))%len(last)],
			Branch: branch[i%len(branch)],
		}
	}
	return rows
}

func (t *Teller) reactRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET "+ReactPath, func(w http.ResponseWriter, r *http.Request) {
		render(w, http.StatusOK, "react.html", apiData{Title: "Member directory"})
	})
	mux.HandleFunc("GET "+ReactAPIPath, func(w http.ResponseWriter, r *http.Request) {
		q := strings.ToLower(r.URL.Query().Get("q"))
		out := []reactRow{}
		for _, row := range reactDirectory() {
			if strings.Contains(strings.ToLower(row.Name), q) {
				out = append(out, row)
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		_ = json.NewEncoder(w).Encode(out)
	})
}
