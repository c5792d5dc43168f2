package testsite

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"sync"
)

// API console paths on the Teller origin: a developer console where a
// JSON request body is typed into a textarea and sent, as payment and
// admin consoles do it.
const (
	// APIConsolePath is GET the console: a textarea labelled "Request
	// body" and a button "Send request" that POSTs the textarea's text as
	// application/json to [APIRequestsPath] with fetch and then shows
	// "Request accepted" or "Request rejected" in a status region.
	APIConsolePath = "/api/console"
	// APIRequestsPath is POST a JSON object: the server parses it (one
	// object, no trailing data, duplicate members refused), records the
	// parsed members ([Teller.APIRequests]) and answers 201, or answers 400
	// for anything that is not exactly one JSON object.
	APIRequestsPath = "/api/requests"
)

// maxAPIBody bounds one API request body.
const maxAPIBody = 64 << 10

// apiState is the API console's record of accepted requests.
type apiState struct {
	mu   sync.Mutex
	reqs []map[string]any
}

type apiData struct {
	Title string
}

func (t *Teller) apiRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET "+APIConsolePath, func(w http.ResponseWriter, r *http.Request) {
		render(w, http.StatusOK, "api_console.html", apiData{Title: "API console"})
	})
	mux.HandleFunc("POST "+APIRequestsPath, func(w http.ResponseWriter, r *http.Request) {
		raw, err := io.ReadAll(io.LimitReader(r.Body, maxAPIBody+1))
		if err != nil || len(raw) > maxAPIBody {
			http.Error(w, `{"error":"body too large"}`, http.StatusBadRequest)
			return
		}
		obj, ok := parseObject(raw)
		if !ok {
			http.Error(w, `{"error":"not one JSON object"}`, http.StatusBadRequest)
			return
		}
		t.api.mu.Lock()
		t.api.reqs = append(t.api.reqs, obj)
		t.api.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte(`{"ok":true}`))
	})
}

// parseObject parses raw as exactly one JSON object whose top-level
// member names are unique, as a strict API server does.
func parseObject(raw []byte) (map[string]any, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, false
	}
	obj := map[string]any{}
	for dec.More() {
		k, err := dec.Token()
		key, isKey := k.(string)
		if err != nil || !isKey {
			return nil, false
		}
		if _, dup := obj[key]; dup {
			return nil, false
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		obj[key] = v
	}
	if tok, err := dec.Token(); err != nil || tok != json.Delim('}') {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return obj, true
}

// APIRequests returns the parsed bodies of the accepted API requests, in
// arrival order (copies of the top-level maps).
func (t *Teller) APIRequests() []map[string]any {
	t.api.mu.Lock()
	defer t.api.mu.Unlock()
	out := make([]map[string]any, len(t.api.reqs))
	for i, m := range t.api.reqs {
		c := make(map[string]any, len(m))
		for k, v := range m {
			c[k] = v
		}
		out[i] = c
	}
	return out
}
