package capability

import (
	"testing"
)

func TestEnvNamesAndCookieValues(t *testing.T) {
	for _, tc := range []struct {
		s     string
		valid bool
	}{
		{"PORTAL_PASSWORD", true}, {"_X", true}, {"A1", true},
		{"", false}, {"1A", false}, {"portal", false}, {"A-B", false}, {"A B", false},
		{"PATH", false}, {"HOME", false}, {"LD_PRELOAD", false}, {"VERA_BROWSER", false}, {"XDG_CONFIG_HOME", false},
		{"PATHS", true}, {"MY_HOME", true}, {"VERAX", true},
		{string(make([]byte, 129)), false},
	} {
		if got := ValidEnvName(tc.s); got != tc.valid {
			t.Errorf("ValidEnvName(%q) = %v, want %v", tc.s, got, tc.valid)
		}
	}
	for _, tc := range []struct {
		s  string
		ok bool
	}{
		{"abc123", true}, {"a=b", true}, {"ünïcode", true}, {"", true},
		{"a b", false}, {"a;b", false}, {`a"b`, false}, {"a,b", false}, {`a\b`, false}, {"a\tb", false}, {"a\x7fb", false},
	} {
		if got := CookieValue(tc.s); got != tc.ok {
			t.Errorf("CookieValue(%q) = %v, want %v", tc.s, got, tc.ok)
		}
	}
}

func TestCheckSecretEnv(t *testing.T) {
	c := &Capability{Secrets: []Secret{{Name: "a", Env: "A_PASSWORD"}, {Name: "b", Env: "B_TOKEN"}}}
	if errs := c.CheckSecretEnv([]string{"A_PASSWORD", "B_TOKEN"}); len(errs) != 0 {
		t.Errorf("both allowed: %v", errs)
	}
	errs := c.CheckSecretEnv([]string{"A_PASSWORD"})
	if len(errs) != 1 || errs[0].Code != CodeSecretEnvNotAllowed || errs[0].Path != "secrets[1].env" {
		t.Errorf("one allowed: %v", errs)
	}
	if errs := c.CheckSecretEnv(nil); len(errs) != 2 {
		t.Errorf("none allowed: %v", errs)
	}
	if errs := (&Capability{}).CheckSecretEnv(nil); len(errs) != 0 {
		t.Errorf("no secrets: %v", errs)
	}
	if errs := (*Capability)(nil).CheckSecretEnv(nil); errs != nil {
		t.Errorf("nil capability: %v", errs)
	}
}

// TestSecretRefsOrder: SecretRefs lists used secrets once, in
// declaration order.
func TestSecretRefsOrder(t *testing.T) {
	pub := "x"
	c := &Capability{
		Secrets: []Secret{{Name: "z"}, {Name: "a"}, {Name: "unused"}},
		Inputs:  []Input{{Name: "p", SecretRef: "a"}},
		Seed: &Seed{Cookies: []SeedCookie{{Value: SeedValue{SecretRef: "z"}}, {Value: SeedValue{SecretRef: "a"}}},
			LocalStorage: []SeedStorage{{Value: SeedValue{Public: &pub}}}},
	}
	got := c.SecretRefs()
	if len(got) != 2 || got[0] != "z" || got[1] != "a" {
		t.Errorf("SecretRefs = %v", got)
	}
}
