package discovery

import (
	"context"
	"errors"

	"github.com/vera-run/vera/locator"
)

// Page is the live page discovery observes. The browser driver
// (runtime/browser) implements it; tests may implement it with a fake.
//
// Snapshot takes ONE read-only snapshot of the page's interactive controls
// and state markers, within limits. An implementation must not act on the
// page: no focus, no scroll, no click, no event dispatch, no DOM write, no
// navigation. It must never return form values, table rows or cells, HTML,
// screenshots or input events; it returns only the fields of [RawSnapshot].
// Everything it returns is raw: [Observe] redacts it before recording.
type Page interface {
	Snapshot(ctx context.Context, limits SnapshotLimits) (*RawSnapshot, error)
}

// SnapshotLimits bounds one snapshot. An implementation must honour every
// non-zero limit: it returns at most MaxControls controls (reporting the
// number it found in [RawSnapshot.TotalControls]), truncates every string
// to MaxStringLen runes, observes at most MaxFrames documents (the
// top-level one included) and descends at most MaxFrameDepth nested frames.
type SnapshotLimits struct {
	MaxControls   int
	MaxStringLen  int
	MaxFrames     int
	MaxFrameDepth int
}

// RawSnapshot is one unredacted snapshot as a [Page] returns it.
type RawSnapshot struct {
	// Origin is the top-level document's origin (scheme://host[:port]).
	Origin string
	// Path is the top-level URL's path, without query or fragment. Observe
	// strips anything after a '?' or '#' again.
	Path string
	// Frames lists the observed documents; Frames[0] is the top-level one.
	Frames []RawFrame
	// Controls are the observed controls and state markers, in document
	// order within each frame. Each names its frame by index into Frames.
	Controls []RawControl
	// TotalControls is the number of controls found before MaxControls was
	// applied; it is at least len(Controls).
	TotalControls int
	// FramesSkipped counts frames not observed: beyond the limits, without
	// a unique selector, or unreachable.
	FramesSkipped int
}

// RawFrame is one observed document.
type RawFrame struct {
	// Path is the frame selectors from the top-level document to this
	// frame, outermost first (empty for the top-level document). Each is a
	// CSS selector that matches exactly one iframe in its parent document,
	// as runtime.frame_selectors requires.
	Path []string
	// Origins is the origin of every document on the path, the top-level
	// document first and this frame's last: len(Origins) == len(Path)+1.
	// An opaque origin is "null".
	Origins []string
}

// RawControl is one control or state marker as the page reports it.
type RawControl struct {
	// Frame is the index of the control's document in RawSnapshot.Frames.
	Frame int
	// Role is the ARIA role (explicit or implicit), such as "button".
	Role string
	// Name is the accessible name.
	Name string
	// Label is the text of the control's label elements, if any.
	Label string
	// Placeholder is the placeholder attribute, if any.
	Placeholder string
	// TestID is the data-testid attribute, if any.
	TestID string
	// Text is the bounded visible text of a nameless live region (role
	// status or alert), which is how such markers are located; empty for
	// every other role.
	Text string
	// Visible reports whether the control is rendered and visible.
	Visible bool
	// Disabled reports whether the control is disabled.
	Disabled bool
	// Checked is "true", "false" or "mixed" for checkable controls, else "".
	Checked string
	// Expanded is "true" or "false" when the control declares it, else "".
	Expanded string
}

// ActKind is an exploration action an [Actor] performs.
type ActKind string

// The exploration actions. Exploration never presses keys, navigates,
// downloads or submits by itself: those are left to the operator.
const (
	ActClick   ActKind = "click"
	ActFill    ActKind = "fill"
	ActSelect  ActKind = "select"
	ActCheck   ActKind = "check"
	ActUncheck ActKind = "uncheck"
)

// Valid reports whether k is a known exploration action.
func (k ActKind) Valid() bool {
	switch k {
	case ActClick, ActFill, ActSelect, ActCheck, ActUncheck:
		return true
	}
	return false
}

// Action is one exploration action: what to do, to which element, found by
// a semantic locator inside a frame path.
type Action struct {
	Kind ActKind
	// Frame is the frame path (runtime.frame_selectors form).
	Frame []string
	// Locator finds the element; it is always a semantic candidate.
	Locator locator.Candidate
	// Value is the text to fill or the option to select.
	Value string
}

// ErrPageBusy is what a [Page] wraps when it cannot take a snapshot for a
// while through no fault of its own (a native dialog is open). Observe
// counts such failures but never ends the session for them.
var ErrPageBusy = errors.New("discovery: page busy")

// ErrActTarget is what an [Actor] wraps when the locator does not match
// exactly one element (nothing is done then).
var ErrActTarget = errors.New("discovery: the locator does not match exactly one element")

// Actor is implemented by pages that can act for the explorer in the
// autonomous and hybrid modes. Act must resolve the locator uniquely inside
// the frame path and act on that element only; it fails (without acting)
// when the locator matches no element or several. Discovery calls Act only
// after its own policy accepted the step (see [CheckStep]).
type Actor interface {
	Act(ctx context.Context, a Action) error
}
