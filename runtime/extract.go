package runtime

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
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
		ctx, cancel := context.WithTimeout(r.ctx, timeout)
		txt, err := r.drv.Read(ctx, el, Read{Kind: ReadText})
		cancel()
		if err != nil {
			return r.classify(err, receipt.CategoryExtractionFailed, ReasonReadFailed), nil
		}
		o.text, o.produced = strings.TrimSpace(txt), true
		out.Records = 1
		return nil, nil
	case capability.ExtractSingle:
		el, st := r.locateAction(m, a, timeout, out)
		if st != nil {
			return st, nil
		}
		return r.readInto(a, timeout, []Element{el}, o, out, nil)
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
	if st, miss := r.readInto(a, timeout, roots, o, out, added); st != nil || miss != nil {
		return st, miss
	}
	return r.checkSets(m, a, sets, added, o), nil
}

// readInto reads one record per root, coerces, checks required fields,
// and stores the records in the output (append with dedupe and the
// runtime limit for record sets). added, when not nil, has one entry per
// root and is set for the roots whose records were kept.
func (r *run) readInto(a *capability.Action, timeout time.Duration, roots []Element, o *outState, out *ActionOutcome, added []bool) (*stop, *fieldMiss) {
	x := a.Extract
	ctx, cancel := context.WithTimeout(r.ctx, timeout)
	defer cancel()
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
					return r.classify(err, receipt.CategoryExtractionFailed, ReasonLocatorError), nil
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
				return r.classify(err, receipt.CategoryExtractionFailed, ReasonReadFailed), nil
			}
			if f.JSONPointer != "" {
				if txt, err = jsonField(txt, f.JSONPointer); err != nil {
					return r.failed(receipt.CategoryExtractionFailed, jsonReason(err),
						fmt.Sprintf("action %s field %s: %v", a.ID, f.Name, err)), nil
				}
			}
			v, err := Coerce(f.Type, txt)
			if err != nil {
				return r.failed(receipt.CategoryExtractionFailed, ReasonCoercionFailed,
					fmt.Sprintf("action %s field %s: value does not fit %s", a.ID, f.Name, f.Type)), nil
			}
			recs[ri][f.Name] = v
			found = true
		}
		if !found && len(roots) > 0 && len(cands) > 0 {
			return nil, &fieldMiss{field: f.Name, tried: tried}
		}
	}
	for ri, rec := range recs {
		for _, name := range x.RequiredFields {
			if v := rec[name]; v == nil || v == "" {
				return r.failed(receipt.CategoryExtractionFailed, ReasonRequiredFieldEmpty,
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
		return nil, nil
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
				return r.failed(receipt.CategoryInternal, ReasonDedupeKeyFailed, err.Error()), nil
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
		return r.failed(receipt.CategoryExtractionFailed, ReasonMaxRecordsExceeded,
			fmt.Sprintf("action %s: %d records exceed max_records %d", a.ID, len(o.records), max)), nil
	}
	return nil, nil
}
