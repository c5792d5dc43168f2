package bundle

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/receipt"
)

// Report is the result of [Verify]: every problem found, filled even when
// verification fails, in the style of golang.org/x/mod/zip.CheckedFiles.
// A bundle verifies when [Report.Err] is nil.
type Report struct {
	// Dir is the bundle directory.
	Dir string `json:"dir"`
	// Lock is the decoded lock, nil when it could not be read or decoded.
	Lock *Lock `json:"lock,omitempty"`
	// LockHash is "sha256:<hex>" of the lock's bytes, when read.
	LockHash string `json:"lock_hash,omitempty"`
	// Valid lists the listed files that passed every check of their own
	// (path, type, size, hash, layout, content), sorted.
	Valid []string `json:"valid"`
	// Unlisted lists entries on disk that the lock does not list, sorted;
	// a directory holding no listed file ends in '/'. They are never read.
	Unlisted []string `json:"unlisted"`
	// Missing lists lock entries without a file on disk, sorted.
	Missing []string `json:"missing"`
	// Mismatched holds files whose size or hash differs from the lock
	// ([ErrMismatch]).
	Mismatched []FileProblem `json:"mismatched"`
	// Unsafe holds unsafe paths ([ErrUnsafePath]) and symbolic links or
	// irregular files ([ErrUnsafeFile]), in the lock or on disk.
	Unsafe []FileProblem `json:"unsafe"`
	// Forbidden holds paths outside the layout and content that must never
	// travel ([ErrForbidden]).
	Forbidden []FileProblem `json:"forbidden"`
	// LockProblems holds problems of the lock document itself ([ErrLock]).
	LockProblems []FileProblem `json:"lock_problems"`
	// Limits holds exceeded limits ([ErrLimit]).
	Limits []FileProblem `json:"limits"`
	// Capability lists the problems of capability.json: parse errors,
	// every validation problem ("path: message [code]"), a state that
	// never travels, an unexpected id or hash ([ErrCapability]).
	Capability []string `json:"capability"`
	// Claim is why the receipts do not support the capability's state
	// (wrapping [ErrClaim] and, when it comes from receipt.CheckClaim, the
	// receipt package's errors), nil when they do.
	Claim error `json:"-"`
	// Verified is the capability parsed from the verified bytes of
	// capability.json, or nil. Trust it only when Err returns nil; it saves
	// re-reading a file that may have changed since.
	Verified *capability.Capability `json:"-"`
}

// Err returns nil when the bundle verifies, else a *[VerifyError] holding
// every problem, usable with errors.Is for each specific sentinel.
func (r *Report) Err() error {
	if r == nil {
		return nil
	}
	var errs []error
	for _, group := range [][]FileProblem{r.LockProblems, r.Limits, r.Unsafe} {
		for _, p := range group {
			errs = append(errs, p)
		}
	}
	for _, p := range r.Missing {
		if p == "" {
			// The directory itself: there is no lock to list anything.
			errs = append(errs, problem(p, ErrMissing, "the bundle directory does not exist"))
			continue
		}
		errs = append(errs, problem(p, ErrMissing, "listed in the lock but absent"))
	}
	for _, p := range r.Unlisted {
		errs = append(errs, problem(p, ErrUnlisted, "present but not listed in the lock"))
	}
	for _, group := range [][]FileProblem{r.Mismatched, r.Forbidden} {
		for _, p := range group {
			errs = append(errs, p)
		}
	}
	for _, c := range r.Capability {
		errs = append(errs, problem(FileCapability, ErrCapability, "%s", c))
	}
	if r.Claim != nil {
		errs = append(errs, r.Claim)
	}
	if len(errs) == 0 {
		return nil
	}
	return &VerifyError{Dir: r.Dir, Problems: errs}
}

// Has reports whether the report holds a problem matching target with
// errors.Is (a specific sentinel such as [ErrMismatch], or an error of
// package receipt inside the claim).
func (r *Report) Has(target error) bool {
	err := r.Err()
	return err != nil && errors.Is(err, target)
}

