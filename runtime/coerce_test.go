package runtime

import (
	"math"
	"testing"

	"github.com/vera-run/vera/capability"
)

func TestCoerce(t *testing.T) {
	tests := []struct {
		typ     capability.FieldType
		in      string
		want    any
		wantErr bool
	}{
		{capability.FieldString, "  Mario Rossi \n", "Mario Rossi", false},
		{capability.FieldString, "   ", "", false},
		{capability.FieldInteger, "", nil, false},
		{capability.FieldInteger, "42", int64(42), false},
		{capability.FieldInteger, "1,234", int64(1234), false},
		{capability.FieldInteger, "1.234", int64(1234), false},
		{capability.FieldInteger, "1.234.567", int64(1234567), false},
		{capability.FieldInteger, "1,234.00", int64(1234), false},
		{capability.FieldInteger, "-7", int64(-7), false},
		{capability.FieldInteger, "12.5", nil, true},
		{capability.FieldInteger, "9007199254740993", nil, true},
		{capability.FieldNumber, "$12,480.55", 12480.55, false},
		{capability.FieldNumber, "€ 1.234,56", 1234.56, false},
		{capability.FieldNumber, "1.234,56 EUR", 1234.56, false},
		{capability.FieldNumber, "EUR 1.234,56", 1234.56, false},
		{capability.FieldNumber, "USD 1,204.10", 1204.10, false},
		{capability.FieldNumber, "1\u00a0234,50\u00a0€", 1234.50, false},
		{capability.FieldNumber, "12,5", 12.5, false},
		{capability.FieldNumber, "0,125", 0.125, false},
		{capability.FieldNumber, "0.125", 0.125, false},
		{capability.FieldNumber, "1234.5678", 1234.5678, false},
		{capability.FieldNumber, ".5", 0.5, false},
		{capability.FieldNumber, "-€12.50", -12.5, false},
		{capability.FieldNumber, "(1,234.00)", -1234.0, false},
		{capability.FieldNumber, "12.50-", -12.5, false},
		{capability.FieldNumber, "\u221212,50", -12.5, false},
		{capability.FieldNumber, "+3", 3.0, false},
		{capability.FieldNumber, "1,2,3", nil, true},
		{capability.FieldNumber, "1.23.4", nil, true},
		{capability.FieldNumber, "1.234.56", nil, true},
		{capability.FieldNumber, "1,234,56.7", nil, true},
		{capability.FieldNumber, "12%", nil, true},
		{capability.FieldNumber, "abc", nil, true},
		{capability.FieldNumber, "€", nil, true},
		{capability.FieldNumber, "1e5", nil, true},
		{capability.FieldNumber, "1.5,5", nil, true},
		{capability.FieldBoolean, "Yes", true, false},
		{capability.FieldBoolean, "sì", true, false},
		{capability.FieldBoolean, "SI", true, false},
		{capability.FieldBoolean, "true", true, false},
		{capability.FieldBoolean, "No", false, false},
		{capability.FieldBoolean, "false", false, false},
		{capability.FieldBoolean, "maybe", nil, true},
		{capability.FieldBoolean, "1", nil, true},
		{capability.FieldDate, "2026-03-28", "2026-03-28", false},
		{capability.FieldDate, "28/03/2026", "2026-03-28", false},
		{capability.FieldDate, "2/1/2026", "2026-01-02", false},
		{capability.FieldDate, "03/28/2026", nil, true},
		{capability.FieldDate, "2026-02-30", nil, true},
		{capability.FieldDate, "March 3", nil, true},
		{"bogus", "x", nil, true},
	}
	for _, tt := range tests {
		got, err := Coerce(tt.typ, tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("Coerce(%s, %q) error = %v, want error %v", tt.typ, tt.in, err, tt.wantErr)
			continue
		}
		if f, ok := got.(float64); ok {
			if w, ok := tt.want.(float64); !ok || math.Abs(f-w) > 1e-9 {
				t.Errorf("Coerce(%s, %q) = %v, want %v", tt.typ, tt.in, got, tt.want)
			}
			continue
		}
		if got != tt.want {
			t.Errorf("Coerce(%s, %q) = %#v, want %#v", tt.typ, tt.in, got, tt.want)
		}
	}
}

// FuzzCoerce checks that coercion never panics, that results have the
// documented Go types, and that numbers are finite.
func FuzzCoerce(f *testing.F) {
	for _, s := range []string{"1,234.56", "1.234,56", "€ 12", "(5)", "sì", "02/01/2006", "", "-", "1e308", "9999999999999999999999"} {
		f.Add(s)
	}
	types := []capability.FieldType{capability.FieldString, capability.FieldInteger, capability.FieldNumber, capability.FieldBoolean, capability.FieldDate}
	f.Fuzz(func(t *testing.T, s string) {
		for _, typ := range types {
			v, err := Coerce(typ, s)
			if err != nil {
				if v != nil {
					t.Fatalf("%s %q: value %v with error", typ, s, v)
				}
				continue
			}
			switch x := v.(type) {
			case nil, string, bool:
			case int64:
				if typ != capability.FieldInteger || x > maxSafeInteger || x < -maxSafeInteger {
					t.Fatalf("%s %q: int64 %d", typ, s, x)
				}
			case float64:
				if typ != capability.FieldNumber || math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("%s %q: float %v", typ, s, x)
				}
			default:
				t.Fatalf("%s %q: type %T", typ, s, v)
			}
		}
	})
}
