package capability_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
)

// TestParseErrorLocation: a byte-order mark is named as one, and syntax
// problems are located by line and column (issue 14).
func TestParseErrorLocation(t *testing.T) {
	_, err := capability.ParseBytes([]byte("\xef\xbb\xbf{\"schema\":\"browser-capability/v1\"}"))
	var pe *capability.ParseError
	if !errors.As(err, &pe) || pe.Code != capability.ParseCodeSyntax || pe.Line != 1 || pe.Column != 1 {
		t.Fatalf("BOM: %v", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "byte-order mark") || strings.Contains(msg, "0xef") {
		t.Errorf("BOM message = %q", msg)
	}
	_, err = capability.ParseBytes([]byte("{\n  \"schema\": \"browser-capability/v1\",\n  \"id\": x\n}"))
	if !errors.As(err, &pe) || pe.Line != 3 || pe.Column != 9 || !strings.Contains(err.Error(), "(line 3, column 9, offset") || strings.Count(err.Error(), "offset") != 1 {
		t.Errorf("syntax: %v (line %d, column %d)", err, pe.Line, pe.Column)
	}
}
