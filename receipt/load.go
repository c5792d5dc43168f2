package receipt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/safefs"
	"github.com/vera-run/vera/internal/strictjson"
)

// RunFiles is a loaded run directory: every document that could be read
// and decoded, with the exact bytes and hash of every file read.
type RunFiles struct {
	// Dir is the run directory.
	Dir string
	// Lock, Receipt, Outputs and Proposals are the decoded documents; nil
	// when absent or not decodable.
	Lock      *Lock
	Receipt   *Receipt
	Outputs   *Outputs
	Proposals *Proposals
	// Capture is capture.json (FORMAT.md 16), nil when absent or not
	// decodable.
	Capture *Capture
	// Raw holds the exact bytes of every run file read, by file name.
	Raw map[string][]byte
	// Hashes holds "sha256:<hex>" of the exact bytes of every run file
	// read, by file name.
	Hashes map[string]string
	// Temps lists leftover temporary files of interrupted atomic writes.
	Temps []string
}

// docSpec describes one run document.
type docSpec struct {
	name    string
	limit   int
	schemas []string
}

var (
	specReceipt   = docSpec{FileReceipt, MaxReceiptBytes, []string{SchemaReceipt}}
	specOutputs   = docSpec{FileOutputs, MaxOutputsBytes, []string{SchemaOutputs}}
	specLock      = docSpec{FileLock, MaxLockBytes, []string{SchemaLockV1, SchemaLockV2, SchemaLockV3}}
	specProposals = docSpec{FileProposals, MaxProposalsBytes, []string{SchemaProposals}}
)

// Load reads the run directory dir through an [os.Root]: run.lock.json,
// run.receipt.json, outputs.json and recovery.proposals.json (when
// present), each bounded by its size limit ([MaxLockBytes], ...), never
// through a symbolic link, strictly decoded (see [LoadReceipt]) and checked
// against its schema. It does not check the hashes that link the files;
// [VerifyRun] does.
//
// A directory without run.lock.json, or with a leftover temporary file
// ([safefs.IsTempName]), is incomplete: the error wraps [ErrIncomplete].
// Any other entry in the directory is reported with [ErrUnexpectedFile].
// Load returns what it could read together with an error (a *[VerifyError])
// listing every problem.
//
// ctx is checked before each file is read: once it is done, Load stops
// and returns what it read with an error wrapping ctx.Err() (not a
// verification failure: it does not match [ErrVerify]). A nil ctx is
// refused with [ErrInvalidArgument].
func Load(ctx context.Context, dir string) (*RunFiles, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	rf, rep, err := load(ctx, dir)
	if err != nil {
		return rf, err
	}
	return rf, rep.Err()
}

