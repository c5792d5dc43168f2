package locator

import (
	"context"
	"errors"
	"testing"
)

// TestNilArguments: a nil context or finder is ErrInvalidArgument, never a
// panic, in both resolution modes.
func TestNilArguments(t *testing.T) {
	var nilCtx context.Context
	ok := FinderFunc[int](func(context.Context, Candidate) ([]int, error) { return []int{1}, nil })
	var nilFunc FinderFunc[int]
	cs := []Candidate{{Strategy: CSS, CSS: "#a"}}
	tests := []struct {
		name string
		ctx  context.Context
		f    Finder[int]
	}{
		{"nil context", nilCtx, ok},
		{"nil finder", context.Background(), nil},
		{"nil FinderFunc", context.Background(), nilFunc},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if res, err := Resolve(tt.ctx, tt.f, cs); !errors.Is(err, ErrInvalidArgument) || res.Index != -1 {
				t.Errorf("Resolve = %+v, %v", res, err)
			}
			if res, err := ResolveAll(tt.ctx, tt.f, cs); !errors.Is(err, ErrInvalidArgument) || res.Index != -1 {
				t.Errorf("ResolveAll = %+v, %v", res, err)
			}
		})
	}
}
