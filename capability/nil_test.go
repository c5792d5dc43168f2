package capability

import (
	"errors"
	"io"
	"testing"
)

// TestNilArguments: nil arguments give typed errors, never a panic.
func TestNilArguments(t *testing.T) {
	var r io.Reader
	_, err := Parse(r)
	var pe *ParseError
	if !errors.Is(err, ErrInvalidArgument) || !errors.Is(err, ErrParse) || !errors.As(err, &pe) || pe.Code != ParseCodeRead {
		t.Errorf("Parse(nil) = %v", err)
	}
}