// Verify checks the bundle in dir and returns a full report, filled even
// on failure. The error is nil exactly when the bundle verifies; otherwise
// it is the report's [Report.Err]. When ctx is canceled, Verify stops and returns the partial
// report with an error wrapping both [ErrVerify] and ctx.Err().
//
// Verify never follows a symbolic link: the directory is listed through an
// [os.Root] and every entry is Lstat'ed; a link or irregular file anywhere
// is [ErrUnsafeFile], and only regular files found by listing are ever
// opened (re-checked component by component and compared with
// [os.SameFile] after opening, without blocking on a FIFO). It then checks:
//
//   - the lock (see [ParseLock]) and that it names the capability in
//     capability.json (id, version, execution hash);
//   - the file set: every entry on disk is the lock, a listed file or a
//     directory of one ([ErrUnlisted]); every entry has a file
//     ([ErrMissing]); every listed path passes [CheckPaths]
//     ([ErrUnsafePath]);
//   - the limits, from declared and Lstat sizes, before reading
//     ([ErrLimit]);
//   - sizes and hashes, streaming each file through a fixed buffer and a
//     reader limited to the declared size plus one ([ErrMismatch]);
//   - the layout and content rules ([ErrForbidden]): only capability.json,
//     README.md and receipts/<hex>.json; no run outputs, run locks or
//     recovery proposals; no HTML, images or screenshots (by extension and
//     by magic number), no browser storage, no credential-shaped string,
//     no URL with a query or session parameter, no embedded data URI, no
//     discovery record or evidence;
//   - the capability: strict parse, every validation rule, a state that
//     travels (authored, discovered or validated_local), the expected id and hash
//     when asked for ([ErrCapability]);
//   - the claim: a validated_local capability's receipts are exactly the
//     two its validation names, each named by its own hash, and
//     receipt.CheckClaim accepts them; a discovered capability carries no
//     receipts ([ErrClaim]).
//
// A nil ctx returns an empty Report for dir and [ErrInvalidArgument],
// without reading anything.
func Verify(ctx context.Context, dir string, opts ...Option) (*Report, error) {
	if ctx == nil {
		return &Report{Dir: dir}, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	return verify(ctx, dir, newConfig(opts))
}

func verify(ctx context.Context, dir string, cfg *config) (*Report, error) {
	v := &verifier{
		ctx: ctx, cfg: cfg,
		rep:      &Report{Dir: dir},
		disk:     map[string]diskEntry{},
		seen:     map[string]bool{},
		bad:      map[string]bool{},
		verified: map[string][]byte{},
	}
	v.run()
	rep := v.rep
	slices.Sort(rep.Valid)
	slices.Sort(rep.Unlisted)
	slices.Sort(rep.Missing)
	if err := ctx.Err(); err != nil {
		return rep, fmt.Errorf("%w: canceled: %w", ErrVerify, err)
	}
	err := rep.Err()
	if err != nil {
		cfg.logger.Warn("bundle: verification failed", "dir", dir, "problems", len(err.(*VerifyError).Problems))
	} else {
		cfg.logger.Debug("bundle: verified", "dir", dir, "files", len(rep.Valid))
	}
	return rep, err
}

type diskEntry struct {
	mode fs.FileMode
	size int64
	info fs.FileInfo
}

type verifier struct {
	ctx  context.Context
	cfg  *config
	rep  *Report
	root *os.Root

	disk      map[string]diskEntry // every entry listed, by path
	truncated bool                 // the listing stopped at MaxFiles
	seen      map[string]bool      // reported problems (dedupe)
	bad       map[string]bool      // paths with a problem of their own
	verified  map[string][]byte    // listed files whose size and hash matched; content for inspected kinds
}

// add files a problem in the report field of its sentinel, once.
func (v *verifier) add(p FileProblem) {
	key := p.Path + "\x00" + string(p.Code) + "\x00" + p.Message
	if v.seen[key] {
		return
	}
	v.seen[key] = true
	v.bad[p.Path] = true
	switch p.Err {
	case ErrMismatch:
		v.rep.Mismatched = append(v.rep.Mismatched, p)
	case ErrUnsafePath, ErrUnsafeFile:
		v.rep.Unsafe = append(v.rep.Unsafe, p)
	case ErrForbidden:
		v.rep.Forbidden = append(v.rep.Forbidden, p)
	case ErrLock:
		v.rep.LockProblems = append(v.rep.LockProblems, p)
	case ErrLimit:
		v.rep.Limits = append(v.rep.Limits, p)
	case ErrCapability:
		v.rep.Capability = append(v.rep.Capability, p.Message)
	case ErrMissing:
		v.rep.Missing = append(v.rep.Missing, p.Path)
	case ErrUnlisted:
		v.rep.Unlisted = append(v.rep.Unlisted, p.Path)
	}
}

func (v *verifier) addf(path string, sentinel error, format string, args ...any) {
	v.add(problem(path, sentinel, format, args...))
}

func (v *verifier) canceled() bool { return v.ctx.Err() != nil }

func (v *verifier) run() {
	fi, err := os.Lstat(v.rep.Dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		v.addf("", ErrMissing, "the bundle directory does not exist")
		return
	case err != nil:
		v.addf("", ErrUnsafeFile, "cannot inspect the bundle directory: %s", errText(err))
		return
	case fi.Mode()&fs.ModeSymlink != 0:
		v.addf("", ErrUnsafeFile, "the bundle directory is a symbolic link (never followed)")
		return
	case !fi.IsDir():
		v.addf("", ErrUnsafeFile, "not a directory")
		return
	}
	root, err := os.OpenRoot(v.rep.Dir)
	if err != nil {
		v.addf("", ErrUnsafeFile, "cannot open the bundle directory: %s", errText(err))
		return
	}
	defer root.Close()
	v.root = root

	v.walk()
	if v.canceled() {
		return
	}
	lock := v.readLock()
	if v.canceled() {
		return
	}
	v.fileSet(lock)
	if lock == nil || v.canceled() {
		return
	}
	for _, f := range lock.Files {
		if v.canceled() {
			return
		}
		v.checkFile(f)
	}
	v.contentRules(lock)
	c := v.checkCapability(lock)
	v.checkClaim(lock, c)
	for _, f := range lock.Files {
		_, ok := v.verified[f.Path]
		switch {
		case ok && !v.bad[f.Path]:
			if !slices.Contains(v.rep.Valid, f.Path) {
				v.rep.Valid = append(v.rep.Valid, f.Path)
			}
		case !ok && !v.bad[f.Path] && !v.canceled():
			// Never reached: every listed file is verified or has a
			// problem. Kept so that no path to a nil error skips a file.
			v.addf(f.Path, ErrMismatch, "not verified")
		}
	}
}

// walk lists the bundle through the root, Lstat'ing every entry, bounded
// by MaxFiles entries and MaxDepth levels.
func (v *verifier) walk() {
	type dir struct {
		path  string
		depth int
		info  fs.FileInfo
	}
	queue := []dir{{path: ".", depth: 0}}
	count := 0
	for len(queue) > 0 {
		if v.canceled() {
			return
		}
		d := queue[0]
		queue = queue[1:]
		f, err := v.root.Open(d.path)
		if err != nil {
			v.addf(relPath(d.path), ErrUnsafeFile, "cannot open directory: %s", errText(err))
			continue
		}
		if d.info != nil {
			if st, err := f.Stat(); err != nil || !os.SameFile(st, d.info) {
				_ = f.Close()
				v.addf(relPath(d.path), ErrUnsafeFile, "directory changed while listing")
				continue
			}
		}
		entries, err := f.ReadDir(MaxFiles + 1 - count)
		_ = f.Close()
		if err != nil && err != io.EOF {
			v.addf(relPath(d.path), ErrUnsafeFile, "cannot list directory: %s", errText(err))
		}
		if count+len(entries) > MaxFiles {
			// Counting stops here. A bounded listing returns entries in
			// the file system's order, so none of this directory's
			// entries is looked at (FORMAT.md 10.5 step 2): the lock and
			// the listed files are then looked up by name.
			v.truncated = true
			v.addf("", ErrLimit, "more than MaxFiles (%d) entries on disk; the listing stopped in %s", MaxFiles, relPath(d.path))
			return
		}
		slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
		for _, e := range entries {
			count++
			p := path.Join(d.path, e.Name())
			fi, err := v.root.Lstat(p)
			if err != nil {
				v.addf(p, ErrUnsafeFile, "cannot inspect: %s", errText(err))
				continue
			}
			v.disk[p] = diskEntry{mode: fi.Mode(), size: fi.Size(), info: fi}
			switch m := fi.Mode(); {
			case m&fs.ModeSymlink != 0:
				v.addf(p, ErrUnsafeFile, "symbolic link (never followed)")
			case m.IsDir():
				if d.depth+1 >= MaxDepth {
					v.addf(p, ErrLimit, "deeper than MaxDepth (%d); not listed", MaxDepth)
					continue
				}
				queue = append(queue, dir{path: p, depth: d.depth + 1, info: fi})
			case !m.IsRegular():
				v.addf(p, ErrUnsafeFile, "irregular file (%s)", fileType(m))
			default:
				if fi.Size() > MaxFileBytes {
					v.addf(p, ErrLimit, "%d bytes on disk, more than MaxFileBytes (%d)", fi.Size(), MaxFileBytes)
				}
			}
		}
	}
}

func relPath(p string) string {
	if p == "." {
		return ""
	}
	return p
}

func fileType(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeIrregular != 0:
		return "irregular"
	}
	return m.Type().String()
}

