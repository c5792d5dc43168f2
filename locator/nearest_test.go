package locator

import (
	"slices"
	"strings"
	"testing"
)

func TestCompareName(t *testing.T) {
	tests := []struct {
		want, got string
		diffs     []NameDiff
	}{
		{"GET /api/pets/{petId}", "GET /api /pets /{petId} Info for a specific pet", []NameDiff{DiffWhitespace, DiffExtraText}},
		{"GET /api/pets/{petId}", "GET /api /pets /{petId}", []NameDiff{DiffWhitespace}},
		{"List all pets", "list all pets", []NameDiff{DiffCase}},
		{"List all pets", "List  all\tpets", nil},
		{"Search", "Search members", []NameDiff{DiffExtraText}},
		{"Search members now", "Search members", []NameDiff{DiffMissingText}},
		{"get /api/pets", "GET /api /pets /{petId}", []NameDiff{DiffWhitespace, DiffCase, DiffExtraText}},
		{"Delete", "Remove", []NameDiff{DiffOther}},
	}
	for _, tt := range tests {
		n := CompareName(tt.want, tt.got)
		if !slices.Equal(n.Diffs, tt.diffs) {
			t.Errorf("CompareName(%q, %q).Diffs = %v, want %v", tt.want, tt.got, n.Diffs, tt.diffs)
		}
		if (n.Distance == 0) != (tt.diffs == nil) {
			t.Errorf("CompareName(%q, %q).Distance = %d", tt.want, tt.got, n.Distance)
		}
	}
}

func TestNearestNames(t *testing.T) {
	names := []string{"", "Remove pet", "GET /api /pets /{petId} Info for a specific pet", "GET /api /pets List all pets",
		"get /api/pets/{petid}", "POST /api /pets Create a pet", "GET /api /pets /{petId} Info for a specific pet"}
	got := NearestNames("GET /api/pets/{petId}", names, 3)
	if len(got) != 3 {
		t.Fatalf("got %d names, want 3: %v", len(got), got)
	}
	if got[0].Name != "get /api/pets/{petid}" || !slices.Equal(got[0].Diffs, []NameDiff{DiffCase}) {
		t.Errorf("nearest = %v, want the case variant", got[0])
	}
	if got[1].Name != "GET /api /pets /{petId} Info for a specific pet" {
		t.Errorf("second = %v, want the <wbr> name", got[1])
	}
	if !strings.Contains(got[1].String(), "(whitespace, extra_text)") {
		t.Errorf("String() = %s", got[1])
	}
	if NearestNames("x", names, 0) != nil {
		t.Error("n=0 returned names")
	}
	long := strings.Repeat("a", 10000)
	if n := CompareName(long, long+"b"); n.Distance != 0 && n.Distance > MaxCompareRunes {
		t.Errorf("distance of clipped names = %d", n.Distance)
	}
}

func FuzzCompareName(f *testing.F) {
	f.Add("GET /api/pets/{petId}", "GET /api /pets /{petId} Info")
	f.Add("", "x")
	f.Fuzz(func(t *testing.T, a, b string) {
		n := CompareName(a, b)
		if n.Distance < 0 || (n.Distance == 0) != (len(n.Diffs) == 0) && normalize(a) != normalize(b) {
			t.Fatalf("CompareName(%q, %q) = %+v", a, b, n)
		}
	})
}
