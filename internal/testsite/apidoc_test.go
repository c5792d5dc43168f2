package testsite

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
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

// TestAPIDocSpecAndDelay: the spec carries the description and the
// documented responses the page renders, and a pet answers only after
// APIDocPetDelay; a client that gives up ends the wait at once.
func TestAPIDocSpecAndDelay(t *testing.T) {
	a, err := StartAPIDoc()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	c := newClient(t)
	r := c.get(a.URL() + "/api/openapi.json")
	var spec struct {
		Description string `json:"description"`
		Operations  []struct {
			OperationID string `json:"operationId"`
			Responses   []struct {
				Code    string          `json:"code"`
				Example json.RawMessage `json:"example"`
			} `json:"responses"`
		} `json:"operations"`
	}
	if err := json.Unmarshal([]byte(r.body), &spec); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(spec.Description, "\n\n"); n != 2 {
		t.Errorf("description has %d paragraph breaks, want 2", n)
	}
	op := spec.Operations[2]
	if op.OperationID != "showPetById" || len(op.Responses) != 2 || op.Responses[0].Code != "200" || op.Responses[1].Code != "404" ||
		len(op.Responses[0].Example) == 0 || len(op.Responses[1].Example) == 0 {
		t.Errorf("showPetById responses %+v", op)
	}
	start := time.Now()
	wantStatus(t, c.get(a.URL()+"/api/pets/1"), http.StatusOK)
	if took := time.Since(start); took < APIDocPetDelay {
		t.Errorf("the pet answered after %v, want at least %v", took, APIDocPetDelay)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, a.URL()+"/api/pets/1", nil)
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
		t.Errorf("a request canceled after 50 ms got %s", res.Status)
	}
}
