package testsite

import (
	"encoding/json"
	"net/http"
)

// API documentation app paths: a React-like "petstore" documentation page
// (as Swagger UI renders one) on its own origin.
const (
	// APIDocPath is GET the documentation page. Operation "GET /pet/{petId}"
	// is a collapsed section (button "GET /pet/{petId} Find pet by ID",
	// aria-expanded); expanded it shows the documented responses (region
	// "Responses": a table whose rows have no name, with cells "200",
	// "successful operation", "404", "Pet not found" and an example JSON
	// body) and a parameters form whose textbox has no accessible name,
	// disabled until "Try it out" is clicked. "Execute" fetches
	// [APIDocPetPath] and renders region "Live response": a table with
	// the live status cell and, inside the open shadow root of a
	// <response-body> element, the response body as JSON text in a
	// <pre> (test id "response-body").
	APIDocPath = "/docs"
	// APIDocPetPath is GET /api/pet/{id}: 200 with {"id":1,"name":"doggie",
	// "status":"available"} for pet 1 and {"id":2,"name":"Pet \"Rex\" II",
	// "status":"sold"} for pet 2; 404 with {"code":404,"type":"error",
	// "message":"Pet not found"} for any other id.
	APIDocPetPath = "/api/pet/"
)

// APIDoc is the API documentation app started by [StartAPIDoc].
type APIDoc struct {
	*Server
}

// StartAPIDoc starts the API documentation app on http://127.0.0.1:<random>.
func StartAPIDoc(opts ...Option) (*APIDoc, error) {
	o := buildOptions(opts)
	mux, err := baseMux()
	if err != nil {
		return nil, err
	}
	mux.HandleFunc("GET "+APIDocPath, func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "apidoc.html", nil)
	})
	mux.HandleFunc("GET "+APIDocPetPath+"{id}", servePet)
	srv, err := newServer("apidoc", "", mux, o.Logger)
	if err != nil {
		return nil, err
	}
	return &APIDoc{Server: srv}, nil
}

var pets = map[string]map[string]any{
	"1": {"id": 1, "name": "doggie", "status": "available"},
	"2": {"id": 2, "name": `Pet "Rex" II`, "status": "sold"},
}

func servePet(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	p, ok := pets[r.PathValue("id")]
	if !ok {
		w.WriteHeader(http.StatusNotFound)
		_ = json.NewEncoder(w).Encode(map[string]any{"code": 404, "type": "error", "message": "Pet not found"})
		return
	}
	_ = json.NewEncoder(w).Encode(p)
}
