package capability

import "fmt"

// The milestone graph. Node i is milestone i; node n (len(milestones)) is
// the "completed" terminal. A milestone without transitions continues with
// the next milestone in document order (the last one with completed). A
// milestone with transitions goes only where they say; when none of them is
// "always", the run may also fail there, and failing paths are not
// completion paths, so they add no edge.
type graph struct {
	n     int
	succ  [][]int
	start int
}

func buildGraph(c *Capability, ids map[string]int) *graph {
	n := len(c.Milestones)
	g := &graph{n: n, succ: make([][]int, n)}
	for i := range c.Milestones {
		m := &c.Milestones[i]
		if len(m.Transitions) == 0 {
			g.succ[i] = []int{i + 1} // i+1 == n is completed
			continue
		}
		seen := map[int]bool{}
		for _, t := range m.Transitions {
			to := -1
			if t.To == TerminalCompleted {
				to = n
			} else if j, ok := ids[t.To]; ok {
				to = j
			}
			if to >= 0 && !seen[to] {
				seen[to] = true
				g.succ[i] = append(g.succ[i], to)
			}
		}
	}
	return g
}

// reachable returns the nodes reachable from the start (completed
// included).
func (g *graph) reachable() []bool {
	seen := make([]bool, g.n+1)
	if g.n == 0 {
		return seen
	}
	stack := []int{0}
	seen[0] = true
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == g.n {
			continue
		}
		for _, y := range g.succ[x] {
			if !seen[y] {
				seen[y] = true
				stack = append(stack, y)
			}
		}
	}
	return seen
}

// onCycle reports, for every milestone, whether it lies on a cycle: in a
// strongly connected component of more than one milestone or with an edge
// to itself (Tarjan's algorithm, iterative).
func (g *graph) onCycle() []bool {
	n := g.n
	idx := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range idx {
		idx[i] = -1
	}
	var stack []int
	out := make([]bool, n)
	counter := 0
	type frame struct{ v, next int }
	for root := 0; root < n; root++ {
		if idx[root] >= 0 {
			continue
		}
		call := []frame{{root, 0}}
		idx[root], low[root] = counter, counter
		counter++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.next < len(g.succ[f.v]) {
				w := g.succ[f.v][f.next]
				f.next++
				if w >= n {
					continue
				}
				if w == f.v {
					out[w] = true
				}
				if idx[w] < 0 {
					idx[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] {
					low[f.v] = min(low[f.v], idx[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == idx[v] {
				top := len(stack)
				for stack[top-1] != v {
					top--
				}
				top--
				scc := stack[top:]
				for _, w := range scc {
					onStack[w] = false
					if len(scc) > 1 {
						out[w] = true
					}
				}
				stack = stack[:top]
			}
		}
	}
	return out
}

// bitset is a small fixed-size set of output indexes.
type bitset []uint64

func newBitset(n int, full bool) bitset {
	b := make(bitset, (n+63)/64)
	if full {
		for i := range b {
			b[i] = ^uint64(0)
		}
		if r := n % 64; r != 0 {
			b[len(b)-1] = (1 << r) - 1
		}
	}
	return b
}

func (b bitset) set(i int)      { b[i/64] |= 1 << (i % 64) }
func (b bitset) has(i int) bool { return b[i/64]&(1<<(i%64)) != 0 }

// mustProduced returns, for the completed terminal, the outputs produced on
// every path from the start (a forward "must" dataflow: the meet is the
// intersection over predecessors; cycles are ordinary edges). ok is false
// when no path reaches completed.
func (g *graph) mustProduced(prod []bitset, k int, reach []bool) (bitset, bool) {
	n := g.n
	in := make([]bitset, n+1)
	for i := range in {
		in[i] = newBitset(k, true)
	}
	in[0] = newBitset(k, false)
	tmp := newBitset(k, false)
	for changed := true; changed; {
		changed = false
		for x := 0; x < n; x++ {
			if !reach[x] {
				continue
			}
			for w := range tmp {
				tmp[w] = in[x][w] | prod[x][w]
			}
			for _, y := range g.succ[x] {
				if y == 0 {
					continue // the start's entry set is fixed: nothing produced
				}
				for w := range tmp {
					if nv := in[y][w] & tmp[w]; nv != in[y][w] {
						in[y][w] = nv
						changed = true
					}
				}
			}
		}
	}
	return in[n], reach[n]
}

// flow checks reachability, cycle bounds and required outputs.
func (v *validation) flow() {
	c := v.c
	if len(c.Milestones) == 0 {
		return
	}
	g := buildGraph(c, v.milestones)
	reach := g.reachable()
	for i := range c.Milestones {
		if !reach[i] {
			v.add(at("milestones").i(i), CodeUnreachableMilestone,
				fmt.Sprintf("no path from the first milestone %q reaches this milestone", c.Milestones[0].ID), c.Milestones[i].ID)
		}
	}
	for i, cyc := range g.onCycle() {
		if cyc && c.Milestones[i].MaxVisits == 0 {
			v.add(at("milestones").i(i).f("max_visits"), CodeUnboundedCycle,
				fmt.Sprintf("the milestone is on a cycle and must bound it with max_visits (1..%d)", MaxVisitsCeiling), "")
		}
	}
	if !reach[g.n] {
		v.add(at("milestones"), CodeCompletionUnreachable, `no path from the first milestone reaches "completed"`, "")
		return
	}
	// Required non-collection outputs that some action produces (the others
	// are reported as not produced).
	var req []int
	for i, o := range c.Outputs {
		if first, ok := v.outputs[o.Name]; ok && first == i && o.Required && o.Kind.valid() && !o.Kind.Collection() && v.produced[i] {
			req = append(req, i)
		}
	}
	if len(req) == 0 {
		return
	}
	pos := make(map[string]int, len(req))
	for j, i := range req {
		pos[c.Outputs[i].Name] = j
	}
	prod := make([]bitset, g.n)
	for mi := range c.Milestones {
		prod[mi] = newBitset(len(req), false)
		for _, a := range c.Milestones[mi].Actions {
			if a.Operation != OpExtract && a.Operation != OpDownload {
				continue
			}
			if j, ok := pos[a.Output]; ok {
				prod[mi].set(j)
			}
		}
	}
	done, _ := g.mustProduced(prod, len(req), reach)
	for j, i := range req {
		if !done.has(j) {
			v.add(at("outputs").i(i).f("required"), CodeRequiredOutputNotGuaranteed,
				"the required output is not produced on every path from the first milestone to completed", c.Outputs[i].Name)
		}
	}
}