// load is Load returning the report.
//
// It returns a non-nil error only when ctx ended before every file was
// read; the report then holds the problems found so far.
func load(ctx context.Context, dir string) (_ *RunFiles, _ *Report, ctxErr error) {
	rf := &RunFiles{Dir: dir, Raw: map[string][]byte{}, Hashes: map[string]string{}}
	rep := &Report{Dir: dir, Complete: true}
	var ps problems
	defer func() { rep.Problems = append(rep.Problems, ps...) }()

	root, err := os.OpenRoot(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			rep.Complete = false
			ps.add("", ErrMissingFile, "run directory does not exist")
		} else {
			ps.add("", ErrUnreadable, "cannot open the run directory: %s", errText(err))
		}
		return rf, rep, ctxErr
	}
	defer root.Close()

	present, err := listRunDir(root)
	if err != nil {
		ps.add("", ErrUnreadable, "cannot list the run directory: %s", errText(err))
		return rf, rep, ctxErr
	}
	var names []string
	for name := range present {
		names = append(names, name)
	}
	sort.Strings(names)
	known := map[string]bool{FileLock: true, FileReceipt: true, FileOutputs: true, FileProposals: true, FileCapture: true}
	for _, name := range names {
		switch {
		case known[name]:
		case safefs.IsTempName(name):
			rf.Temps = append(rf.Temps, name)
			rep.Complete = false
			ps.add(name, ErrIncomplete, "leftover temporary file of an interrupted write")
		case name == tooManyEntries:
			ps.add("", ErrUnexpectedFile, "more than %d entries in the run directory", MaxDirEntries)
		default:
			ps.add(name, ErrUnexpectedFile, "entry is not part of a run")
		}
	}
	if !present[FileLock] {
		rep.Complete = false
		ps.add(FileLock, ErrIncomplete, "missing: the run was never committed")
	}

	read := func(spec docSpec, v any) bool {
		if ctxErr != nil {
			return false
		}
		if err := ctx.Err(); err != nil {
			ctxErr = fmt.Errorf("receipt: load %s: %w", dir, err)
			return false
		}
		raw, err := safefs.ReadFileLimited(root, spec.name, int64(spec.limit))
		if err != nil {
			switch {
			case errors.Is(err, safefs.ErrTooLarge):
				ps.add(spec.name, ErrTooLarge, "larger than %d bytes", spec.limit)
			case errors.Is(err, fs.ErrNotExist):
				ps.add(spec.name, ErrMissingFile, "disappeared while reading")
			default:
				ps.add(spec.name, ErrUnreadable, "%s", errText(err))
			}
			return false
		}
		rf.Raw[spec.name] = raw
		rf.Hashes[spec.name] = canonjson.SumBytes(raw)
		ok, dps := decodeDoc(spec, raw, v)
		ps = append(ps, dps...)
		return ok
	}
	if present[FileLock] {
		var l Lock
		if read(specLock, &l) {
			ps = append(ps, checkLock(&l)...)
			rf.Lock = &l
			rep.RunID = l.RunID
		}
	}
	for _, spec := range []docSpec{specReceipt, specOutputs} {
		if !present[spec.name] {
			if present[FileLock] {
				ps.add(spec.name, ErrMissingFile, "missing although the run was committed")
			}
			continue
		}
		switch spec.name {
		case FileReceipt:
			var r Receipt
			ok := read(spec, &r)
			rep.ReceiptHash = rf.Hashes[FileReceipt]
			if ok {
				ps = append(ps, checkReceipt(&r)...)
				ps = append(ps, scanSecrets(FileReceipt, rf.Raw[FileReceipt])...)
				rf.Receipt = &r
				if rep.RunID == "" {
					rep.RunID = r.RunID
				}
			}
		case FileOutputs:
			var o Outputs
			if read(spec, &o) {
				ps = append(ps, checkOutputs(&o)...)
				rf.Outputs = &o
			}
		}
	}
	if present[FileProposals] {
		var p Proposals
		if read(specProposals, &p) {
			ps = append(ps, checkProposals(&p)...)
			ps = append(ps, scanSecrets(FileProposals, rf.Raw[FileProposals])...)
			rf.Proposals = &p
		}
	}
	if present[FileCapture] {
		var c Capture
		if read(specCapture, &c) {
			ps = append(ps, checkCapture(&c)...)
			rf.Capture = &c
		}
	}
	if raw, ok := rf.Raw[FileLock]; ok {
		ps = append(ps, scanSecrets(FileLock, raw)...)
	}
	return rf, rep, ctxErr
}

// tooManyEntries is the pseudo-name listRunDir reports for an overfull
// directory; it cannot be a real base name.
const tooManyEntries = "/"

// listRunDir lists the run directory, at most MaxDirEntries entries.
//
// Counting stops at entry MaxDirEntries+1. Which entries a bounded
// listing returns depends on the file system, so an overfull directory
// reports no entry by name: the listing is discarded, tooManyEntries is
// set, and the four run file names are looked up directly (FORMAT.md
// 10.2 step 1). Two verifiers then agree whatever order their file
// systems list in.
func listRunDir(root *os.Root) (map[string]bool, error) {
	d, err := root.Open(".")
	if err != nil {
		return nil, err
	}
	defer d.Close()
	entries, err := d.ReadDir(MaxDirEntries + 1)
	if err != nil && err != io.EOF {
		return nil, err
	}
	if len(entries) > MaxDirEntries {
		present := map[string]bool{tooManyEntries: true}
		for _, name := range []string{FileLock, FileReceipt, FileOutputs, FileProposals, FileCapture} {
			if _, err := root.Lstat(name); err == nil {
				present[name] = true
			}
		}
		return present, nil
	}
	present := make(map[string]bool, len(entries))
	for _, e := range entries {
		present[e.Name()] = true
	}
	return present, nil
}

