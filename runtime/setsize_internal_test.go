package runtime

import (
	"encoding/binary"
	"testing"
)

// TestSetCompleteness: the completeness rule of one accumulated set.
func TestSetCompleteness(t *testing.T) {
	tests := []struct {
		name  string
		sets  []DeclaredSet // one pass each, every member a kept record
		limit bool
		want  bool
	}{
		{"positions 1 to the size", []DeclaredSet{{Size: 3, Positions: []int{1, 2, 3}, Members: []int{0, 1, 2}}}, false, true},
		{"positions short of the size", []DeclaredSet{{Size: 4, Positions: []int{1, 2, 3}, Members: []int{0, 1, 2}}}, false, false},
		{"positions from 2", []DeclaredSet{{Size: 0, Positions: []int{2, 3}, Members: []int{0, 1}}}, false, false},
		{"positions with a gap", []DeclaredSet{{Size: 0, Positions: []int{1, 3}, Members: []int{0, 1}}}, false, false},
		{"positions past the size", []DeclaredSet{{Size: 2, Positions: []int{1, 2, 3}, Members: []int{0, 1, 2}}}, false, true},
		{"duplicate positions", []DeclaredSet{{Size: 3, Positions: []int{1, 1, 2}, Members: []int{0, 1, 2}}}, false, false},
		{"unknown size", []DeclaredSet{{Size: -1, Positions: []int{1, 2}, Members: []int{0, 1}}}, false, false},
		{"unknown size, limit", []DeclaredSet{{Size: -1, Positions: []int{1, 2}, Members: []int{0, 1}}}, true, true},
		{"unknown size, limit, from 3", []DeclaredSet{{Size: -1, Positions: []int{3, 4}, Members: []int{0, 1}}}, true, false},
		{"count only, whole", []DeclaredSet{{Size: 3, Positions: []int{0, 0, 0}, Members: []int{0, 1, 2}}}, false, true},
		{"count only, part", []DeclaredSet{{Size: 5, Positions: []int{0, 0, 0}, Members: []int{0, 1, 2}}}, false, false},
		{"count only, limit", []DeclaredSet{{Size: 5, Positions: []int{0, 0, 0}, Members: []int{0, 1, 2}}}, true, true},
		{"some positions missing", []DeclaredSet{{Size: 3, Positions: []int{1, 0, 3}, Members: []int{0, 1, 2}}}, false, true},
		{"pages united", []DeclaredSet{{Size: 4, Positions: []int{1, 2}, Members: []int{0, 1}}, {Size: 4, Positions: []int{3, 4}, Members: []int{0, 1}}}, false, true},
		{"pages short", []DeclaredSet{{Size: 5, Positions: []int{1, 2}, Members: []int{0, 1}}, {Size: 5, Positions: []int{3, 4}, Members: []int{0, 1}}}, false, false},
		{"size grows between pages", []DeclaredSet{{Size: 4, Positions: []int{1, 2}, Members: []int{0, 1}}, {Size: 5, Positions: []int{3, 4}, Members: []int{0, 1}}}, false, false},
		{"size unknown on a later page", []DeclaredSet{{Size: 2, Positions: []int{1, 2}, Members: []int{0, 1}}, {Size: -1, Positions: []int{3}, Members: []int{0}}}, false, false},
		{"count only pages with a header each", []DeclaredSet{{Size: 5, Positions: []int{0, 0, 0}, Members: []int{1, 2}}, {Size: 5, Positions: []int{0, 0, 0}, Members: []int{1, 2}}}, false, true},
		{"count only pages short", []DeclaredSet{{Size: 6, Positions: []int{0, 0, 0}, Members: []int{1, 2}}, {Size: 6, Positions: []int{0, 0}, Members: []int{1}}}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			acc := &setAcc{positional: true, positions: map[int]bool{}}
			for _, s := range tt.sets {
				if err := checkDeclaredSets([]DeclaredSet{s}, 3); err != nil {
					t.Fatal(err)
				}
				acc.add(s, []bool{true, true, true})
			}
			if got := acc.complete(tt.limit); got != tt.want {
				t.Fatalf("complete = %v, want %v (%+v)", got, tt.want, acc)
			}
		})
	}
}

// FuzzDeclaredSets: any driver answer is refused or decided, never a
// panic; an accepted answer keeps every member index in range, once.
func FuzzDeclaredSets(f *testing.F) {
	f.Add([]byte{3, 1, 2, 3, 0, 1, 2}, uint8(3), false)
	f.Add([]byte{255, 1, 0}, uint8(1), true)
	f.Add([]byte{}, uint8(0), false)
	f.Fuzz(func(t *testing.T, b []byte, n uint8, limit bool) {
		var sets []DeclaredSet
		for len(b) >= 3 {
			k := int(b[1]%8) + 1
			s := DeclaredSet{Size: int(int8(b[0]))}
			b = b[2:]
			for i := 0; i < k && len(b) > 0; i++ {
				s.Positions = append(s.Positions, int(int8(b[0])))
				b = b[1:]
			}
			for i := 0; i < k && len(b) >= 2; i++ {
				s.Members = append(s.Members, int(int16(binary.LittleEndian.Uint16(b))))
				b = b[2:]
			}
			sets = append(sets, s)
		}
		if err := checkDeclaredSets(sets, int(n)); err != nil {
			return
		}
		seen := map[int]bool{}
		added := make([]bool, n)
		acc := &setAcc{positional: true, positions: map[int]bool{}}
		for _, s := range sets {
			for _, m := range s.Members {
				if m < 0 || m >= int(n) || seen[m] {
					t.Fatalf("accepted member %d of %d twice or out of range", m, n)
				}
				seen[m] = true
				added[m] = true
			}
			acc.add(s, added)
		}
		_ = acc.complete(limit)
	})
}
