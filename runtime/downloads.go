package runtime

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/download"
	"github.com/vera-run/vera/receipt"
)

// download runs a download action: resolve the element, then either the
// folder route (snapshot with download.Begin, arm, click, require the
// browser's event, verify exactly one new file) or the browser-path route
// (arm, click, require the event, verify the GUID-named file with
// download.VerifyPath). The folder route is used when the driver reports
// DownloadDirectory or WithDownloadDirectory is given; its folder is
// WithDownloadDirectory's, else the driver's DriverInfo.DownloadFolder
// (browser.WithDownloadDirectory in connect mode), else the operator's default
// Downloads folder.
func (r *run) download(m *capability.Milestone, a *capability.Action, timeout time.Duration, as *actState, out *ActionOutcome) *stop {
	el, st := r.locateAction(m, a, timeout, out)
	if st != nil {
		return st
	}
	ctx, cancel := context.WithTimeout(r.ctx, timeout)
	defer cancel()
	folder := r.cfg.downloadDir != "" || r.info.DownloadRoute == DownloadDirectory
	dir := r.cfg.downloadDir
	if dir == "" {
		dir = r.info.DownloadFolder
	}
	dopts := append(append([]download.Option(nil), r.cfg.downloadOpts...), download.WithTimeout(timeout), download.WithLogger(r.log))
	var w *download.Watch
	if folder {
		var err error
		w, err = download.Begin(ctx, dir, dopts...)
		if err != nil {
			if dir == "" {
				// The operator's default Downloads folder: say which
				// option names another one.
				err = fmt.Errorf("%w (the driver reports no download folder: give runtime.WithDownloadDirectory, or browser.WithDownloadDirectory when connecting)", err)
			}
			return r.classify(err, receipt.CategoryDownloadFailed, ReasonDownloadBeginFailed)
		}
		defer w.Close()
	}
	pd, err := r.drv.ArmDownload(ctx)
	if err != nil {
		return r.classify(err, receipt.CategoryDownloadFailed, ReasonDownloadArmFailed)
	}
	defer pd.Close()
	err = r.drv.Act(ctx, el, Act{Kind: ActClick})
	r.touch()
	if err == nil || errors.Is(err, ErrAfterDispatch) {
		as.dispatched = true
	}
	if err != nil && !(errors.Is(err, ErrAfterDispatch) && errors.Is(err, ErrStaleElement) && r.interrupted() == nil) {
		return r.classify(err, receipt.CategoryUIAssertionFailed, ReasonActFailed)
	}
	r.hooks.waitStart(WaitStartInfo{Kind: WaitDownload, Milestone: m.ID, ActionID: a.ID, Timeout: timeout})
	start := time.Now()
	f, st := r.awaitDownload(ctx, pd, w, folder)
	r.hooks.waitDone(WaitDoneInfo{Kind: WaitDownload, Milestone: m.ID, ActionID: a.ID, Satisfied: st == nil, Elapsed: time.Since(start)})
	if st != nil {
		return st
	}
	o := r.outs[a.Output]
	o.files = append(o.files, *f)
	o.produced = true
	as.downloaded = true
	out.Records = 1
	out.Download = &receipt.DownloadProof{Mechanism: f.Mechanism, Evidence: f.Evidence, Bytes: f.Size, SHA256: f.SHA256}
	return nil
}

func (r *run) awaitDownload(ctx context.Context, pd PendingDownload, w *download.Watch, folder bool) (*download.File, *stop) {
	ev, err := pd.Wait(ctx)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && r.interrupted() == nil {
			return nil, r.failed(receipt.CategoryDownloadFailed, downloadReason(download.ReasonEventMissing), "no download event before the action timeout")
		}
		return nil, r.classify(err, receipt.CategoryDownloadFailed, downloadReason(download.ReasonEventMissing))
	}
	switch ev.State {
	case DownloadCompleted:
	case DownloadCanceled:
		return nil, r.failed(receipt.CategoryDownloadFailed, downloadReason(download.ReasonCanceled), "the browser reported the download canceled")
	default:
		return nil, r.failed(receipt.CategoryDownloadFailed, downloadReason(download.ReasonInterrupted), "the browser reported download state "+string(ev.State))
	}
	var f *download.File
	if folder {
		f, err = w.Wait(ctx)
	} else {
		if ev.Path == "" || filepath.Base(ev.Path) != ev.GUID {
			return nil, r.failed(receipt.CategoryDownloadFailed, downloadReason(download.ReasonInvalidRequest), "browser-path download without a GUID-named path")
		}
		f, err = download.VerifyPath(ctx, filepath.Dir(ev.Path), ev.GUID, r.downloadOptions(ctx)...)
	}
	if err != nil {
		return nil, r.classify(err, receipt.CategoryDownloadFailed, ReasonDownloadFailed)
	}
	return f, nil
}

// downloadOptions are the verifier options for the remaining time of ctx.
func (r *run) downloadOptions(ctx context.Context) []download.Option {
	opts := append([]download.Option(nil), r.cfg.downloadOpts...)
	if dl, ok := ctx.Deadline(); ok {
		// At least 1ns: a deadline already passed is the verifier's timeout
		// (ctx's timer may not have fired yet), never a bad option.
		opts = append(opts, download.WithTimeout(max(time.Until(dl), time.Nanosecond)))
	}
	return append(opts, download.WithLogger(r.log))
}
