package runtime

import (
	"context"
	"fmt"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/receipt"
)

// SetDeclarer is an optional [Driver] extension: a driver that can tell
// what the page declares about the sets a list extraction's record
// containers belong to (the browser driver and the fake read the ARIA
// attributes) implements it, and the runtime then refuses to complete a
// list extraction that saw only part of a declared set (a virtualized
// grid, a list showing 10 of 40 items) with extraction_failed /
// records_incomplete. A driver without it extracts as before: no set is
// checked. The driver only reports; the runtime decides (setsize.go).
type SetDeclarer interface {
	// DeclaredSets reports the declared sets that els (record containers
	// of one document, in document order) belong to, ordered by their
	// first member. An element is a member of a set when it is a row
	// (role row) of a grid, table or treegrid, or an item (listitem,
	// option, treeitem, article) of a list, listbox, group, tree or feed;
	// sets that declare neither a size nor a position are left out, as
	// are elements that are members of none, unless one of the elements
	// asked about is busy (see [DeclaredSet.Busy]): such a set is
	// reported, and busy elements of no set form one busy set of size 0.
	DeclaredSets(ctx context.Context, els []Element) ([]DeclaredSet, error)
}

// DeclaredSet is what the page declares about one set: the rows of a
// grid, table or treegrid (aria-rowcount, aria-rowindex), or the items of
// one container and level (aria-setsize, aria-posinset).
type DeclaredSet struct {
	// Size is the declared number of members: the container's
	// aria-rowcount for rows, the members' aria-setsize for items (the
	// largest when they differ); -1 when the page declares the size
	// unknown (-1 on any member or the container), 0 when it declares
	// none.
	Size int
	// Positions has one entry per member of the set present in the
	// document, whether or not it is one of the elements asked about, in
	// document order: its aria-rowindex or aria-posinset, 0 when it
	// declares none.
	Positions []int
	// Members are the indexes, ascending, into the elements asked about
	// of those that belong to this set.
	Members []int
	// Busy is set when the page marks one of Members, or an ancestor of
	// it, aria-busy="true": its content is still being updated (a
	// placeholder such as "Loading…" or a skeleton), so the records read
	// from it are not the set's. A busy set is never complete.
	Busy bool
}

// setKey names one declared set of one extraction across its visits:
// the action and the set's place among the pass's sets.
type setKey struct {
	action string
	index  int
}

// setAcc accumulates one declared set over the visits of its extraction
// (pagination).
type setAcc struct {
	size       int          // the largest size declared; -1 once unknown
	positional bool         // every member of every pass declared a position
	positions  map[int]bool // the union of declared positions
	whole      bool         // one pass on its own held as many members as declared
	covered    int          // records of the set kept, over all passes
	extra      int          // the most members of one pass that were not records
	found      int          // records of the set read, over all passes
	present    int          // members present in the last pass
	busy       bool         // a pass read members the page marked aria-busy
}

// incomplete is a list extraction that saw part of a declared set.
type incomplete struct {
	action string
	detail string
}

// declaredSets asks a [SetDeclarer] driver about the record containers of
// a list pass; nil when the driver is none or there are no records.
func (r *run) declaredSets(a *capability.Action, timeout time.Duration, roots []Element) ([]DeclaredSet, *stop) {
	sd, ok := r.drv.(SetDeclarer)
	if !ok || len(roots) == 0 {
		return nil, nil
	}
	ctx, cancel := context.WithTimeout(r.ctx, timeout)
	sets, err := sd.DeclaredSets(ctx, roots)
	cancel()
	if err != nil {
		return nil, r.classify(err, receipt.CategoryExtractionFailed, ReasonReadFailed)
	}
	if err := checkDeclaredSets(sets, len(roots)); err != nil {
		return nil, r.failed(receipt.CategoryExtractionFailed, ReasonReadFailed, "action "+a.ID+": driver's declared sets: "+err.Error())
	}
	return sets, nil
}

// checkDeclaredSets refuses a driver answer that breaks the contract of
// [DeclaredSet]: it would decide completeness on facts that cannot hold.
func checkDeclaredSets(sets []DeclaredSet, n int) error {
	seen := make([]bool, n)
	for i, s := range sets {
		if s.Size < -1 {
			return fmt.Errorf("set %d: size %d", i, s.Size)
		}
		if len(s.Members) == 0 || len(s.Positions) < len(s.Members) {
			return fmt.Errorf("set %d: %d members, %d present", i, len(s.Members), len(s.Positions))
		}
		for j, m := range s.Members {
			if m < 0 || m >= n || seen[m] || (j > 0 && m <= s.Members[j-1]) {
				return fmt.Errorf("set %d: member index %d", i, m)
			}
			seen[m] = true
		}
		for _, p := range s.Positions {
			if p < 0 {
				return fmt.Errorf("set %d: position %d", i, p)
			}
		}
	}
	return nil
}

