package testsite

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"
)

// APIDoc is a Swagger-UI-like API documentation app, rendered in the page
// by a small React-like script: one state object, and every state change
// re-renders the whole operation list from it (nodes are replaced, not
// patched). See the package documentation for its controls. It has no
// knobs; all methods are the embedded [Server]'s.
type APIDoc struct {
	*Server
}

// APIDocPath is the documentation page.
const APIDocPath = "/docs"

// Pet is one record of the API the documentation describes.
type Pet struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Tag  string `json:"tag,omitempty"`
}

var apiPets = []Pet{{1, "Rex", "dog"}, {2, "Tom", "cat"}, {3, "Nemo", "fish"}}

// apiSpec is the spec the page fetches from /api/openapi.json. Paths are
// rendered with a <wbr> before every "/" after the first, as Swagger UI
// does, and tags are shown in lower case.
const apiSpec = `{"title":"Swagger Petstore","version":"1.0.0",
"description":"This is a sample server for a pet store. It describes a small API for the pets a store keeps and for its inventory. You can try every operation from this page: open it, press Try it out, fill in the parameters and press Execute.\n\nThe server answers in JSON. A pet has a numeric id, a name and an optional tag. Ids are assigned by the server when a pet is created and never reused, so an id that is not in the store answers 404 with an error body.\n\nThe API is public and needs no key. Requests are limited to 100 items per page; use the limit parameter of the list operation to page through larger stores.",
"operations":[
{"operationId":"listPets","method":"GET","path":"/api/pets","summary":"List all pets","tag":"pets","parameters":[{"name":"limit","in":"query","description":"How many items to return at one time (max 100)"}],
 "responses":[{"code":"200","description":"A paged array of pets","example":[{"id":1,"name":"Rex","tag":"dog"}]}]},
{"operationId":"createPets","method":"POST","path":"/api/pets","summary":"Create a pet","tag":"pets","requestBody":{"id":0,"name":"string","tag":"string"},
 "responses":[{"code":"201","description":"Null response"}]},
{"operationId":"showPetById","method":"GET","path":"/api/pets/{petId}","summary":"Info for a specific pet","tag":"pets","parameters":[{"name":"petId","in":"path","description":"The id of the pet to retrieve"}],
 "responses":[{"code":"200","description":"Expected response to a valid request","example":{"id":1,"name":"Rex","tag":"dog"}},{"code":"404","description":"pet not found","example":{"code":404,"message":"pet not found"}}]},
{"operationId":"deletePet","method":"DELETE","path":"/api/pets/{petId}","tag":"pets","parameters":[{"name":"petId","in":"path","description":"The id of the pet to delete"}],
 "responses":[{"code":"204","description":"Deleted"}]},
{"operationId":"getInventory","method":"GET","path":"/api/store/inventory","summary":"Returns pet inventories","tag":"store",
 "responses":[{"code":"200","description":"successful operation","example":{"dog":1,"cat":1,"fish":1}}]}
]}`

// APIDocPetDelay is how long GET /api/pets/{petId} takes to answer, as a
// real back end does: the page shows "Loading…" meanwhile, and the live
// response arrives after the click that asked for it has returned.
const APIDocPetDelay = 300 * time.Millisecond

// sleepCtx waits for d or ctx's end (the client went away or the server
// closed its connection) and reports whether d elapsed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// StartAPIDoc starts only the API documentation app on
// http://127.0.0.1:<random>.
func StartAPIDoc(opts ...Option) (*APIDoc, error) {
	o := buildOptions(opts)
	mux, err := baseMux()
	if err != nil {
		return nil, err
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, APIDocPath, http.StatusSeeOther)
	})
	mux.HandleFunc("GET "+APIDocPath, func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "apidoc.html", nil)
	})
	mux.HandleFunc("GET /api/openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, json.RawMessage(apiSpec))
	})
	mux.HandleFunc("GET /api/pets", func(w http.ResponseWriter, r *http.Request) {
		n := len(apiPets)
		if l, err := strconv.Atoi(r.URL.Query().Get("limit")); err == nil && l >= 0 && l < n {
			n = l
		}
		writeJSON(w, http.StatusOK, apiPets[:n])
	})
	mux.HandleFunc("GET /api/pets/{petId}", func(w http.ResponseWriter, r *http.Request) {
		if !sleepCtx(r.Context(), APIDocPetDelay) {
			return
		}
		id, err := strconv.Atoi(r.PathValue("petId"))
		for _, p := range apiPets {
			if err == nil && p.ID == id {
				writeJSON(w, http.StatusOK, p)
				return
			}
		}
		writeJSON(w, http.StatusNotFound, map[string]any{"code": 404, "message": "pet not found"})
	})
	srv, err := newServer("apidoc", "127.0.0.1", mux, o.Logger)
	if err != nil {
		return nil, err
	}
	return &APIDoc{Server: srv}, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