// errText renders an I/O error without its path (the path is the report's
// directory or file).
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// LoadReceipt decodes run.receipt.json strictly: at most [MaxReceiptBytes],
// byte-exact RFC 8785 canonical JSON (which also rules out duplicate keys,
// invalid UTF-8 and trailing data), the schema [SchemaReceipt], no unknown
// member (names match exactly, case included), values of the documented
// JSON types, every member the writer writes present and none it omits, and
// every value within its documented set or pattern. Errors are
// *[VerifyError] values whose problems wrap [ErrTooLarge], [ErrMalformed],
// [ErrNotCanonical], [ErrSchema], [ErrInconsistent] or [ErrSecret].
func LoadReceipt(raw []byte) (*Receipt, error) {
	var r Receipt
	ok, ps := decodeDoc(specReceipt, raw, &r)
	if ok {
		ps = append(ps, checkReceipt(&r)...)
		ps = append(ps, scanSecrets(FileReceipt, raw)...)
	}
	return result(&r, ok, ps)
}

// LoadLock decodes run.lock.json strictly, as [LoadReceipt] does, for
// schema [SchemaLockV1] or [SchemaLockV2].
func LoadLock(raw []byte) (*Lock, error) {
	var l Lock
	ok, ps := decodeDoc(specLock, raw, &l)
	if ok {
		ps = append(ps, checkLock(&l)...)
		ps = append(ps, scanSecrets(FileLock, raw)...)
	}
	return result(&l, ok, ps)
}

// LoadOutputs decodes outputs.json strictly, as [LoadReceipt] does, for
// schema [SchemaOutputs]. Output values are not scanned for secrets: they
// are the run's private results.
func LoadOutputs(raw []byte) (*Outputs, error) {
	var o Outputs
	ok, ps := decodeDoc(specOutputs, raw, &o)
	if ok {
		ps = append(ps, checkOutputs(&o)...)
	}
	return result(&o, ok, ps)
}

// LoadProposals decodes recovery.proposals.json strictly, as
// [LoadReceipt] does, for schema [SchemaProposals].
func LoadProposals(raw []byte) (*Proposals, error) {
	var p Proposals
	ok, ps := decodeDoc(specProposals, raw, &p)
	if ok {
		ps = append(ps, checkProposals(&p)...)
		ps = append(ps, scanSecrets(FileProposals, raw)...)
	}
	return result(&p, ok, ps)
}

func result[T any](v *T, ok bool, ps problems) (*T, error) {
	if !ok || len(ps) > 0 {
		return nil, &VerifyError{Problems: ps}
	}
	return v, nil
}

// maxDiffs bounds the writer-form differences reported for one file.
const maxDiffs = 8

// decodeDoc strictly decodes raw into v. ok is false when v could not be
// decoded at all (too large, malformed, wrong schema, wrong types, unknown
// members); writer-form and canonical-form problems leave ok true.
func decodeDoc(spec docSpec, raw []byte, v any) (ok bool, ps problems) {
	file := spec.name
	if len(raw) > spec.limit {
		ps.add(file, ErrTooLarge, "larger than %d bytes", spec.limit)
		return false, ps
	}
	doc, err := strictjson.Parse(raw)
	if err != nil {
		ps.add(file, ErrMalformed, "%s", syntaxText(err))
		return false, ps
	}
	canon := doc.Canonical()
	if !bytes.Equal(canon, raw) {
		ps.add(file, ErrNotCanonical, "not byte-exact RFC 8785 canonical JSON (first difference at byte %d)", firstDiff(canon, raw))
	}
	schema, present := doc.Member("schema")
	if _, isObj := doc.Value().(map[string]any); !isObj {
		ps.add(file, ErrSchema, "the document is not a JSON object with a string schema member")
		return false, ps
	}
	if !present {
		ps.add(file, ErrSchema, "missing schema member")
		return false, ps
	}
	s, isStr := schema.(string)
	if !isStr {
		ps.add(file, ErrSchema, "the document is not a JSON object with a string schema member")
		return false, ps
	}
	if !slices.Contains(spec.schemas, s) {
		ps.add(file, ErrSchema, "schema %s is not %s", short(s), strings.Join(spec.schemas, " or "))
		return false, ps
	}
	// Member names match exactly (internal/strictjson), as in every Vera
	// reader: a case-folded name is an unknown member, never an alias.
	if err := doc.Decode(v); err != nil {
		var se *strictjson.Error
		switch {
		case errors.As(err, &se) && se.Kind == strictjson.KindUnknownMember:
			ps.add(file, ErrSchema, "%s at %s", se.Err, fieldPath(se.Path))
		case errors.As(err, &se) && se.Kind == strictjson.KindWrongType:
			ps.add(file, ErrSchema, "member %s: %s, not the documented type", fieldPath(se.Path), se.Err)
		default:
			ps.add(file, ErrSchema, "does not decode as %s", spec.schemas[0])
		}
		return false, ps
	}
	// The writer's form: re-encoding must reproduce the file. This catches
	// missing members, explicit defaults the writer omits and null where an
	// object is due.
	again, err := canonjson.Marshal(v)
	if err != nil {
		ps.add(file, ErrSchema, "cannot be re-encoded")
		return true, ps
	}
	if !bytes.Equal(again, canon) {
		for _, d := range writerDiffs(canon, again) {
			ps.add(file, ErrSchema, "%s", d)
		}
	}
	return true, ps
}

