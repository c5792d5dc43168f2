package runtimetest

import (
	"context"
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/vera-run/vera/runtime"
)

var _ runtime.Capturer = (*Driver)(nil)

// StartCapture implements [runtime.Capturer]. The fake has no page
// events (no console, network or targets), so a step's event list is
// always empty and captured.
func (d *Driver) StartCapture(ctx context.Context) error {
	if err := d.enter(ctx); err != nil {
		return err
	}
	defer d.mu.Unlock()
	d.capturing = true
	return nil
}

// StopCapture implements [runtime.Capturer]; it is idempotent.
func (d *Driver) StopCapture(ctx context.Context) error {
	if ctx == nil {
		return fmt.Errorf("runtimetest: %w: nil context", runtime.ErrInvalidArgument)
	}
	d.mu.Lock()
	d.capturing = false
	d.mu.Unlock()
	return nil
}

// Snapshot implements [runtime.Capturer] over the fixture: the DOM is the
// top-level document's tree serialized as HTML (attributes sorted, form
// values as a value attribute), storage is empty (the fake has none).
// The fake renders no pixels and computes no accessibility tree or
// history: those sections fail with [runtime.ErrUnsupported], so the
// runtime records them missing, never invented.
func (d *Driver) Snapshot(ctx context.Context, req runtime.SnapshotRequest) (*runtime.Snapshot, error) {
	if err := d.enter(ctx); err != nil {
		return nil, err
	}
	defer d.mu.Unlock()
	if !d.capturing {
		return nil, fmt.Errorf("runtimetest: %w: capture not started", runtime.ErrInvalidArgument)
	}
	unsupported := fmt.Errorf("runtimetest: %w", runtime.ErrUnsupported)
	s := &runtime.Snapshot{Storage: []runtime.StorageItem{}}
	if req.Screenshot {
		s.ScreenshotErr = unsupported
	}
	if req.Accessibility {
		s.AccessibilityErr = unsupported
	}
	if req.History {
		s.HistoryErr = unsupported
	}
	if req.DOM {
		var b strings.Builder
		serialize(&b, d.top.root)
		s.DOM = b.String()
	}
	return s, nil
}

// serialize writes e as HTML.
func serialize(b *strings.Builder, e *elem) {
	if e == nil {
		return
	}
	b.WriteString("<" + e.tag)
	names := make([]string, 0, len(e.attrs))
	for n := range e.attrs {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		b.WriteString(" " + n + `="` + html.EscapeString(e.attrs[n]) + `"`)
	}
	if e.value != "" {
		b.WriteString(` value="` + html.EscapeString(e.value) + `"`)
	}
	b.WriteString(">" + html.EscapeString(e.text))
	for _, c := range e.children {
		serialize(b, c)
	}
	b.WriteString("</" + e.tag + ">")
}
