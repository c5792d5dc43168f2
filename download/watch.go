package download

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/gofrs/flock"
)

// Watch is one armed directory observation: the folder's lock is held and
// its entries were snapshotted by [Begin]. Call [Watch.Wait] once after the
// browser's download event fired and the click happened, then [Watch.Close].
// Close may be called from another goroutine to abort a running Wait.
type Watch struct {
	f    *folder
	lock *flock.Flock
	o    options

	pre         map[string]preEntry // snapshot, ignored names excluded
	prePartials []string            // names of pre-existing partials
	preByID     map[identity]string // pre-existing regular files by identity
	sweepEvery  int                 // full identity sweep cadence, in polls

	done      chan struct{}
	closeOnce sync.Once
	closeErr  error

	mu     sync.Mutex // held by Wait while it runs and by Close's teardown
	used   bool
	closed bool
}

type preEntry struct {
	id      identity
	partial bool
}

// Begin takes the folder's advisory lock ([LockFileName] inside dir) and
// snapshots the entries directly inside dir. An empty dir selects
// [DefaultDirectory].
//
// Begin blocks while another cooperating Watch (in this or another process)
// holds the lock, until ctx ends ([ReasonInterrupted]) or the lock timeout
// passes ([ReasonLocked]). A missing, unreadable or non-directory dir fails
// with [ReasonFolderUnavailable].
func Begin(ctx context.Context, dir string, opts ...Option) (*Watch, error) {
	const op = "begin"
	o := buildOptions(opts)
	if ctx == nil {
		return nil, newError(ReasonInvalidRequest, op, errNilContext)
	}
	if o.err != nil {
		return nil, newError(ReasonInvalidRequest, op, o.err)
	}
	if err := ctx.Err(); err != nil {
		return nil, newError(ReasonInterrupted, op, err)
	}
	if dir == "" {
		d, err := DefaultDirectory()
		if err != nil {
			return nil, err
		}
		dir = d
	}
	f, err := openFolder(op, dir)
	if err != nil {
		return nil, err
	}
	lk := flock.New(filepath.Join(f.path, LockFileName), flock.SetFlag(lockFlags), flock.SetPermissions(0o600))
	if err := acquire(ctx, lk, &o); err != nil {
		_ = f.close()
		return nil, err
	}
	w := &Watch{f: f, lock: lk, o: o, done: make(chan struct{})}
	if err := w.snapshot(); err != nil {
		_ = lk.Close()
		_ = f.close()
		return nil, err
	}
	o.logger.Debug("download watch armed", "dir", f.path, "entries", len(w.pre), "partials", len(w.prePartials))
	return w, nil
}

func acquire(ctx context.Context, lk *flock.Flock, o *options) error {
	const op = "lock"
	lctx, cancel := context.WithTimeout(ctx, o.lockTimeout)
	defer cancel()
	ok, err := lk.TryLockContext(lctx, o.poll)
	if ok && err == nil {
		return nil
	}
	switch {
	case ctx.Err() != nil:
		return newError(ReasonInterrupted, op, ctx.Err())
	case lctx.Err() != nil:
		return newError(ReasonLocked, op, fmt.Errorf("lock %s not acquired within %s", lk.Path(), o.lockTimeout))
	case err != nil:
		return newError(ReasonFolderUnavailable, op, err)
	default:
		return newError(ReasonLocked, op, fmt.Errorf("lock %s not acquired", lk.Path()))
	}
}

func (w *Watch) snapshot() error {
	const op = "begin"
	names, err := w.f.names(op)
	if err != nil {
		return err
	}
	w.pre = make(map[string]preEntry, len(names))
	w.preByID = make(map[identity]string)
	for _, name := range names {
		if isIgnored(name) {
			continue
		}
		fi, err := w.f.root.Lstat(name)
		if isNotExist(err) {
			continue
		}
		if err != nil {
			return newError(ReasonFolderUnavailable, op, err)
		}
		e := preEntry{id: identityOf(fi), partial: IsPartial(name)}
		w.pre[name] = e
		if e.partial {
			w.prePartials = append(w.prePartials, name)
		} else if e.id.regular() && e.id.hasInode() {
			w.preByID[e.id] = name
		}
	}
	slices.Sort(w.prePartials)
	// Sweeping every pre-existing entry costs one lstat each; large folders
	// are swept every few polls and always right before a decision.
	w.sweepEvery = min(1+(len(w.pre)-len(w.prePartials))/512, 20)
	return w.f.check(op)
}

// Dir returns the absolute path of the observed folder (local detail).
func (w *Watch) Dir() string {
	if w == nil || w.f == nil {
		return ""
	}
	return w.f.path
}

