package runtime

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/redact"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
)

// Limits of a [Cause].
const (
	// MaxCauseLen bounds [Cause.String], in bytes.
	MaxCauseLen = 2048
	// MaxCauseNames is how many nearest accessible names a candidate's
	// cause lists at most.
	MaxCauseNames = 5
	// MaxCauseTextRunes bounds every text of a cause (a locator, a name,
	// a check's detail), in runes; longer texts end with "…".
	MaxCauseTextRunes = 120
	// CauseTimeout bounds the extra driver calls that explain a miss
	// ([NearestNamer]) once the locator wait has already given up.
	CauseTimeout = 2 * time.Second
)

// Cause is the local explanation of a failed action: what was tried, how
// many elements each candidate matched, in which frame, the nearest
// accessible names on a miss, and for an element that never became
// interactable the actionability check that failed with the element's
// box and the viewport.
//
// A Cause is local only. It is never written to a receipt, outputs.json,
// a lock or any other evidence file, never hashed and never shown to a
// model through a [RecoveryRequest]; the fields that hold it are tagged
// json:"-". It is sanitized: candidates are shown as the capability
// wrote them (input templates unsubstituted), texts from the page are
// cut to [MaxCauseTextRunes], identifier- and secret-shaped substrings
// and every supplied input value are replaced by a marker, and
// [Cause.String] is at most [MaxCauseLen] bytes.
type Cause struct {
	// Action is the failed action's id, Field the extraction field when
	// a field locator missed.
	Action string
	Field  string
	// Frame is the frame path that was searched, the failed action's
	// milestone's (empty: the top-level document).
	Frame []string
	// FrameProblem is set when the frame path itself did not resolve:
	// "frame_not_found" or "frame_ambiguous".
	FrameProblem string
	// Candidates are the candidates tried, in order: the losers of a miss,
	// or the winner whose element then failed to act.
	Candidates []CandidateCause
	// Actionability is set when the element was found but never became
	// interactable.
	Actionability *Actionability
}

// CandidateCause is one tried candidate.
type CandidateCause struct {
	// Index is the candidate's position in the locator.
	Index int
	// Locator is the candidate as the capability wrote it, e.g.
	// role=button[name="GET /api/pets/{petId}" exact].
	Locator string
	// Matches is how many elements it matched on the last try.
	Matches int
	// Reason is why it lost; "" for the winner.
	Reason locator.Reason
	// Nearest are the nearest accessible names of the candidate's role in
	// the searched document, nearest first, when the candidate matched
	// nothing and the driver can list them ([NearestNamer]).
	Nearest []locator.NearName
	// NearestNote says why Nearest is empty on a miss, when it is.
	NearestNote string
}

// Actionability is the actionability check an element failed. Box and
// the viewport are in top-level CSS pixels.
type Actionability struct {
	// Check is the check that failed last: "visible", "enabled",
	// "editable", "stable", "in_viewport" or "receives_events" (the
	// browser driver's names).
	Check string
	// Detail says what the check saw ("disabled", "covered by <header>").
	Detail string
	// Cover describes the element on top of the click point, if any.
	Cover string
	// AtX, AtY are the hit-tested click point; HasPoint says whether
	// there was one.
	AtX, AtY float64
	HasPoint bool
	// X, Y, W, H are the element's last measured box.
	X, Y, W, H float64
	// ViewportW and ViewportH are the viewport's size.
	ViewportW, ViewportH float64
}

// ActionabilityError is implemented by a driver's error for an element
// that never became interactable (browser's *NotInteractableError). The
// runtime copies its [Actionability] into the [Cause].
type ActionabilityError interface {
	error
	Actionability() Actionability
}

// NearestNamer is an optional [Driver] extension: a driver that can list
// the accessible names of a role candidate's role in a scope (the browser
// driver asks the browser's accessibility tree) implements it, and the
// runtime then lists the nearest names in the [Cause] of a miss. It is
// called only after a locator has missed, bounded by [CauseTimeout].
type NearestNamer interface {
	// NearestNames returns at most n names of elements with the role of
	// c that a Find of a role candidate could match (visible ones), ranked
	// by [locator.NearestNames] against c.Name.
	NearestNames(ctx context.Context, scope Scope, root Element, c locator.Candidate, n int) ([]locator.NearName, error)
}

