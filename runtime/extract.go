package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/textrule"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
)

// extract runs an extract action. A missing field locator hands off (when
// a handoff is set) and re-reads once before failing or requesting
// recovery.
func (r *run) extract(m *capability.Milestone, a *capability.Action, timeout time.Duration, out *ActionOutcome) *stop {
	if st := r.extractRead(m, a, timeout, out); st != nil {
		return st
	}
	return r.checkExpectations(a)
}

// extractRead reads the output of an extract action.
func (r *run) extractRead(m *capability.Milestone, a *capability.Action, timeout time.Duration, out *ActionOutcome) *stop {
	st, miss := r.extractFresh(m, a, timeout, out)
	if miss != nil {
		back, hst := r.offerHandoff(m, a, HandoffLocatorNotFound)
		if hst != nil {
			return hst
		}
		if back {
			st, miss = r.extractFresh(m, a, timeout, out)
		}
	}
	if miss != nil {
		return r.missingLocator(m, a, miss.field, miss.tried, nil)
	}
	return st
}

// extractFresh is extractOnce, repeated from the locator on while a
// read meets an element the page replaced (ErrStaleElement) and one
// action timeout has not passed since the first try. A read has no
// effect and its records are stored only when every read of the pass
// succeeded, so a repeated pass reads one consistent document state: a
// virtualized grid that recycles its rows on a late scroll event, or a
// list that re-renders, is read again instead of failing stale_element.
func (r *run) extractFresh(m *capability.Milestone, a *capability.Action, timeout time.Duration, out *ActionOutcome) (*stop, *fieldMiss) {
	until := time.Now().Add(timeout)
	for {
		st, miss := r.extractOnce(m, a, timeout, out)
		if st == nil || st.failure == nil || st.failure.Reason != string(ReasonStaleElement) ||
			!time.Now().Before(until) || r.interrupted() != nil {
			return st, miss
		}
		r.log.Debug("extract met a replaced element; reading again", "action", a.ID)
	}
}

// unsetOutput leaves the output of a failed extraction unproduced
// (FORMAT.md 4.2): whatever the failing pass, or the earlier visits of a
// paginated list, stored is dropped, so neither outputs.json nor the
// model outputs of the failed run hold a partial value as if it had been
// produced. Every failed extract action calls it ([run.runAction]), as
// does a list found incomplete at completion ([run.checkIncomplete]).
func (r *run) unsetOutput(name string) {
	if o := r.outs[name]; o != nil {
		*o = outState{decl: o.decl}
	}
}

// fieldMiss is a field locator that matched in no record.
type fieldMiss struct {
	field string
	tried []locator.Attempt
}

func (r *run) extractOnce(m *capability.Milestone, a *capability.Action, timeout time.Duration, out *ActionOutcome) (*stop, *fieldMiss) {
	x := a.Extract
	o := r.outs[a.Output]
	switch x.Mode {
	case capability.ExtractText:
		el, st := r.locateAction(m, a, timeout, out)
		if st != nil {
			return st, nil
		}
		var txt string
		read := func(ctx context.Context, el Element) (bool, *stop, *fieldMiss) {
			t, err := r.drv.Read(ctx, el, Read{Kind: ReadText})
			if err != nil {
				return false, r.classify(err, receipt.CategoryExtractionFailed, ReasonReadFailed), nil
			}
			if o.decl.Required && textrule.Blank(t) {
				return true, r.failed(receipt.CategoryExtractionFailed, ReasonRequiredFieldEmpty,
					fmt.Sprintf("action %s: the text of required output %s is blank", a.ID, a.Output)), nil
			}
			txt = t
			return false, nil, nil
		}
		if st, _ := r.readFilled(m, a, timeout, el, out, read); st != nil {
			return st, nil
		}
		// A blank text (only white space and zero-width characters) of
		// an output that is not required is produced as "".
		if textrule.Blank(txt) {
			txt = ""
		} else {
			txt = strings.TrimSpace(txt)
		}
		o.text, o.produced = txt, true
		out.Records = 1
		return nil, nil
	case capability.ExtractSingle:
		el, st := r.locateAction(m, a, timeout, out)
		if st != nil {
			return st, nil
		}
		return r.readFilled(m, a, timeout, el, out, func(ctx context.Context, el Element) (bool, *stop, *fieldMiss) {
			return r.readInto(ctx, a, []Element{el}, o, out, nil)
		})
	}
	// List mode: the first candidate with at least one match gives the
	// record containers. It is read once, without waiting: an empty set is
	// a valid answer, so the capability establishes the results state
	// with a previous postcondition or transition.
	var (
		roots []Element
		res   locator.ListResolution[Element]
	)
	ok, st := r.waitFor(WaitLocator, m.ID, a.ID, timeout, func(ctx context.Context) (bool, *stop) {
		scope, ferr, st := r.frameScope(ctx)
		if st != nil {
			return false, st
		}
		if ferr != nil {
			return false, r.onMiss(ctx)
		}
		rr, err := locator.ResolveAll(ctx, r.finder(scope, nil), r.actionCands(a))
		res = rr
		switch {
		case err == nil:
			roots = rr.Elements
			r.lastScope = scope
		case errors.Is(err, locator.ErrNotFound):
		case errors.Is(err, ErrStaleElement):
			return false, nil
		default:
			return false, r.classify(err, receipt.CategoryExtractionFailed, ReasonLocatorError)
		}
		return true, nil
	})
	if st != nil {
		return st, nil
	}
	if len(roots) == 0 {
		r.lastScope = nil
	}
	if !ok {
		return r.failed(receipt.CategoryFrameNotAllowed, ReasonFrameNotFound, "action "+a.ID+": frame path did not resolve"), nil
	}
	out.LocatorIndex, out.Tried = res.Index, candidateAttempts(res.Tried)
	out.LocatorMatches = winnerMatches(res.Tried, res.Index, len(roots))
	if len(roots) > x.MaxRecords {
		return r.failed(receipt.CategoryExtractionFailed, ReasonMaxRecordsExceeded,
			fmt.Sprintf("action %s: %d records exceed max_records %d", a.ID, len(roots), x.MaxRecords)), nil
	}
	// What the page declares about the records' sets is asked before any
	// record is stored, so a stale answer repeats the pass like a stale
	// read (extractFresh), and decided once the records are kept.
	sets, st := r.declaredSets(a, timeout, roots)
	if st != nil {
		return st, nil
	}
	added := make([]bool, len(roots))
	rctx, cancel := context.WithTimeout(r.ctx, timeout)
	_, st, miss := r.readInto(rctx, a, roots, o, out, added)
	cancel()
	if st != nil || miss != nil {
		return st, miss
	}
	return r.checkSets(m, a, sets, added, o), nil
}

