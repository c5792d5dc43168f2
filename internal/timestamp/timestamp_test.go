package timestamp

import "testing"

func TestGrammar(t *testing.T) {
	for s, want := range map[string]bool{
		"2026-03-03T09:00:00Z":           true,
		"2026-03-03T09:00:00.5Z":         true,
		"2026-03-03T09:00:00.123456789Z": true,
		"2026-03-03T09:00:00+01:00":      true,
		"2026-03-03T09:00:00-00:00":      true,
		"2026-03-03T09:00:00.25-05:30":   true,
		"0000-01-01T00:00:00Z":           true,
		"2024-02-29T00:00:00Z":           true,

		"2026-03-03T09:00:00.1234567891Z": false, // ten fraction digits
		"2026-03-03T09:00:00.Z":           false,
		"2026-03-03T09:00:00,5Z":          false,
		"2026-03-03t09:00:00Z":            false,
		"2026-03-03T09:00:00z":            false,
		"2026-03-03 09:00:00Z":            false,
		"2026-03-03T9:00:00Z":             false,
		"2026-03-03T23:59:60Z":            false, // no leap second
		"2026-03-03T24:00:00Z":            false,
		"2026-02-30T09:00:00Z":            false,
		"2025-02-29T09:00:00Z":            false,
		"2026-03-03T09:00:00+24:00":       false,
		"2026-03-03T09:00:00+01:60":       false,
		"2026-03-03T09:00:00+0100":        false,
		"2026-03-03T09:00:00":             false,
		"2026-03-03T09:00:00Z ":           false,
		"２026-03-03T09:00:00Z":            false,
		"":                                false,
	} {
		if got := Valid(s); got != want {
			t.Errorf("Valid(%q) = %v, want %v", s, got, want)
		}
	}
	if !UTCSecond("2026-03-03T09:00:00Z") || UTCSecond("2026-03-03T09:00:00.5Z") || UTCSecond("2026-03-03T09:00:00+00:00") {
		t.Error("UTCSecond")
	}
}

func FuzzParse(f *testing.F) {
	f.Add("2026-03-03T09:00:00.5+01:00")
	f.Fuzz(func(t *testing.T, s string) {
		if tm, err := Parse(s); err == nil && tm.IsZero() && s[:4] != "0001" {
			t.Errorf("Parse(%q) returned the zero time without error", s)
		}
	})
}