// readLock reads and parses bundle.lock.json.
func (v *verifier) readLock() *Lock {
	e, ok := v.disk[FileLock]
	if !ok && v.truncated {
		// The listing stopped at MaxFiles (reported) before it reached
		// the lock, which may well be there: look at it directly rather
		// than call a present lock missing.
		if fi, err := v.root.Lstat(FileLock); err == nil {
			e, ok = diskEntry{mode: fi.Mode(), size: fi.Size(), info: fi}, true
			v.disk[FileLock] = e
			if !fi.Mode().IsRegular() {
				v.addf(FileLock, ErrUnsafeFile, "not a regular file (%s; never followed or opened)", fileType(fi.Mode()))
				return nil
			}
		}
	}
	switch {
	case !ok:
		v.addf(FileLock, ErrLock, "missing: %s is the bundle's lock", FileLock)
		return nil
	case !e.mode.IsRegular():
		return nil // reported by walk
	case e.size > MaxLockBytes:
		v.addf(FileLock, ErrLimit, "%d bytes, more than MaxLockBytes (%d)", e.size, MaxLockBytes)
		return nil
	}
	res, err := v.read(FileLock, e.size, true)
	if err != nil {
		v.readProblem(FileLock, err)
		return nil
	}
	if res.n != e.size {
		v.addf(FileLock, ErrLock, "changed while reading")
		return nil
	}
	v.rep.LockHash = res.digest
	l, ps := parseLock(res.data)
	for _, p := range ps {
		v.add(p)
	}
	v.rep.Lock = l
	return l
}

