package strictjson

import (
	"errors"
	"strings"
	"testing"
)

// TestSyntaxLocation: syntax problems carry line and column, and a
// byte-order mark is named as one (issue 14).
func TestSyntaxLocation(t *testing.T) {
	for _, tc := range []struct {
		raw        string
		line, col  int
		want       string
		wantErrBOM bool
	}{
		{"\xef\xbb\xbf{\"a\":1}", 1, 1, "byte-order mark", true},
		{"{\n  \"a\": 1,\n  \"b\": tru }", 3, 11, "line 3, column 11 (byte 22): invalid character", false},
		{"{\"a\":1,\"a\":2}", 1, 0, "line 1", false},
		{"{\"é\": x}", 1, 7, "line 1, column 7", false},
		{"{} []", 1, 0, "line 1", false},
	} {
		_, err := Parse([]byte(tc.raw))
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("Parse(%q) = %v", tc.raw, err)
		}
		if e.Line != tc.line || tc.col != 0 && e.Column != tc.col {
			t.Errorf("Parse(%q): line %d column %d, want %d %d", tc.raw, e.Line, e.Column, tc.line, tc.col)
		}
		if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "0xef") {
			t.Errorf("Parse(%q) = %q, want %q", tc.raw, err, tc.want)
		}
		if errors.Is(err, ErrBOM) != tc.wantErrBOM {
			t.Errorf("Parse(%q): errors.Is(ErrBOM) = %t", tc.raw, !tc.wantErrBOM)
		}
	}
	if l, c := LineColumn([]byte("ab\ncd"), 4); l != 2 || c != 2 {
		t.Errorf("LineColumn = %d, %d", l, c)
	}
	if l, c := LineColumn([]byte("ab"), -1); l != 0 || c != 0 {
		t.Errorf("LineColumn(-1) = %d, %d", l, c)
	}
}