// String renders the cause on one line, at most [MaxCauseLen] bytes.
func (c *Cause) String() string {
	if c == nil {
		return ""
	}
	var b strings.Builder
	b.WriteString("action ")
	b.WriteString(c.Action)
	if c.Field != "" {
		b.WriteString(" field ")
		b.WriteString(c.Field)
	}
	if len(c.Frame) > 0 {
		b.WriteString(" in frame ")
		b.WriteString(strings.Join(c.Frame, " > "))
	} else {
		b.WriteString(" in the top document")
	}
	if c.FrameProblem != "" {
		b.WriteString(": ")
		b.WriteString(c.FrameProblem)
	}
	for _, cc := range c.Candidates {
		fmt.Fprintf(&b, "; candidate %d %s: ", cc.Index, cc.Locator)
		switch cc.Reason {
		case "":
			b.WriteString("matched")
		case locator.ReasonNoMatch:
			b.WriteString("no match")
		default:
			b.WriteString(string(cc.Reason))
		}
		if cc.Reason != locator.ReasonNoMatch {
			fmt.Fprintf(&b, " (%d)", cc.Matches)
		}
		if len(cc.Nearest) > 0 {
			b.WriteString("; nearest names: ")
			for i, n := range cc.Nearest {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString(n.String())
			}
		} else if cc.NearestNote != "" {
			b.WriteString(" (")
			b.WriteString(cc.NearestNote)
			b.WriteString(")")
		}
	}
	if a := c.Actionability; a != nil {
		fmt.Fprintf(&b, "; not interactable: %s check: %s", a.Check, a.Detail)
		if a.HasPoint {
			fmt.Fprintf(&b, " at (%s,%s)", num(a.AtX), num(a.AtY))
		}
		fmt.Fprintf(&b, "; box {x:%s y:%s w:%s h:%s}; viewport %sx%s",
			num(a.X), num(a.Y), num(a.W), num(a.H), num(a.ViewportW), num(a.ViewportH))
	}
	s := b.String()
	if len(s) > MaxCauseLen {
		cut := MaxCauseLen - len("…")
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func num(f float64) string {
	return strconv.FormatFloat(math.Round(f*10)/10, 'f', -1, 64)
}

// sanitizer cleans texts for a cause: it cuts them, and replaces input
// values, identifiers and secrets with the redaction marker.
type sanitizer struct{ values []string }

func (r *run) sanitizer() sanitizer {
	var s sanitizer
	s.values = append(s.values, r.secrets.list()...)
	for _, v := range r.vals {
		// Very short values would blank out ordinary words; they cannot
		// carry much either.
		if v.supplied && utf8.RuneCountInString(strings.TrimSpace(v.text)) >= 3 {
			s.values = append(s.values, strings.TrimSpace(v.text))
		}
	}
	return s
}

func (s sanitizer) clean(t string) string {
	for _, v := range s.values {
		if strings.Contains(strings.ToLower(t), strings.ToLower(v)) {
			t = replaceFold(t, v, redact.Marker)
		}
	}
	if _, secret := redact.FindSecret(t); secret {
		return redact.Marker
	}
	t, _ = redact.Identifiers(t)
	if utf8.RuneCountInString(t) > MaxCauseTextRunes {
		t = string([]rune(t)[:MaxCauseTextRunes-1]) + "…"
	}
	return t
}

// replaceFold replaces every case-insensitive occurrence of old in s.
func replaceFold(s, old, repl string) string {
	ls, lo := strings.ToLower(s), strings.ToLower(old)
	if len(ls) != len(s) || lo == "" {
		// Lowering changed byte lengths: fall back to the exact form.
		return strings.ReplaceAll(s, old, repl)
	}
	var b strings.Builder
	for {
		i := strings.Index(ls, lo)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		b.WriteString(repl)
		s, ls = s[i+len(old):], ls[i+len(lo):]
	}
}

// candidatesOf returns the locator an action (field "") or one of its
// extraction fields ran with.
func (r *run) candidatesOf(a *capability.Action, field string) []locator.Candidate {
	if field == "" {
		return r.actionCands(a)
	}
	if a.Extract != nil {
		for i := range a.Extract.Fields {
			if f := &a.Extract.Fields[i]; f.Name == field {
				return r.fieldCands(a, f)
			}
		}
	}
	return nil
}

// missCause explains a locator that never resolved uniquely.
func (r *run) missCause(a *capability.Action, field string, tried []locator.Attempt, lastErr error) *Cause {
	san := r.sanitizer()
	c := &Cause{Action: a.ID, Field: field, Frame: r.frameNames(san)}
	switch {
	case errors.Is(lastErr, ErrFrameNotFound):
		c.FrameProblem = "frame_not_found"
	case errors.Is(lastErr, ErrFrameAmbiguous):
		c.FrameProblem = "frame_ambiguous"
	}
	cands := r.candidatesOf(a, field)
	namer, canName := r.drv.(NearestNamer)
	for _, t := range tried {
		cc := CandidateCause{Index: t.Index, Matches: t.Matches, Reason: t.Reason}
		if t.Index < 0 || t.Index >= len(cands) {
			c.Candidates = append(c.Candidates, cc)
			continue
		}
		cand := cands[t.Index]
		cc.Locator = san.clean(cand.String())
		if t.Reason == locator.ReasonNoMatch && c.FrameProblem == "" {
			switch {
			case cand.Strategy != locator.Role || cand.Name == "":
				cc.NearestNote = "nearest names are listed for named role candidates only"
			case strings.Contains(cand.Name, "{{"):
				cc.NearestNote = "nearest names are not listed for a name built from inputs"
			case field != "":
				cc.NearestNote = "nearest names are not listed for extraction fields"
			case !canName:
				cc.NearestNote = "the driver cannot list names"
			default:
				cc.Nearest, cc.NearestNote = r.nearest(namer, cand, san)
			}
		}
		c.Candidates = append(c.Candidates, cc)
	}
	return c
}

// nearest asks the driver for the nearest names, bounded by CauseTimeout.
func (r *run) nearest(namer NearestNamer, cand locator.Candidate, san sanitizer) ([]locator.NearName, string) {
	if r.ctx.Err() != nil {
		return nil, "the run ended before names could be listed"
	}
	ctx, cancel := context.WithTimeout(r.ctx, CauseTimeout)
	defer cancel()
	scope, ferr, st := r.frameScope(ctx)
	if st != nil || ferr != nil {
		return nil, "the frame did not resolve"
	}
	names, err := namer.NearestNames(ctx, scope, nil, cand, MaxCauseNames)
	if err != nil {
		return nil, "names could not be listed"
	}
	out := make([]locator.NearName, 0, min(len(names), MaxCauseNames))
	for _, n := range names {
		if len(out) == MaxCauseNames {
			break
		}
		n.Name = san.clean(n.Name)
		n.Diffs = slices.Clone(n.Diffs)
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, "no element of that role is visible"
	}
	return out, ""
}

// frameNames is the running milestone's frame path, sanitized.
func (r *run) frameNames(san sanitizer) []string {
	var out []string
	for _, s := range r.frame {
		out = append(out, san.clean(s))
	}
	return out
}

// actCause explains an act whose element never became interactable, when
// the driver said why.
func (r *run) actCause(a *capability.Action, out *ActionOutcome, err error) *Cause {
	var ae ActionabilityError
	if !errors.As(err, &ae) {
		return nil
	}
	san := r.sanitizer()
	c := &Cause{Action: a.ID, Frame: r.frameNames(san)}
	if i := out.LocatorIndex; i >= 0 {
		if cands := r.actionCands(a); i < len(cands) {
			c.Candidates = append(c.Candidates, CandidateCause{Index: i, Locator: san.clean(cands[i].String()), Matches: 1})
		}
	}
	act := ae.Actionability()
	act.Detail = san.clean(act.Detail)
	act.Cover = san.clean(act.Cover)
	c.Actionability = &act
	return c
}

// withCause attaches a cause to a stop that failed the action (not to a
// cancellation or a run timeout, which have their own cause).
func (r *run) withCause(st *stop, c *Cause) *stop {
	if st != nil && c != nil && st.failure != nil && st.failure.Category != receipt.CategoryCanceled && st.failure.Category != receipt.CategoryRunTimeout {
		st.cause = c
	}
	return st
}