// fileSet compares the lock with the disk: missing, unlisted, names and
// layout.
func (v *verifier) fileSet(l *Lock) {
	listed := map[string]bool{}
	dirsOfListed := map[string]bool{}
	if l != nil {
		for _, f := range l.Files {
			listed[f.Path] = true
			for d := parentOf(f.Path); d != ""; d = parentOf(d) {
				dirsOfListed[d] = true
			}
		}
	}
	// Disk entries outside the lock.
	for _, p := range sortedKeys(v.disk) {
		e := v.disk[p]
		if p == FileLock || listed[p] {
			continue
		}
		if e.mode.IsDir() {
			if !dirsOfListed[p] && l != nil {
				v.addf(p+"/", ErrUnlisted, "directory holds no listed file")
			}
		} else if dirsOfListed[p] && e.mode.IsRegular() {
			v.addf(p, ErrMismatch, "a file where the directory of listed files belongs")
		} else if l != nil && !dirsOfListed[p] {
			// (A link or file where a directory of listed files belongs
			// is reported as unsafe or as the mismatch of its files.)
			v.addf(p, ErrUnlisted, "present but not listed in the lock")
		}
		if reason := checkPath(p); reason != "" {
			v.addf(p, ErrUnsafePath, "%s", reason)
		}
		if reason := forbiddenName(p); reason != "" {
			v.addf(p, ErrForbidden, "%s", reason)
		}
	}
	if l == nil {
		return
	}
	has := func(p string) bool { return listed[p] }
	if !has(FileCapability) {
		v.addf(FileLock, ErrLock, "does not list %s", FileCapability)
	}
	if !has(FileReadme) {
		v.addf(FileLock, ErrLock, "does not list %s", FileReadme)
	}
	for i, f := range l.Files {
		if i > 0 && l.Files[i-1].Path == f.Path {
			continue
		}
		if foldKey(f.Path) == foldKey(FileLock) || checkPath(f.Path) != "" {
			v.bad[f.Path] = true
			continue // reported by the lock checks; never looked up
		}
		if _, seen := v.disk[f.Path]; !seen && v.truncated && !v.behindUnsafe(f.Path) {
			v.lookUp(f.Path)
		}
		if reason := forbiddenName(f.Path); reason != "" {
			v.addf(f.Path, ErrForbidden, "%s", reason)
		} else if kindOf(f.Path) == kindOther {
			v.addf(f.Path, ErrForbidden, "outside the bundle layout (%s, %s, %s and %s/<64 hex>.json only)",
				FileCapability, FileReadme, FileLock, DirReceipts)
		}
		e, ok := v.disk[f.Path]
		switch {
		case !ok && v.behindUnsafe(f.Path):
			// A parent is a link or a file (reported there): never
			// looked at.
			v.bad[f.Path] = true
		case !ok && v.truncated && v.bad[f.Path]:
			// Looked up by name after the listing stopped: not a
			// regular file (reported by lookUp).
		case !ok:
			v.addf(f.Path, ErrMissing, "listed in the lock but absent")
		case e.mode.IsDir():
			v.addf(f.Path, ErrMismatch, "listed as a file but is a directory")
		}
	}
}

