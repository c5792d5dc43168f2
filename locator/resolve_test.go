package locator

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// mapFinder answers by candidate value; missing values match nothing.
type mapFinder struct {
	matches map[string][]string
	fail    map[string]error
	calls   []string
}

func (m *mapFinder) Find(_ context.Context, c Candidate) ([]string, error) {
	m.calls = append(m.calls, c.Value())
	if err := m.fail[c.Value()]; err != nil {
		return nil, err
	}
	return m.matches[c.Value()], nil
}

func txt(s string) Candidate { return Candidate{Strategy: Text, Text: s} }

func TestResolve(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name      string
		matches   map[string][]string
		fail      map[string]error
		cands     []Candidate
		wantIndex int
		wantEl    string
		wantTried []Attempt
		wantCalls []string
		wantIs    []error
		wantNotIs []error
	}{
		{
			name:      "first unique wins",
			matches:   map[string][]string{"a": {"A"}, "b": {"B"}},
			cands:     []Candidate{txt("a"), txt("b")},
			wantIndex: 0, wantEl: "A",
			wantCalls: []string{"a"},
		},
		{
			name:      "no match moves on",
			matches:   map[string][]string{"b": {"B"}},
			cands:     []Candidate{txt("a"), txt("b")},
			wantIndex: 1, wantEl: "B",
			wantTried: []Attempt{{Index: 0, Reason: ReasonNoMatch}},
			wantCalls: []string{"a", "b"},
		},
		{
			name:      "several matches move on even when earlier in DOM",
			matches:   map[string][]string{"a": {"X", "Y"}, "b": {"Y"}},
			cands:     []Candidate{txt("a"), txt("b")},
			wantIndex: 1, wantEl: "Y",
			wantTried: []Attempt{{Index: 0, Matches: 2, Reason: ReasonAmbiguous}},
			wantCalls: []string{"a", "b"},
		},
		{
			name:      "recorded order not DOM order",
			matches:   map[string][]string{"later": {"L"}, "earlier": {"E"}},
			cands:     []Candidate{txt("later"), txt("earlier")},
			wantIndex: 0, wantEl: "L",
			wantCalls: []string{"later"},
		},
		{
			name:      "none wins",
			matches:   map[string][]string{"a": {"X", "Y", "Z"}},
			cands:     []Candidate{txt("a"), txt("b")},
			wantIndex: -1,
			wantTried: []Attempt{{Index: 0, Matches: 3, Reason: ReasonAmbiguous}, {Index: 1, Reason: ReasonNoMatch}},
			wantCalls: []string{"a", "b"},
			wantIs:    []error{ErrNotFound, ErrAmbiguous},
		},
		{
			name:      "none matches",
			cands:     []Candidate{txt("a")},
			wantIndex: -1,
			wantTried: []Attempt{{Index: 0, Reason: ReasonNoMatch}},
			wantCalls: []string{"a"},
			wantIs:    []error{ErrNotFound},
			wantNotIs: []error{ErrAmbiguous},
		},
		{
			name:      "finder error stops",
			matches:   map[string][]string{"b": {"B"}},
			fail:      map[string]error{"a": boom},
			cands:     []Candidate{txt("a"), txt("b")},
			wantIndex: -1,
			wantTried: []Attempt{{Index: 0, Reason: ReasonError}},
			wantCalls: []string{"a"},
			wantIs:    []error{boom},
			wantNotIs: []error{ErrNotFound},
		},
		{
			name:      "empty list",
			wantIndex: -1,
			wantIs:    []error{ErrNoCandidates},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &mapFinder{matches: tt.matches, fail: tt.fail}
			res, err := Resolve[string](context.Background(), f, tt.cands)
			if res.Index != tt.wantIndex || res.Element != tt.wantEl {
				t.Errorf("got index %d element %q, want %d %q", res.Index, res.Element, tt.wantIndex, tt.wantEl)
			}
			if !reflect.DeepEqual(res.Tried, tt.wantTried) {
				t.Errorf("tried = %v, want %v", res.Tried, tt.wantTried)
			}
			if !reflect.DeepEqual(f.calls, tt.wantCalls) {
				t.Errorf("calls = %v, want %v", f.calls, tt.wantCalls)
			}
			if (err == nil) != (len(tt.wantIs) == 0) {
				t.Fatalf("err = %v", err)
			}
			for _, target := range tt.wantIs {
				if !errors.Is(err, target) {
					t.Errorf("errors.Is(%v, %v) = false", err, target)
				}
			}
			for _, target := range tt.wantNotIs {
				if errors.Is(err, target) {
					t.Errorf("errors.Is(%v, %v) = true", err, target)
				}
			}
		})
	}
}

