package testsite

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

func TestAPIDocRoutes(t *testing.T) {
	a, err := StartAPIDoc()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	c := newClient(t)
	wantRedirect(t, c.get(a.URL()+"/"), http.StatusSeeOther, APIDocPath)
	r := c.get(a.URL() + APIDocPath)
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, `<main id="root" aria-busy="true">`, `<script src="/assets/apidoc.js"></script>`)
	wantStatus(t, c.get(a.URL()+"/assets/apidoc.js"), http.StatusOK)

	r = c.get(a.URL() + "/api/openapi.json")
	wantStatus(t, r, http.StatusOK)
	var spec struct {
		Title      string `json:"title"`
		Operations []struct {
			Method, Path, Summary string
		} `json:"operations"`
	}
	if err := json.Unmarshal([]byte(r.body), &spec); err != nil || spec.Title != "Swagger Petstore" || len(spec.Operations) != 5 {
		t.Fatalf("spec %+v: %v", spec, err)
	}
	if op := spec.Operations[2]; op.Method != "GET" || op.Path != "/api/pets/{petId}" || op.Summary != "Info for a specific pet" {
		t.Errorf("operation 2 = %+v", op)
	}

	r = c.get(a.URL() + "/api/pets?limit=2")
	wantStatus(t, r, http.StatusOK)
	var pets []Pet
	if err := json.Unmarshal([]byte(r.body), &pets); err != nil || len(pets) != 2 || pets[0].Name != "Rex" {
		t.Fatalf("pets %+v: %v", pets, err)
	}
	r = c.get(a.URL() + "/api/pets/2")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, `"name": "Tom"`)
	for _, id := range []string{"9", "x"} {
		r = c.get(a.URL() + "/api/pets/" + id)
		wantStatus(t, r, http.StatusNotFound)
		if !strings.Contains(r.body, "pet not found") {
			t.Errorf("404 body %q", r.body)
		}
	}
}