// readInto reads one record per root, coerces, checks required fields,
// and stores the records in the output (append with dedupe and the
// runtime limit for record sets). added, when not nil, has one entry per
// root and is set for the roots whose records were kept. A required
// field is empty when it is null or a blank string (FORMAT.md 1.4: only
// white space and zero-width characters); blank reports that failure
// (required_field_empty), which a single extraction waits out
// ([run.readFilled]).
func (r *run) readInto(ctx context.Context, a *capability.Action, roots []Element, o *outState, out *ActionOutcome, added []bool) (blank bool, st *stop, miss *fieldMiss) {
	x := a.Extract
	recs := make([]map[string]any, len(roots))
	for i := range recs {
		recs[i] = make(map[string]any, len(x.Fields))
	}
	for fi := range x.Fields {
		f := &x.Fields[fi]
		cands := r.fieldCands(a, f)
		found := false
		var tried []locator.Attempt
		for ri, root := range roots {
			el := root
			if len(cands) > 0 {
				res, err := locator.Resolve(ctx, r.finder(r.lastScope, root), cands)
				if err != nil {
					if errors.Is(err, locator.ErrNotFound) {
						tried = res.Tried
						recs[ri][f.Name] = nil
						continue
					}
					return false, r.classify(err, receipt.CategoryExtractionFailed, ReasonLocatorError), nil
				}
				el = res.Element
			}
			rd := Read{Kind: ReadText}
			switch f.Read {
			case capability.ReadValue:
				rd = Read{Kind: ReadValue}
			case capability.ReadAttribute:
				rd = Read{Kind: ReadAttribute, Name: f.Attribute}
			}
			txt, err := r.drv.Read(ctx, el, rd)
			if err != nil {
				return false, r.classify(err, receipt.CategoryExtractionFailed, ReasonReadFailed), nil
			}
			if f.JSONPointer != "" {
				if txt, err = jsonField(txt, f.JSONPointer); err != nil {
					return false, r.failed(receipt.CategoryExtractionFailed, jsonReason(err),
						fmt.Sprintf("action %s field %s: %v", a.ID, f.Name, err)), nil
				}
			}
			v, err := Coerce(f.Type, txt)
			if err != nil {
				return false, r.failed(receipt.CategoryExtractionFailed, ReasonCoercionFailed,
					fmt.Sprintf("action %s field %s: value does not fit %s", a.ID, f.Name, f.Type)), nil
			}
			recs[ri][f.Name] = v
			found = true
		}
		if !found && len(roots) > 0 && len(cands) > 0 {
			return false, nil, &fieldMiss{field: f.Name, tried: tried}
		}
	}
	for ri, rec := range recs {
		for _, name := range x.RequiredFields {
			if v := rec[name]; v == nil || isBlankString(v) {
				return true, r.failed(receipt.CategoryExtractionFailed, ReasonRequiredFieldEmpty,
					fmt.Sprintf("action %s record %d: required field %s is empty", a.ID, ri, name)), nil
			}
		}
	}
	if o.decl.Kind == capability.OutputRecord {
		if len(recs) > 0 {
			o.record = recs[0]
		}
		o.produced = true
		out.Records = len(recs)
		return false, nil, nil
	}
	limit := 0
	if x.LimitInput != "" {
		if n, ok := r.vals[x.LimitInput].typed.(int64); ok {
			limit = int(n)
		}
	}
	if o.records == nil {
		o.records = []any{}
	}
	kept := 0
	for ri, rec := range recs {
		if len(x.DedupeKeys) > 0 {
			key := make([]any, len(x.DedupeKeys))
			for i, k := range x.DedupeKeys {
				key[i] = rec[k]
			}
			b, err := canonjson.Marshal(key)
			if err != nil {
				return false, r.failed(receipt.CategoryInternal, ReasonDedupeKeyFailed, err.Error()), nil
			}
			if o.seen == nil {
				o.seen = map[string]bool{}
			}
			if o.seen[string(b)] {
				continue
			}
			o.seen[string(b)] = true
		}
		if limit > 0 && len(o.records) >= limit {
			break
		}
		o.records = append(o.records, rec)
		kept++
		if added != nil {
			added[ri] = true
		}
	}
	o.produced = true
	out.Records = kept
	if max := x.MaxRecords; max > 0 && len(o.records) > max {
		return false, r.failed(receipt.CategoryExtractionFailed, ReasonMaxRecordsExceeded,
			fmt.Sprintf("action %s: %d records exceed max_records %d", a.ID, len(o.records), max)), nil
	}
	return false, nil, nil
}