// checkSets folds a list pass's declared sets into the extraction's
// accumulated sets and decides. added[i] says whether root i's record was
// kept. A set seen only in part fails the action with records_incomplete
// when its milestone cannot be visited again; otherwise the decision
// waits for the later visits (pagination) and, at the latest, for the
// run's completion ([run.checkIncomplete]).
func (r *run) checkSets(m *capability.Milestone, a *capability.Action, sets []DeclaredSet, added []bool, o *outState) *stop {
	if len(sets) == 0 {
		return nil
	}
	if r.sets == nil {
		r.sets = map[setKey]*setAcc{}
	}
	limitReached := false
	if x := a.Extract; x.LimitInput != "" {
		if n, ok := r.vals[x.LimitInput].typed.(int64); ok && n > 0 && int64(len(o.records)) >= n {
			limitReached = true
		}
	}
	var detail string
	for i, s := range sets {
		k := setKey{a.ID, i}
		acc := r.sets[k]
		if acc == nil {
			acc = &setAcc{positional: true, positions: map[int]bool{}}
			r.sets[k] = acc
		}
		acc.add(s, added)
		switch {
		case detail != "":
		case acc.busy:
			detail = fmt.Sprintf("action %s: %d records read of a set whose members the page marks busy (aria-busy, content still loading); %d of its members present",
				a.ID, acc.found, acc.present)
		case !acc.complete(limitReached):
			detail = fmt.Sprintf("action %s: %d records read of a set the page declares with %s; %d of its members present",
				a.ID, acc.found, sizeText(acc.size), acc.present)
		}
	}
	delete(r.pending, a.ID)
	if detail == "" {
		return nil
	}
	if r.visits[m.ID] < max(m.MaxVisits, 1) {
		if r.pending == nil {
			r.pending = map[string]incomplete{}
		}
		r.pending[a.ID] = incomplete{action: a.ID, detail: detail}
		return nil
	}
	return r.failed(receipt.CategoryExtractionFailed, ReasonRecordsIncomplete, detail)
}

// checkIncomplete fails a run that would complete while a list
// extraction's declared set is still seen only in part (its milestone
// could have been visited again, but was not). The extraction failed,
// so its output is left unproduced ([run.unsetOutput]): the records of
// the earlier visits are part of a set, not an answer.
func (r *run) checkIncomplete() *stop {
	for i := range r.cap.Milestones {
		for j := range r.cap.Milestones[i].Actions {
			id := r.cap.Milestones[i].Actions[j].ID
			if p, ok := r.pending[id]; ok {
				st := r.failed(receipt.CategoryExtractionFailed, ReasonRecordsIncomplete, p.detail)
				st.action = p.action
				r.unsetOutput(r.cap.Milestones[i].Actions[j].Output)
				return st
			}
		}
	}
	return nil
}

func sizeText(n int) string {
	if n < 0 {
		return "an unknown size"
	}
	if n == 0 {
		return "positions but no size"
	}
	return fmt.Sprintf("%d members", n)
}

// add folds one pass's view of the set in.
func (acc *setAcc) add(s DeclaredSet, added []bool) {
	switch {
	case s.Size < 0 || acc.size < 0:
		acc.size = -1
	case s.Size > acc.size:
		acc.size = s.Size
	}
	for _, p := range s.Positions {
		if p <= 0 {
			acc.positional = false
		} else {
			acc.positions[p] = true
		}
	}
	kept := 0
	for _, m := range s.Members {
		if m < len(added) && added[m] {
			kept++
		}
	}
	acc.found += len(s.Members)
	acc.covered += kept
	acc.extra = max(acc.extra, len(s.Positions)-len(s.Members))
	acc.present = len(s.Positions)
	acc.busy = acc.busy || s.Busy
	if s.Size > 0 && len(s.Positions) >= s.Size {
		acc.whole = true
	}
}

// complete reports whether the set was seen whole. With the extraction's
// limit reached, the records asked for were read: the set only has to
// have been seen from its first member on (no declared position missing
// up to the last one present). Otherwise an unknown size is never whole;
// declared positions must cover 1 up to the size (or the last position);
// without positions, the members seen (records kept over all visits, plus
// the other members of the fullest pass, such as header rows) must reach
// the size.
func (acc *setAcc) complete(limitReached bool) bool {
	if limitReached {
		if !acc.positional {
			return true
		}
		return acc.run(0)
	}
	if acc.size < 0 {
		return false
	}
	if acc.positional && len(acc.positions) > 0 {
		return acc.run(acc.size)
	}
	return acc.size == 0 || acc.whole || acc.covered+acc.extra >= acc.size
}

// run reports whether the declared positions are exactly 1 to
// max(n, the largest position), none missing.
func (acc *setAcc) run(n int) bool {
	for p := range acc.positions {
		n = max(n, p)
	}
	return len(acc.positions) == n
}
