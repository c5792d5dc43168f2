package redact

import (
	"testing"
)

func TestPathIdentifiers(t *testing.T) {
	m := Marker
	tests := []struct {
		in, want string
		kinds    map[string]int
	}{
		{"/clients/C00103", "/clients/" + m, map[string]int{KindPathSegment: 1}},
		{"/clients/C00103/edit", "/clients/" + m + "/edit", map[string]int{KindPathSegment: 1}},
		{"/members/42", "/members/" + m, map[string]int{KindPathSegment: 1}},
		{"/members/7/", "/members/" + m + "/", map[string]int{KindPathSegment: 1}},
		{"/members/100234", "/members/" + m, map[string]int{KindDigits: 1}},
		{"/orders/3f2b5c2e-1a3d-4b5e-8f60-7a8b9c0d1e2f", "/orders/" + m, map[string]int{KindUUID: 1}},
		{"/invoices/INV-2024-0042/pdf", "/invoices/" + m + "/pdf", map[string]int{KindPathSegment: 1}},
		{"/files/a1b2c3d4", "/files/" + m, map[string]int{KindPathSegment: 1}},
		{"/u/ab12/x/9", "/u/" + m + "/x/" + m, map[string]int{KindPathSegment: 2}},
		{"/row-" + m + "/C12", "/row-" + m + "/" + m, map[string]int{KindPathSegment: 1}},
		{"/x/" + m + "-7", "/x/" + m, map[string]int{KindPathSegment: 1}},
		{"/reports/2024-11", "/reports/" + m, map[string]int{KindPathSegment: 1}},
		// Ordinary words, versions and names stay.
		{"/clients/search", "/clients/search", nil},
		{"/invoices/new", "/invoices/new", nil},
		{"/api/v2/clients", "/api/v2/clients", nil},
		{"/oauth2/authorize", "/oauth2/authorize", nil},
		{"/settings/2fa", "/settings/2fa", nil},
		{"/docs/utf-8", "/docs/utf-8", nil},
		{"/list/page-3", "/list/page-3", nil},
		{"/clients/", "/clients/", nil},
		{"/", "/", nil},
		{"/" + m, "/" + m, nil},
	}
	for _, tt := range tests {
		got, kinds := PathIdentifiers(tt.in)
		if got != tt.want || len(kinds) != len(tt.kinds) {
			t.Errorf("PathIdentifiers(%q) = %q %v, want %q %v", tt.in, got, kinds, tt.want, tt.kinds)
			continue
		}
		for k, n := range tt.kinds {
			if kinds[k] != n {
				t.Errorf("PathIdentifiers(%q) kinds %v, want %v", tt.in, kinds, tt.kinds)
			}
		}
		if ContainsPathIdentifier(got) {
			t.Errorf("PathIdentifiers(%q) = %q is not a fixed point", tt.in, got)
		}
		if again, _ := PathIdentifiers(got); again != got {
			t.Errorf("redacting %q again gives %q", got, again)
		}
		if want := tt.kinds != nil; ContainsPathIdentifier(tt.in) != want {
			t.Errorf("ContainsPathIdentifier(%q) = %v", tt.in, !want)
		}
	}
}

func FuzzPathIdentifiers(f *testing.F) {
	for _, s := range []string{"/clients/C00103", "/a/b", "/x/1/y/22", "/" + Marker + "1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, _ := PathIdentifiers(p)
		if ContainsPathIdentifier(got) {
			t.Fatalf("%q -> %q still holds an identifier", p, got)
		}
	})
}
