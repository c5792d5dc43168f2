package testsite

import (
	"encoding/json"
	"net/http"
)

// petstore API documentation app paths: a React-like "petstore" documentation page
// (as Swagger UI renders one) on its own origin.
const (
	// PetstorePath is GET the documentation page. Operation "GET /pet/{petId}"
	// is a collapsed section (button "GET /pet/{petId} Find pet by ID",
	// aria-expanded); expanded it shows the documented responses (region
	// "Responses": a table whose rows have no name, with cells "200",
	// "successful operation", "404", "Pet not found" and an example JSON
	// body) and a parameters form whose textbox has no accessible name,
	// disabled until "Try it out" is clicked. "Execute" fetches
	// [PetstorePetPath] and renders region "Live response": a table with
	// the live status cell and, inside the open shadow root of a
	// <response-body> element, the response body as JSON text in a
	// <pre> (test id "response-body").
	PetstorePath = "/docs"
	// PetstorePetPath is GET /api/pet/{id}: 200 with {"id":1,"name":"doggie",
	// "status":"available"} for pet 1 and {"id":2,"name":"Pet \"Rex\" II",
	// "status":"sold"} for pet 2; 404 with {"code":404,"type":"error",
	// "message":"Pet not found"} for any other id.
	PetstorePetPath = "/api/pet/"
)

// Petstore is the petstore API documentation app started by [StartPetstore].
type Petstore struct {
	*Server
}

// StartPetstore starts the petstore API documentation app on http://127.0.0.1:<random>.
func StartPetstore(opts ...Option) (*Petstore, error) {
	o := buildOptions(opts)
	mux, err := baseMux()
	if err != nil {
		return nil, err
	}
	mux.HandleFunc("GET "+PetstorePath, func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "petstore.html", nil)
	})
	mux.HandleFunc("GET "+PetstorePetPath+"{id}", servePet)
	srv, err := newServer("petstore", "", mux, o.Logger)
	if err != nil {
		return nil, err
	}
	return &Petstore{Server: srv}, nil
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