func syntaxText(err error) string {
	var je *strictjson.Error
	if errors.As(err, &je) && je.Line > 0 {
		// Located by line and column; a BOM is named as one.
		return "invalid JSON at " + je.Error()
	}
	var se *canonjson.SyntaxError
	if errors.As(err, &se) {
		if se.Err != nil {
			return fmt.Sprintf("invalid JSON at byte %d: %s", se.Offset, strings.TrimPrefix(se.Err.Error(), "canonjson: "))
		}
		return fmt.Sprintf("invalid JSON at byte %d", se.Offset)
	}
	return "invalid JSON"
}

func fieldPath(f string) string {
	if f == "" {
		return "(document)"
	}
	return short(f)
}

func firstDiff(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// writerDiffs lists, bounded, where the file (file) and its re-encoding by
// the writer's types (writer) differ.
func writerDiffs(file, writer []byte) []string {
	var a, b any
	da := json.NewDecoder(bytes.NewReader(file))
	da.UseNumber()
	db := json.NewDecoder(bytes.NewReader(writer))
	db.UseNumber()
	if da.Decode(&a) != nil || db.Decode(&b) != nil {
		return []string{"differs from the writer's encoding"}
	}
	var out []string
	diffValue("", a, b, &out)
	if len(out) == 0 {
		out = append(out, "differs from the writer's encoding")
	}
	return out
}

func diffValue(path string, a, b any, out *[]string) {
	if len(*out) >= maxDiffs {
		return
	}
	show := path
	if show == "" {
		show = "(document)"
	}
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("member %s has the wrong type", short(show)))
			return
		}
		keys := make([]string, 0, len(av)+len(bv))
		for k := range av {
			keys = append(keys, k)
		}
		for k := range bv {
			if _, dup := av[k]; !dup {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			x, inA := av[k]
			y, inB := bv[k]
			switch {
			case inA && !inB:
				*out = append(*out, fmt.Sprintf("member %s is never written (an explicit default, a misspelt or differently cased name)", short(p)))
			case !inA && inB:
				*out = append(*out, fmt.Sprintf("member %s is missing", short(p)))
			default:
				diffValue(p, x, y, out)
			}
			if len(*out) >= maxDiffs {
				return
			}
		}
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			*out = append(*out, fmt.Sprintf("member %s differs from its re-encoding", short(show)))
			return
		}
		for i := range av {
			diffValue(path+"["+strconv.Itoa(i)+"]", av[i], bv[i], out)
		}
	default:
		if !jsonScalarEqual(a, b) {
			*out = append(*out, fmt.Sprintf("member %s differs from its re-encoding", short(show)))
		}
	}
}

func jsonScalarEqual(a, b any) bool {
	switch av := a.(type) {
	case json.Number:
		bv, ok := b.(json.Number)
		return ok && av == bv
	default:
		return a == b
	}
}