// behindUnsafe reports whether a parent directory of p is on disk as
// something other than a directory (a link, a file), so p was never
// listed.
func (v *verifier) behindUnsafe(p string) bool {
	for d := parentOf(p); d != ""; d = parentOf(d) {
		if e, ok := v.disk[d]; ok && !e.mode.IsDir() {
			return true
		}
	}
	return false
}

// checkFile verifies one lock entry's size and hash, reading the file only
// when its declared and Lstat sizes agree and are within limits.
func (v *verifier) checkFile(f LockFile) {
	if v.bad[f.Path] && (checkPath(f.Path) != "" || foldKey(f.Path) == foldKey(FileLock)) {
		return
	}
	if _, done := v.verified[f.Path]; done {
		return // a duplicate entry
	}
	e, ok := v.disk[f.Path]
	if !ok || !e.mode.IsRegular() {
		return // missing, a directory, a link or irregular: reported
	}
	if f.Size > MaxFileBytes || e.size > MaxFileBytes {
		return // reported by the lock checks or the walk
	}
	k := kindOf(f.Path)
	if lim := k.contentLimit(); lim >= 0 && (f.Size > lim || e.size > lim) {
		v.addf(f.Path, ErrLimit, "%d bytes, more than the %d-byte limit of this file", max(f.Size, e.size), lim)
		return
	}
	if e.size != f.Size {
		v.addf(f.Path, ErrMismatch, "size %d, the lock declares %d", e.size, f.Size)
		return
	}
	res, err := v.read(f.Path, f.Size, k != kindOther)
	if err != nil {
		v.readProblem(f.Path, err)
		return
	}
	switch {
	case res.n != f.Size:
		v.addf(f.Path, ErrMismatch, "read %d bytes, the lock declares %d", res.n, f.Size)
		return
	case res.digest != f.SHA256:
		v.addf(f.Path, ErrMismatch, "sha256 differs from the lock")
		return
	}
	if reason := sniff(res.head); reason != "" {
		v.addf(f.Path, ErrForbidden, "content is %s", reason)
	}
	v.verified[f.Path] = res.data
}

