package testsite

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestPetstoreRoutes(t *testing.T) {
	a, err := StartPetstore()
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	get := func(path string) (int, string) {
		t.Helper()
		res, err := http.Get(a.Origin() + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	if code, body := get(PetstorePath); code != 200 || !strings.Contains(body, `aria-label="Responses"`) || !strings.Contains(body, "Try it out") {
		t.Fatalf("docs: %d", code)
	}
	for id, want := range map[string]string{"1": "doggie", "2": `Pet "Rex" II`} {
		code, body := get(PetstorePetPath + id)
		var pet map[string]any
		if code != 200 || json.Unmarshal([]byte(body), &pet) != nil || pet["name"] != want {
			t.Fatalf("pet %s: %d %s", id, code, body)
		}
	}
	if code, body := get(PetstorePetPath + "99"); code != 404 || !strings.Contains(body, `"message":"Pet not found"`) {
		t.Fatalf("missing pet: %d %s", code, body)
	}
}
