package browser

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"

	"github.com/go-rod/rod/lib/proto"
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
// browser the browser's own settings decide where it goes and the event
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
	defer d.mu.Unlock()
	for _, p := range d.pendings {
		p.mu.Lock()
		match := p.begun && p.guid == e.GUID
		name := p.name
		p.mu.Unlock()
		if !match {
			continue
		}
		ev := runtime.DownloadEvent{GUID: e.GUID, SuggestedName: name, State: state}
		if d.info.DownloadRoute == runtime.DownloadBrowserPath && state == runtime.DownloadCompleted {
			ev.Path = filepath.Join(d.downloadDir, e.GUID)
		}
		p.finish(ev)
		return
	}
}