// observation is one poll's view of the entries that were not in the
// snapshot.
type observation struct {
	entries  map[string]identity // every new entry, partials included
	regular  []string            // new regular, non-partial files
	other    []string            // new non-regular, non-partial entries
	partials []string            // new partial downloads
	swept    bool                // pre-existing identities were checked
}

func (a *observation) sameAs(b *observation) bool {
	return b != nil && maps.Equal(a.entries, b.entries)
}

// observe takes one look at the folder. Violations that make attribution
// impossible whatever happens next (folder gone, overwrite, a pre-existing
// partial vanished, a pre-existing file renamed) are returned as errors; a
// folder problem takes precedence over the others.
func (w *Watch) observe(sweep bool) (*observation, error) {
	const op = "wait"
	if err := w.f.check(op); err != nil {
		return nil, err
	}
	names, err := w.f.names(op)
	if err != nil {
		return nil, err
	}
	obs := &observation{entries: make(map[string]identity), swept: sweep}
	present := make(map[string]struct{}, len(names))
	var violation error
	note := func(err error) {
		if violation == nil {
			violation = err
		}
	}
	for _, name := range names {
		if isIgnored(name) {
			continue
		}
		present[name] = struct{}{}
		if pre, ok := w.pre[name]; ok {
			if pre.partial || !sweep {
				continue // pre-existing partials may change freely
			}
			fi, err := w.f.root.Lstat(name)
			if isNotExist(err) {
				continue // deleted pre-existing file: tolerated
			}
			if err != nil {
				note(newError(ReasonFolderUnavailable, op, err))
				continue
			}
			if changed(pre.id, identityOf(fi)) {
				note(newError(ReasonOverwrite, op, fmt.Errorf("%s: pre-existing entry changed identity", filepath.Join(w.f.path, name))))
			}
			continue
		}
		fi, err := w.f.root.Lstat(name)
		if isNotExist(err) {
			continue // appeared and vanished between listing and lstat
		}
		if err != nil {
			note(newError(ReasonFolderUnavailable, op, err))
			continue
		}
		id := identityOf(fi)
		obs.entries[name] = id
		switch {
		case IsPartial(name):
			obs.partials = append(obs.partials, name)
		case id.regular():
			obs.regular = append(obs.regular, name)
			if old, ok := w.preByID[id]; ok {
				note(newError(ReasonAmbiguous, op, fmt.Errorf("%s: same file as pre-existing %q", filepath.Join(w.f.path, name), old)))
			}
		default:
			obs.other = append(obs.other, name)
		}
	}
	for _, name := range w.prePartials {
		if _, ok := present[name]; !ok {
			note(newError(ReasonAmbiguous, op, fmt.Errorf("%s: pre-existing partial download disappeared", filepath.Join(w.f.path, name))))
			break
		}
	}
	// A folder removed while listing shows up as vanished entries; report
	// the folder, not the symptom.
	if err := w.f.check(op); err != nil {
		return nil, err
	}
	if violation != nil {
		return nil, violation
	}
	slices.Sort(obs.regular)
	slices.Sort(obs.other)
	slices.Sort(obs.partials)
	return obs, nil
}

// changed reports whether a pre-existing, non-partial entry was replaced or
// rewritten. Directories only count when replaced: their own mtime changes
// with their contents, which are out of scope.
func changed(pre, now identity) bool {
	if pre.mode.IsDir() {
		return !pre.sameObject(now)
	}
	return !pre.sameObject(now) || pre.size != now.size || pre.mtime != now.mtime
}