// errTooLong reports a file that grew past its declared size while read.
var errTooLong = errors.New("longer than declared")

// readProblem files a read error against path.
func (v *verifier) readProblem(p string, err error) {
	switch {
	case errors.Is(err, errTooLong):
		v.addf(p, ErrMismatch, "longer than the lock declares")
	case v.canceled():
	default:
		v.addf(p, ErrUnsafeFile, "cannot read: %s", errText(err))
	}
}

type readResult struct {
	digest string
	n      int64
	head   []byte
	data   []byte // whole content when kept
}

// bufPool holds the fixed read buffers.
var bufPool = sync.Pool{New: func() any {
	b := make([]byte, readBufferSize)
	return &b
}}

// readBufferSize is the size of the fixed buffer every file streams
// through.
const readBufferSize = 1 << 20

// read opens name safely and streams at most declared+1 bytes through
// SHA-256, keeping the first sniffLen bytes and, when keep is set, the
// whole content (declared is then bounded by a content limit).
func (v *verifier) read(name string, declared int64, keep bool) (readResult, error) {
	var res readResult
	f, err := v.open(name)
	if err != nil {
		return res, err
	}
	defer f.Close()
	h := sha256.New()
	lr := &io.LimitedReader{R: f, N: declared + 1}
	if keep {
		res.data = make([]byte, 0, declared+1)
		for {
			if len(res.data) == cap(res.data) {
				res.data = append(res.data, 0)[:len(res.data)]
			}
			n, err := lr.Read(res.data[len(res.data):cap(res.data)])
			res.data = res.data[:len(res.data)+n]
			if err == io.EOF {
				break
			}
			if err != nil {
				return res, err
			}
			if v.canceled() {
				return res, v.ctx.Err()
			}
		}
		h.Write(res.data)
		res.n = int64(len(res.data))
		res.head = res.data[:min(len(res.data), sniffLen)]
	} else {
		bp := bufPool.Get().(*[]byte)
		defer bufPool.Put(bp)
		buf := *bp
		var head [sniffLen]byte
		nh := 0
		for {
			n, err := lr.Read(buf)
			if n > 0 {
				if nh < sniffLen {
					nh += copy(head[nh:], buf[:n])
				}
				h.Write(buf[:n])
				res.n += int64(n)
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				return res, err
			}
			if v.canceled() {
				return res, v.ctx.Err()
			}
		}
		res.head = append([]byte(nil), head[:nh]...)
	}
	if res.n > declared {
		return res, errTooLong
	}
	var sum [sha256.Size]byte
	res.digest = "sha256:" + hex.EncodeToString(h.Sum(sum[:0]))
	return res, nil
}

