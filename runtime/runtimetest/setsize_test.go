package runtimetest

import (
	"strconv"
	"testing"
)

func TestARIAInt(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
	}{
		{"", 0}, {"12", 12}, {" 7 ", 7}, {"-1", -1}, {"-2", 0}, {"0", 0}, {"1e3", 0}, {"3.5", 0},
		{"ten", 0}, {"+4", 0}, {"-0", 0}, {"007", 7}, {"99999999999999999999", 1 << 30}, {"2000000000", 1 << 30}, {"1073741824", 1 << 30},
	} {
		if got := ariaInt(tt.in); got != tt.want {
			t.Errorf("ariaInt(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

// FuzzARIAInt: the result is -1, 0 or a positive integer no larger than
// 1<<30, and a canonical decimal in range reads as itself.
func FuzzARIAInt(f *testing.F) {
	for _, s := range []string{"", "1", "-1", "1001", " 5", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := ariaInt(s)
		if n < -1 || n > 1<<30 {
			t.Fatalf("ariaInt(%q) = %d", s, n)
		}
		if m, err := strconv.Atoi(s); err == nil && m >= -1 && m <= 1<<30 && strconv.Itoa(m) == s && n != m {
			t.Fatalf("ariaInt(%q) = %d, want %d", s, n, m)
		}
	})
}