func TestResolveAll(t *testing.T) {
	f := &mapFinder{matches: map[string][]string{"rows": {"r1", "r2", "r3"}, "row": {"only"}}}
	res, err := ResolveAll[string](context.Background(), f, []Candidate{txt("none"), txt("rows"), txt("row")})
	if err != nil {
		t.Fatal(err)
	}
	if res.Index != 1 || !reflect.DeepEqual(res.Elements, []string{"r1", "r2", "r3"}) {
		t.Fatalf("got %+v", res)
	}
	if !reflect.DeepEqual(res.Tried, []Attempt{{Index: 0, Reason: ReasonNoMatch}}) {
		t.Fatalf("tried %v", res.Tried)
	}
	res, err = ResolveAll[string](context.Background(), f, []Candidate{txt("none")})
	if !errors.Is(err, ErrNotFound) || res.Index != -1 || res.Elements != nil {
		t.Fatalf("got %+v, %v", res, err)
	}
	if _, err := ResolveAll[string](context.Background(), f, nil); !errors.Is(err, ErrNoCandidates) {
		t.Fatalf("err = %v", err)
	}
	boom := errors.New("boom")
	f.fail = map[string]error{"none": boom}
	if _, err := ResolveAll[string](context.Background(), f, []Candidate{txt("none"), txt("rows")}); !errors.Is(err, boom) {
		t.Fatalf("err = %v", err)
	}
}

func TestResolveCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := &mapFinder{matches: map[string][]string{"a": {"A"}}}
	_, err := Resolve[string](ctx, f, []Candidate{txt("a")})
	if !errors.Is(err, context.Canceled) || len(f.calls) != 0 {
		t.Fatalf("err = %v calls = %v", err, f.calls)
	}
	_, err = ResolveAll[string](ctx, f, []Candidate{txt("a")})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

func TestResolveErrorText(t *testing.T) {
	f := &mapFinder{matches: map[string][]string{"secret-value": {"a", "b"}}}
	_, err := Resolve[string](context.Background(), f, []Candidate{txt("secret-value"), txt("other")})
	if got, want := err.Error(), "locator: no unique match (tried 0:ambiguous:2, 1:no_match)"; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
}

func TestFinderFunc(t *testing.T) {
	var f Finder[int] = FinderFunc[int](func(_ context.Context, c Candidate) ([]int, error) {
		if c.Strategy == Role {
			return []int{7}, nil
		}
		return nil, nil
	})
	res, err := Resolve(context.Background(), f, []Candidate{txt("x"), {Strategy: Role, Role: "button"}})
	if err != nil || res.Index != 1 || res.Element != 7 {
		t.Fatalf("got %+v %v", res, err)
	}
}

// FuzzResolve checks the resolution invariants for arbitrary match counts:
// the winner is the first candidate with exactly one match, and every
// earlier candidate is recorded with its count and reason.
func FuzzResolve(f *testing.F) {
	f.Add([]byte{0, 2, 1, 3})
	f.Add([]byte{5, 5})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, counts []byte) {
		if len(counts) > MaxCandidates {
			counts = counts[:MaxCandidates]
		}
		cands := make([]Candidate, len(counts))
		for i := range counts {
			cands[i] = Candidate{Strategy: TestID, TestID: string(rune('a' + i))}
		}
		finder := FinderFunc[int](func(_ context.Context, c Candidate) ([]int, error) {
			n := int(counts[c.TestID[0]-'a'] % 4)
			return make([]int, n), nil
		})
		res, err := Resolve(context.Background(), finder, cands)
		want := -1
		for i, c := range counts {
			if c%4 == 1 {
				want = i
				break
			}
		}
		if res.Index != want {
			t.Fatalf("index %d, want %d", res.Index, want)
		}
		if (err == nil) != (want >= 0) {
			t.Fatalf("err %v with index %d", err, want)
		}
		stop := want
		if stop < 0 {
			stop = len(counts)
		}
		if len(res.Tried) != stop {
			t.Fatalf("tried %d, want %d", len(res.Tried), stop)
		}
		for i, a := range res.Tried {
			n := int(counts[i] % 4)
			if a.Index != i || (n == 0) != (a.Reason == ReasonNoMatch) || (n > 1 && (a.Reason != ReasonAmbiguous || a.Matches != n)) {
				t.Fatalf("attempt %d = %+v for count %d", i, a, n)
			}
		}
	})
}