// isBlankString reports whether v is a blank string (FORMAT.md 1.4).
func isBlankString(v any) bool {
	s, ok := v.(string)
	return ok && textrule.Blank(s)
}

// readFilled reads a text or single extraction from el, its uniquely
// resolved root. When read reports the value blank (a required text, or
// a required field of the record, is only white space and zero-width
// characters: the skeleton a page shows before its data arrives), it
// waits up to one action timeout more, through the runtime's wait (a
// page change or the poll interval wakes it; unknown modals and business
// outcomes end it as in every wait), re-resolving the root from the
// action's candidates on every check, since a page often replaces the
// placeholder element, and reading again until the value is not blank.
// A field locator that matches nothing on the first read (a placeholder
// with no box yet) starts the same wait. A root that is gone or
// ambiguous for a moment, a field not yet there and a stale read keep
// the wait going. When the timeout passes, the
// last read's answer stands: the blank failure (required_field_empty),
// or the field locator that matched nothing (recovery). read stores the
// value only when it is not blank.
func (r *run) readFilled(m *capability.Milestone, a *capability.Action, timeout time.Duration, el Element, out *ActionOutcome,
	read func(ctx context.Context, el Element) (blank bool, st *stop, miss *fieldMiss)) (*stop, *fieldMiss) {
	ctx, cancel := context.WithTimeout(r.ctx, timeout)
	blank, st, miss := read(ctx, el)
	cancel()
	// A field locator that matches nothing in the root on the first read
	// is waited out as a blank field is: a skeleton's placeholders are
	// often empty elements (an empty <dd> or <td>), which have no box and
	// so match no locator until the data fills them. Failing at once made
	// a single extraction of a record still loading end
	// locator_not_found, where a text extraction of the same placeholder
	// waits for it (its locator resolves only once the element is
	// visible). A field locator that is really wrong still fails the
	// same way, one action timeout later.
	if !blank && miss == nil {
		return st, miss
	}
	if blank {
		r.log.Debug("extract read a blank required value; waiting for the page to fill it", "action", a.ID)
	} else {
		r.log.Debug("extract found no element for a field; waiting for the page to render it", "action", a.ID, "field", miss.field)
	}
	cands := r.actionCands(a)
	_, wst := r.waitFor(WaitLocator, m.ID, a.ID, timeout, func(ctx context.Context) (bool, *stop) {
		scope, ferr, fst := r.frameScope(ctx)
		if fst != nil {
			return false, fst
		}
		if ferr != nil {
			return false, r.onMiss(ctx)
		}
		res, err := locator.Resolve(ctx, r.finder(scope, nil), cands)
		if err != nil {
			if ctx.Err() != nil {
				return false, nil
			}
			if errors.Is(err, locator.ErrNotFound) || errors.Is(err, ErrStaleElement) {
				return false, r.onMiss(ctx)
			}
			return false, r.classify(err, receipt.CategoryExtractionFailed, ReasonLocatorError)
		}
		r.lastScope = scope
		b, rst, rmiss := read(ctx, res.Element)
		if ctx.Err() != nil && (rst != nil || rmiss != nil || b) {
			// The wait ended during this read: its answer is unknown, so
			// the last complete read stays the one reported.
			return false, nil
		}
		if rst != nil && rst.failure != nil && rst.failure.Reason == string(ReasonStaleElement) {
			return false, r.onMiss(ctx)
		}
		if b || rmiss != nil {
			st, miss = rst, rmiss
			return false, r.onMiss(ctx)
		}
		st, miss = rst, nil
		out.LocatorIndex, out.Tried = res.Index, candidateAttempts(res.Tried)
		out.LocatorMatches = winnerMatches(res.Tried, res.Index, 1)
		return true, nil
	})
	if wst != nil {
		return wst, nil
	}
	return st, miss
}