// Wait observes the folder until exactly one new regular file is present, no
// new partial download remains, and the set of new entries with their
// identities (device, inode, size, mtime) stayed unchanged for the settle
// window. It then streams the file through SHA-256 and rechecks its identity.
//
// Wait may be called once per Watch and not after Close
// ([ReasonInvalidRequest]). It returns within one poll interval of
// ctx ending or Close being called ([ReasonInterrupted]). The timeout
// ([WithTimeout]) starts when Wait is called and bounds the observation, not
// the hashing, which is bounded by ctx and [WithMaxBytes]. Every failure is
// an *[Error] whose Reason is one of [Reasons]. A violation seen while
// observing (a vanished pre-existing partial, an overwrite) is reported
// only when the folder is still there one poll interval later; a folder
// removed or replaced meanwhile is reported as [ReasonFolderUnavailable],
// since a removal unlinks the entries before the folder.
func (w *Watch) Wait(ctx context.Context) (*File, error) {
	const op = "wait"
	if w == nil || w.f == nil {
		return nil, newError(ReasonInvalidRequest, op, errors.New("nil Watch"))
	}
	if ctx == nil {
		return nil, newError(ReasonInvalidRequest, op, errNilContext)
	}
	select {
	case <-w.done:
		return nil, newError(ReasonInvalidRequest, op, errClosed)
	default:
	}
	if err := ctx.Err(); err != nil {
		return nil, newError(ReasonInterrupted, op, err)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil, newError(ReasonInvalidRequest, op, errClosed)
	}
	if w.used {
		return nil, newError(ReasonInvalidRequest, op, errors.New("Wait already called"))
	}
	w.used = true

	log := w.o.logger
	start := time.Now()
	deadline := start.Add(w.o.timeout)
	var (
		last        *observation
		stableSince time.Time
		polls       int
	)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, newError(ReasonInterrupted, op, ctx.Err())
		case <-w.done:
			return nil, newError(ReasonInterrupted, op, errClosed)
		case <-timer.C:
		}
		now := time.Now()
		obs, err := w.observe(polls%w.sweepEvery == 0)
		polls++
		if err != nil {
			if ReasonOf(err) != ReasonFolderUnavailable {
				// A folder being removed shows its entries vanishing
				// first (os.RemoveAll unlinks them before the folder
				// itself), which reads as a vanished pre-existing
				// partial: the violation stands only when the folder is
				// still there one poll later, else the folder is the
				// answer.
				select {
				case <-ctx.Done():
					return nil, newError(ReasonInterrupted, op, ctx.Err())
				case <-w.done:
					return nil, newError(ReasonInterrupted, op, errClosed)
				case <-time.After(w.o.poll):
				}
				if ferr := w.f.check(op); ferr != nil {
					err = ferr
				}
			}
			log.Debug("download attribution failed", "reason", ReasonOf(err), "detail", detailOf(err))
			return nil, err
		}
		if !obs.sameAs(last) {
			last, stableSince = obs, now
		}
		if len(obs.partials) == 0 && len(obs.entries) > 0 && now.Sub(stableSince) >= w.o.settle {
			if !obs.swept {
				again, err := w.observe(true)
				if err != nil {
					return nil, err
				}
				if !again.sameAs(obs) {
					last, stableSince = again, time.Now()
					timer.Reset(w.o.poll)
					continue
				}
			}
			switch {
			case len(obs.other) > 0:
				return nil, newError(ReasonNotRegular, op, fmt.Errorf("new non-regular entries in %s: %q", w.f.path, obs.other))
			case len(obs.regular) > 1:
				return nil, newError(ReasonConcurrentArrival, op, fmt.Errorf("new files in %s: %q", w.f.path, obs.regular))
			}
			name := obs.regular[0]
			log.Debug("download settled", "file", filepath.Join(w.f.path, name), "size", obs.entries[name].size, "waited", time.Since(start))
			file, err := hashFile(ctx, w.done, w.f, name, obs.entries[name], &w.o, MechanismDirectory, EvidenceDirectoryBytes)
			if err != nil {
				log.Debug("download verification failed", "reason", ReasonOf(err), "detail", detailOf(err))
				return nil, err
			}
			log.Debug("download verified", "file", file.Path, "size", file.Size, "sha256", file.SHA256, "elapsed", time.Since(start))
			return file, nil
		}
		if !now.Before(deadline) {
			return nil, newError(ReasonTimeout, op, timeoutDetail(w.f.path, obs, w.o.timeout))
		}
		timer.Reset(min(w.o.poll, time.Until(deadline)))
	}
}

func timeoutDetail(dir string, obs *observation, d time.Duration) error {
	switch {
	case len(obs.partials) > 0:
		return fmt.Errorf("%s: partial download %q did not complete within %s", dir, obs.partials, d)
	case len(obs.entries) == 0:
		return fmt.Errorf("%s: no new file within %s", dir, d)
	default:
		return fmt.Errorf("%s: new entries did not settle within %s", dir, d)
	}
}

// Close aborts a running Wait (within one poll interval), then releases the
// directory lock. The lock file itself stays in the folder. Close is
// idempotent: only the first call can return an error.
func (w *Watch) Close() error {
	if w == nil || w.f == nil {
		return nil
	}
	first := false
	w.closeOnce.Do(func() {
		first = true
		close(w.done)
		w.mu.Lock()
		defer w.mu.Unlock()
		w.closed = true
		if err := errors.Join(w.lock.Close(), w.f.close()); err != nil {
			w.closeErr = newError(ReasonFolderUnavailable, "close", err)
		}
	})
	if !first {
		return nil
	}
	return w.closeErr
}
