package download

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"
)

// VerifyPath verifies the file a provider-owned browser saved for the
// download with the given GUID. The driver set the browser's download
// behavior to "allowAndName" with dir as the download path, so Chrome saves
// the file named exactly by its GUID directly inside dir; the driver calls
// VerifyPath after the browser reported the download completed.
//
// The entry dir/guid must be a regular file (not a symlink or anything else)
// whose identity (device, inode, size, mtime) stays unchanged for the settle
// window; it is then hashed and its identity rechecked. A GUID that is not
// 1 to [MaxGUIDLength] ASCII letters, digits, '-' or '_' fails with
// [ReasonInvalidRequest], as does an empty dir (there is no default folder
// for this route). No lock is taken: the GUID, not directory correlation,
// attributes the file. A download the browser reported as canceled is not
// verified: the caller reports it as [ErrCanceled].
func VerifyPath(ctx context.Context, dir, guid string, opts ...Option) (*File, error) {
	const op = "verify"
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
		return nil, newError(ReasonInvalidRequest, op, errors.New("empty download directory"))
	}
	if !validGUID(guid) {
		return nil, newError(ReasonInvalidRequest, op, fmt.Errorf("invalid download GUID %q", guid))
	}
	f, err := openFolder(op, dir)
	if err != nil {
		return nil, err
	}
	defer f.close()

	log := o.logger
	start := time.Now()
	deadline := start.Add(o.timeout)
	var (
		last        identity
		seen        bool
		stableSince time.Time
	)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil, newError(ReasonInterrupted, op, ctx.Err())
		case <-timer.C:
		}
		now := time.Now()
		if err := f.check(op); err != nil {
			return nil, err
		}
		fi, err := f.root.Lstat(guid)
		switch {
		case isNotExist(err):
			seen = false
		case err != nil:
			return nil, newError(ReasonFolderUnavailable, op, err)
		default:
			id := identityOf(fi)
			if !id.regular() {
				return nil, newError(ReasonNotRegular, op, fmt.Errorf("%s: not a regular file (%s)", filepath.Join(f.path, guid), id.mode.Type()))
			}
			if !seen || id != last {
				last, seen, stableSince = id, true, now
			}
			if now.Sub(stableSince) >= o.settle {
				file, err := hashFile(ctx, nil, f, guid, id, &o, MechanismBrowserPath, EvidenceBrowserPathBytes)
				if err != nil {
					log.Debug("browser download verification failed", "reason", ReasonOf(err), "detail", detailOf(err))
					return nil, err
				}
				log.Debug("browser download verified", "file", file.Path, "size", file.Size, "sha256", file.SHA256, "elapsed", time.Since(start))
				return file, nil
			}
		}
		if !now.Before(deadline) {
			if seen {
				return nil, newError(ReasonTimeout, op, fmt.Errorf("%s: file did not settle within %s", filepath.Join(f.path, guid), o.timeout))
			}
			return nil, newError(ReasonTimeout, op, fmt.Errorf("%s: file not present within %s", filepath.Join(f.path, guid), o.timeout))
		}
		timer.Reset(min(o.poll, time.Until(deadline)))
	}
}
