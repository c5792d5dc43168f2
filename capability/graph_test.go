package capability

import (
	"slices"
	"testing"
)

func TestGraphCycles(t *testing.T) {
	tests := []struct {
		name string
		succ [][]int // n == len(succ); n means completed
		want []bool
	}{
		{"chain", [][]int{{1}, {2}, {3}}, []bool{false, false, false}},
		{"self loop", [][]int{{0, 1}, {2}}, []bool{true, false}},
		{"two cycle", [][]int{{1}, {0, 2}, {3}}, []bool{true, true, false}},
		{"cycle behind a chain", [][]int{{1}, {2}, {3, 1}, {4}}, []bool{false, true, true, false}},
		{"two separate cycles", [][]int{{1}, {0, 2}, {3}, {2, 4}}, []bool{true, true, true, true}},
		{"diamond", [][]int{{1, 2}, {3}, {3}, {4}}, []bool{false, false, false, false}},
	}
	for _, tc := range tests {
		g := &graph{n: len(tc.succ), succ: tc.succ}
		if got := g.onCycle(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: onCycle = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestMustProduced(t *testing.T) {
	// 0 -> 1 -> completed, 0 -> 2 -> completed; output 0 produced in 1.
	bs := func(ids ...int) bitset {
		b := newBitset(2, false)
		for _, i := range ids {
			b.set(i)
		}
		return b
	}
	tests := []struct {
		name   string
		succ   [][]int
		prod   []bitset
		want   []bool // per output: guaranteed at completed
		reachC bool
	}{
		{"one branch misses", [][]int{{1, 2}, {3}, {3}}, []bitset{bs(), bs(0), bs()}, []bool{false, false}, true},
		{"both branches", [][]int{{1, 2}, {3}, {3}}, []bitset{bs(), bs(0), bs(0, 1)}, []bool{true, false}, true},
		{"produced before the branch", [][]int{{1, 2}, {3}, {3}}, []bitset{bs(1), bs(0), bs(0)}, []bool{true, true}, true},
		{"loop back to the start", [][]int{{1}, {0, 2}, {3}}, []bitset{bs(), bs(0), bs()}, []bool{true, false}, true},
		{"no completion", [][]int{{1}, {0}}, []bitset{bs(), bs()}, nil, false},
	}
	for _, tc := range tests {
		g := &graph{n: len(tc.succ), succ: tc.succ}
		done, ok := g.mustProduced(tc.prod, 2, g.reachable())
		if ok != tc.reachC {
			t.Errorf("%s: completed reachable = %v", tc.name, ok)
			continue
		}
		for i, w := range tc.want {
			if done.has(i) != w {
				t.Errorf("%s: output %d guaranteed = %v, want %v", tc.name, i, done.has(i), w)
			}
		}
	}
}
