package browser

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/runtime"
)

// pendingDownload is an armed listener. The event loop attributes to it
// the first download that begins in one of the page's frames after it was
// armed, by GUID, never "the last download that started".
type pendingDownload struct {
	d *Driver

	mu       sync.Mutex
	guid     string
	name     string
	begun    bool
	done     chan struct{}
	doneOnce sync.Once
	ev       runtime.DownloadEvent
	err      error
	closed   bool
}

// ArmDownload starts listening for the next download of this page's
// frames. Call it before the click that triggers the download. On a
// launched browser the file lands in the driver's download folder, named
// by the download's GUID ([runtime.DownloadBrowserPath]); on a connected
// browser the browser's own settings decide where it goes (or
// [WithDownloadDirectory]: that folder, under the suggested name) and the event
// carries no path ([runtime.DownloadDirectory]).
func (d *Driver) ArmDownload(ctx context.Context) (runtime.PendingDownload, error) {
	_, done, err := d.begin(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	p := &pendingDownload{d: d, done: make(chan struct{})}
	d.mu.Lock()
	d.pendings = append(d.pendings, p)
	d.mu.Unlock()
	return p, nil
}

func (p *pendingDownload) fail(err error) {
	p.doneOnce.Do(func() {
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(p.done)
	})
}

func (p *pendingDownload) finish(ev runtime.DownloadEvent) {
	p.doneOnce.Do(func() {
		p.mu.Lock()
		p.ev = ev
		p.mu.Unlock()
		close(p.done)
	})
}

// Wait blocks until the attributed download completes or is canceled. When
// no download of the page began before ctx ended it fails with
// [runtime.ErrDownloadEventMissing]; when one began but did not finish, it
// fails with ctx's error.
func (p *pendingDownload) Wait(ctx context.Context) (runtime.DownloadEvent, error) {
	if ctx == nil {
		return runtime.DownloadEvent{}, errNilContext
	}
	select {
	case <-p.done:
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.err != nil {
			return runtime.DownloadEvent{}, fmt.Errorf("browser: download: %w", p.err)
		}
		return p.ev, nil
	case <-ctx.Done():
		p.mu.Lock()
		begun := p.begun
		p.mu.Unlock()
		if !begun {
			return runtime.DownloadEvent{}, fmt.Errorf("%w: no download began before the deadline: %w", runtime.ErrDownloadEventMissing, ctx.Err())
		}
		return runtime.DownloadEvent{}, fmt.Errorf("browser: download began but did not finish: %w", ctx.Err())
	}
}

// Close disarms the listener. It is idempotent.
func (p *pendingDownload) Close() error {
	d := p.d
	d.mu.Lock()
	defer d.mu.Unlock()
	p.closed = true
	for i, q := range d.pendings {
		if q == p {
			d.pendings = append(d.pendings[:i], d.pendings[i+1:]...)
			break
		}
	}
	return nil
}

func (d *Driver) onDownloadBegin(e *proto.BrowserDownloadWillBegin) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.frames[e.FrameID] && e.FrameID != proto.PageFrameID(d.pageTarget) {
		return
	}
	for _, p := range d.pendings {
		p.mu.Lock()
		free := !p.begun && !p.closed
		if free {
			p.begun = true
			p.guid = e.GUID
			p.name = e.SuggestedFilename
		}
		p.mu.Unlock()
		if free {
			d.log.Info("download began")
			return
		}
	}
}

func (d *Driver) onDownloadProgress(e *proto.BrowserDownloadProgress) {
	var state runtime.DownloadState
	switch e.State {
	case proto.BrowserDownloadProgressStateCompleted:
		state = runtime.DownloadCompleted
	case proto.BrowserDownloadProgressStateCanceled:
		state = runtime.DownloadCanceled
	default:
		return
	}
	d.mu.Lock()
	var match *pendingDownload
	var name string
	for _, p := range d.pendings {
		p.mu.Lock()
		ok := p.begun && p.guid == e.GUID
		name = p.name
		p.mu.Unlock()
		if ok {
			match = p
			break
		}
	}
	d.mu.Unlock()
	if match == nil {
		return
	}
	ev := runtime.DownloadEvent{GUID: e.GUID, SuggestedName: name, State: state}
	if state == runtime.DownloadCompleted && d.downloadDir != "" {
		if d.info.DownloadRoute == runtime.DownloadBrowserPath {
			ev.Path = filepath.Join(d.downloadDir, e.GUID)
		} else {
			// Connected with WithDownloadDirectory: before the runtime looks at
			// the folder, the GUID-named file gets its name.
			nameDownload(d.downloadDir, e.GUID, name)
		}
	}
	match.finish(ev)
}

// maxNameTries bounds the " (n)" suffixes nameDownload tries.
const maxNameTries = 100

// nameDownload gives a completed download that the browser saved as
// dir/guid the suggested name, or the first free "stem (n).ext" as
// Chrome's own download manager would, and returns the final path. It
// never replaces an entry: it hard-links the new name (which fails when
// the name exists) and then removes the GUID name. When the name is not
// safe (see safeDownloadName), no name is free or the folder does not
// support links, the file keeps its GUID name, which is safe by
// construction.
func nameDownload(dir, guid, suggested string) string {
	src := filepath.Join(dir, guid)
	base := safeDownloadName(suggested)
	if base == "" || !validGUID(guid) {
		return src
	}
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	if stem == "" {
		stem, ext = base, ""
	}
	for i := 0; i < maxNameTries; i++ {
		name := base
		if i > 0 {
			name = fmt.Sprintf("%s (%d)%s", stem, i, ext)
		}
		dst := filepath.Join(dir, name)
		err := os.Link(src, dst)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return src
		}
		if err := os.Remove(src); err != nil {
			// Two names for one file would look like two downloads.
			_ = os.Remove(dst)
			return src
		}
		return dst
	}
	return src
}

// safeDownloadName returns the last element of a browser-suggested file
// name when it can name a plain, visible entry of the folder that the
// download verifier counts: no separators, NUL or colon, no leading dots
// or spaces (stripped), not "." or "..", at most 200 bytes, and not a
// partial-download or operating-system metadata name. Otherwise "".
func safeDownloadName(s string) string {
	s = strings.ReplaceAll(s, "\\", "/")
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	s = strings.TrimLeft(strings.TrimSpace(s), ". ")
	switch {
	case s == "", len(s) > 200, strings.ContainsAny(s, "\x00:"), !utf8.ValidString(s),
		download.IsPartial(s), strings.EqualFold(s, "Thumbs.db"), strings.EqualFold(s, "desktop.ini"):
		return ""
	}
	return s
}

// validGUID reports whether guid is a plain file name: ASCII letters,
// digits, '-' and '_' (Chrome's GUIDs are UUIDs).
func validGUID(guid string) bool {
	if guid == "" || len(guid) > download.MaxGUIDLength {
		return false
	}
	for _, c := range guid {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