// open opens the regular file name in the root for reading: every path
// component is Lstat'ed and must not be a symbolic link, the file must be
// regular, it is opened without blocking (a FIFO swapped in cannot hang
// the caller) and must be the file that was checked.
func (v *verifier) open(name string) (*os.File, error) {
	var fi fs.FileInfo
	for i := 0; i <= len(name); i++ {
		if i < len(name) && name[i] != '/' {
			continue
		}
		var err error
		fi, err = v.root.Lstat(name[:i])
		if err != nil {
			return nil, err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return nil, &fs.PathError{Op: "open", Path: name[:i], Err: errors.New("symbolic link")}
		}
	}
	if !fi.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errors.New("not a regular file")}
	}
	f, err := v.root.OpenFile(name, os.O_RDONLY|openReadFlags, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && (!st.Mode().IsRegular() || !os.SameFile(fi, st)) {
		err = &fs.PathError{Op: "open", Path: name, Err: errors.New("file changed while opening")}
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// errText renders an I/O error without the directory prefix.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// contentRules applies the text rules to the verified files of the
// inspected kinds.
func (v *verifier) contentRules(l *Lock) {
	for _, f := range l.Files {
		data, ok := v.verified[f.Path]
		if !ok {
			continue
		}
		var findings []string
		switch kindOf(f.Path) {
		case kindReadme:
			findings = scanReadme(data)
		case kindCapability, kindReceipt:
			findings = scanJSONText(data)
		default:
			continue
		}
		for _, what := range findings {
			v.addf(f.Path, ErrForbidden, "%s", what)
		}
	}
}

// checkCapability parses and validates the verified capability.json and
// compares it with the lock and the caller's expectations.
func (v *verifier) checkCapability(l *Lock) *capability.Capability {
	raw, ok := v.verified[FileCapability]
	if !ok {
		return nil
	}
	c, err := capability.ParseBytes(raw)
	if err != nil {
		v.addf(FileCapability, ErrCapability, "%s", err.Error())
		return nil
	}
	for _, e := range c.Validate() {
		v.addf(FileCapability, ErrCapability, "%s", e.Error())
	}
	switch c.State {
	case capability.StateAuthored, capability.StateDiscovered, capability.StateValidatedLocal:
	default:
		v.addf(FileCapability, ErrCapability, "state %s never travels in a bundle (authored, discovered or validated_local only)", quoteShort(string(c.State)))
	}
	eh, err := c.ExecutionHash()
	if err != nil {
		v.addf(FileCapability, ErrCapability, "cannot compute the execution hash")
		return nil
	}
	if l.Capability.ID != c.ID || l.Capability.Version != c.Version || l.Capability.ExecutionHash != eh {
		v.addf(FileLock, ErrLock, "names capability %s %s %s, capability.json is %s %s %s",
			quoteShort(l.Capability.ID), quoteShort(l.Capability.Version), shortHash(l.Capability.ExecutionHash),
			quoteShort(c.ID), quoteShort(c.Version), shortHash(eh))
	}
	if v.cfg.expectedHash != "" && v.cfg.expectedHash != eh {
		v.addf(FileCapability, ErrCapability, "execution hash %s, expected %s", shortHash(eh), shortHash(v.cfg.expectedHash))
	}
	if v.cfg.expectedID != "" && v.cfg.expectedID != c.ID {
		v.addf(FileCapability, ErrCapability, "id %s, expected %s", quoteShort(c.ID), quoteShort(v.cfg.expectedID))
	}
	v.rep.Verified = c
	return c
}

func shortHash(h string) string {
	if canonjson.ValidDigest(h) {
		return h[:len("sha256:")+12] + "..."
	}
	return quoteShort(h)
}

// checkClaim compares the receipts with the capability's state.
func (v *verifier) checkClaim(l *Lock, c *capability.Capability) {
	var listed []string
	for _, f := range l.Files {
		if kindOf(f.Path) == kindReceipt && (len(listed) == 0 || listed[len(listed)-1] != f.Path) {
			listed = append(listed, f.Path)
		}
	}
	// Each receipt is named by its own hash.
	receipts := map[string][]byte{}
	for _, p := range listed {
		raw, ok := v.verified[p]
		if !ok {
			continue
		}
		hexName, _ := receiptHex(p)
		digest := canonjson.SumBytes(raw)
		if digest != "sha256:"+hexName {
			v.addf(p, ErrMismatch, "a receipt is named by its own sha256; this one's is %s", shortHash(digest))
			continue
		}
		receipts[digest] = raw
	}
	if c == nil {
		return
	}
	for _, p := range listed {
		if v.bad[p] {
			// The evidence itself failed its file checks (reported); a
			// claim is only judged over verified receipts.
			return
		}
	}
	var errs []error
	switch c.State {
	case capability.StateValidatedLocal:
		named := map[string]bool{}
		if c.Validation != nil {
			for _, h := range c.Validation.Receipts {
				named[h] = true
				if !slices.Contains(listed, ReceiptPath(h)) {
					errs = append(errs, fmt.Errorf("receipt %s named by the validation is not in the bundle", shortHash(h)))
				}
			}
		}
		for _, p := range listed {
			hexName, _ := receiptHex(p)
			if !named["sha256:"+hexName] {
				errs = append(errs, fmt.Errorf("stray receipt %s: the validation does not name it", p))
			}
		}
		if err := checkClaim(v.ctx, c, receipts, v.cfg.claimOpts...); err != nil && !v.canceled() {
			errs = append(errs, err)
		}
	default:
		if len(listed) > 0 {
			errs = append(errs, fmt.Errorf("stray receipts: a %s capability claims no runs, found %d", c.State, len(listed)))
		}
	}
	if len(errs) > 0 {
		v.rep.Claim = &ClaimError{Err: errors.Join(errs...)}
	}
}

// ClaimError is [Report.Claim]: why the receipts do not support the
// capability's state. It wraps [ErrClaim] and the cause (the receipt
// package's errors when receipt.CheckClaim refused).
type ClaimError struct {
	// Err is the cause: the bundle's own findings (stray or absent
	// receipts) and receipt.CheckClaim's *receipt.ClaimError, joined.
	Err error
}

// Error implements error.
func (e *ClaimError) Error() string {
	return "receipts: " + e.Err.Error() + " [" + string(CodeClaim) + "]"
}

// Unwrap returns ErrClaim and the cause.
func (e *ClaimError) Unwrap() []error { return []error{ErrClaim, e.Err} }

// checkClaim is receipt.CheckClaim, a variable only so that the claim
// rules are in one place.
var checkClaim = receipt.CheckClaim

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// lookUp inspects one listed path by name after the listing stopped at
// MaxFiles: a regular file or directory joins the disk entries as if
// listed; a link or irregular file is [ErrUnsafeFile] and never opened;
// an absent path stays absent (reported as missing).
func (v *verifier) lookUp(p string) {
	var parents []string
	for d := parentOf(p); d != ""; d = parentOf(d) {
		parents = append(parents, d)
	}
	for i := len(parents) - 1; i >= 0; i-- {
		fi, err := v.root.Lstat(parents[i])
		if err != nil {
			return // absent: reported as missing
		}
		if !fi.IsDir() {
			// A link or a file where a directory belongs: never followed.
			v.bad[p] = true
			v.addf(parents[i], ErrUnsafeFile, "not a directory (%s; never followed)", fileType(fi.Mode()))
			return
		}
	}
	fi, err := v.root.Lstat(p)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			v.bad[p] = true
			v.addf(p, ErrUnsafeFile, "cannot inspect: %s", errText(err))
		}
		return
	}
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		v.bad[p] = true
		v.addf(p, ErrUnsafeFile, "symbolic link (never followed)")
		return
	case !m.IsRegular() && !m.IsDir():
		v.bad[p] = true
		v.addf(p, ErrUnsafeFile, "irregular file (%s)", fileType(m))
		return
	}
	v.disk[p] = diskEntry{mode: fi.Mode(), size: fi.Size(), info: fi}
}
