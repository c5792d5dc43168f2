package discovery

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
)

// sealed seals the reviewed ledger into a fresh pack and returns its dir.
func sealed(t *testing.T) (string, *Evidence, *Record, *capability.Capability) {
	t.Helper()
	ev, rec, draft := reviewedLedger(t)
	dir := filepath.Join(t.TempDir(), "pack")
	rep, err := SealPack(tctx(t, 10*time.Second), dir, ev, rec, draft)
	if err != nil {
		t.Fatalf("SealPack: %v", err)
	}
	if !rep.OK() || rep.Dir != dir || rep.TransferApproved {
		t.Fatalf("report = %+v", rep)
	}
	return dir, ev, rec, draft
}

func hasProblem(rep *PackReport, path string, code Code) bool {
	return slices.ContainsFunc(rep.Problems, func(p Problem) bool { return p.Path == path && p.Code == code })
}

func TestSealAndVerifyPack(t *testing.T) {
	dir, ev, rec, draft := sealed(t)
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
		info, _ := e.Info()
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", e.Name(), info.Mode().Perm())
		}
	}
	if want := []string{RecordFile, DraftFile, EvidenceFile, LockFile}; !slices.Equal(names, want) {
		t.Fatalf("files = %v, want %v", names, want)
	}
	if st, _ := os.Stat(dir); st.Mode().Perm() != 0o700 {
		t.Errorf("pack dir mode %v, want 0700", st.Mode().Perm())
	}
	siblings, _ := os.ReadDir(filepath.Dir(dir))
	if len(siblings) != 1 {
		t.Errorf("temporary directories left: %v", siblings)
	}
	rep, err := VerifyPack(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	// Hash links.
	eh, _ := ev.Hash()
	rh, _ := rec.Hash()
	draftRaw, _ := os.ReadFile(filepath.Join(dir, DraftFile))
	dh, _ := canonjson.DigestBytes(draftRaw)
	if rep.Documents != (PackDocuments{EvidenceHash: eh, RecordHash: rh, DraftHash: dh}) {
		t.Fatalf("documents = %+v", rep.Documents)
	}
	lockRaw, _ := os.ReadFile(filepath.Join(dir, LockFile))
	lock, err := ParsePackLock(lockRaw)
	if err != nil || lock.Documents != rep.Documents || len(rep.Files) != 3 {
		t.Fatalf("lock %+v, %v", lock, err)
	}
	for _, f := range rep.Files {
		if !f.Verified {
			t.Errorf("%s not verified", f.Path)
		}
	}
	// Non-overwriting.
	if _, err := SealPack(context.Background(), dir, ev, rec, draft); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("sealing over an existing pack: %v", err)
	}
	empty := filepath.Join(t.TempDir(), "empty")
	os.Mkdir(empty, 0o700)
	if _, err := SealPack(context.Background(), empty, ev, rec, draft); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("sealing over an empty directory: %v", err)
	}
}

func TestSealPackRefuses(t *testing.T) {
	ev, rec, draft := reviewedLedger(t)
	tests := []struct {
		name  string
		setup func() (*Evidence, *Record, *capability.Capability)
		path  string
		code  Code
	}{
		{"unreviewed record", func() (*Evidence, *Record, *capability.Capability) {
			r := rec.Clone()
			r.Review = nil
			return ev, r, draft
		}, RecordFile + ":review", CodeUnreviewed},
		{"record of other evidence", func() (*Evidence, *Record, *capability.Capability) {
			r := rec.Clone()
			r.EvidenceHash = "sha256:" + fill64('3')
			d, _ := DraftFromRecord(r)
			return ev, r, d
		}, RecordFile + ":evidence_hash", CodeLinkMismatch},
		{"draft of other record", func() (*Evidence, *Record, *capability.Capability) {
			d, _ := draft.Clone()
			d.Provenance.DiscoveryHash = "sha256:" + fill64('4')
			return ev, rec, d
		}, DraftFile + ":provenance.discovery_hash", CodeLinkMismatch},
		{"authoring approval in the pack", func() (*Evidence, *Record, *capability.Capability) {
			d, _ := draft.Clone()
			d.Provenance.Review = &capability.Review{Reviewer: "x", ReviewedAt: "2026-01-01T00:00:00Z", RecordHash: d.Provenance.DiscoveryHash, AuthoringApproved: true}
			return ev, rec, d
		}, DraftFile + ":provenance.review", CodeDocument},
		{"identifier in the draft", func() (*Evidence, *Record, *capability.Capability) {
			d, _ := draft.Clone()
			d.Milestones[0].Intent = "Open account IT60X0542811101000000123456"
			return ev, rec, d
		}, DraftFile + ":milestones[0].intent", CodeIdentifier},
		{"secret in the evidence", func() (*Evidence, *Record, *capability.Capability) {
			raw, _ := ev.Marshal()
			var e Evidence
			_ = strictDecode(raw, EvidenceSchema, MaxEvidenceBytes, &e)
			e.Observations[0].Controls[0].Name = "token=ghp_16C7e42F292c6912E7710c838347Ae178B4a"
			return &e, rec, draft
		}, EvidenceFile + ":observations[0].controls[0].name", CodeSecret},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, r, d := tt.setup()
			dir := filepath.Join(t.TempDir(), "pack")
			rep, err := SealPack(context.Background(), dir, e, r, d)
			var pe *PackError
			if !errors.As(err, &pe) || !errors.Is(err, ErrPack) {
				t.Fatalf("err = %v", err)
			}
			if !hasProblem(rep, tt.path, tt.code) {
				t.Fatalf("problems = %v, want %s at %s", rep.Problems, tt.code, tt.path)
			}
			if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
				t.Fatal("a refused pack was written")
			}
			if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 0 {
				t.Fatalf("left behind: %v", entries)
			}
		})
	}
}

// copyPack copies a sealed pack to a fresh directory for tampering.
func copyPack(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "copy")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestVerifyPackDetectsTampering(t *testing.T) {
	dir, _, _, _ := sealed(t)
	write := func(d, name string, b []byte) {
		if err := os.WriteFile(filepath.Join(d, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	read := func(d, name string) []byte {
		b, err := os.ReadFile(filepath.Join(d, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name   string
		tamper func(d string)
		path   string
		code   Code
	}{
		{"edited evidence", func(d string) {
			write(d, EvidenceFile, bytes.Replace(read(d, EvidenceFile), []byte("Next page"), []byte("Next pag3"), 1))
		}, EvidenceFile, CodeHashMismatch},
		{"grown file", func(d string) { write(d, RecordFile, append(read(d, RecordFile), ' ')) }, RecordFile, CodeSizeMismatch},
		{"missing file", func(d string) { os.Remove(filepath.Join(d, DraftFile)) }, DraftFile, CodeMissingFile},
		{"extra file", func(d string) { write(d, "notes.txt", []byte("hi")) }, "notes.txt", CodeUnlistedFile},
		{"extra file with identifier name", func(d string) { write(d, "mario.rossi@example.it", []byte("hi")) }, Marker, CodeUnlistedFile},
		{"directory", func(d string) { os.Mkdir(filepath.Join(d, "sub"), 0o700) }, "sub", CodeNotRegular},
		{"symlink", func(d string) {
			os.Remove(filepath.Join(d, RecordFile))
			os.Symlink(filepath.Join(dir, RecordFile), filepath.Join(d, RecordFile))
		}, RecordFile, CodeSymlink},
		{"no lock", func(d string) { os.Remove(filepath.Join(d, LockFile)) }, LockFile, CodeMissingFile},
		{"bad lock", func(d string) { write(d, LockFile, []byte(`{"schema":"browser-developer-pack-lock/v1","files":[]}`)) }, LockFile, CodeLock},
		{"consistent forgery", func(d string) {
			// Rewrite the record and re-lock its bytes: the hash links
			// (draft -> record, lock documents) still catch it.
			rb := bytes.Replace(read(d, RecordFile), []byte("Read every page"), []byte("Read all pages!"), 1)
			write(d, RecordFile, rb)
			lock, _ := ParsePackLock(read(d, LockFile))
			for i := range lock.Files {
				if lock.Files[i].Path == RecordFile {
					lock.Files[i].Size = int64(len(rb))
					lock.Files[i].SHA256 = sha256Of(rb)
				}
			}
			lb, _ := lock.Marshal()
			write(d, LockFile, lb)
		}, DraftFile + ":provenance.discovery_hash", CodeLinkMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := copyPack(t, dir)
			tt.tamper(d)
			rep, err := VerifyPack(context.Background(), d)
			if !errors.Is(err, ErrPack) || rep.OK() {
				t.Fatalf("verified a tampered pack: %v", err)
			}
			if !hasProblem(rep, tt.path, tt.code) {
				t.Fatalf("problems = %v, want %s at %s", rep.Problems, tt.code, tt.path)
			}
		})
	}
	// A missing or tampered evidence or record file is reported as what it
	// is, never also as a link mismatch of the document that names it
	// (no hash of it was computed to compare with).
	for _, tc := range []struct {
		name, file string
		tamper     func(d, file string)
	}{
		{"missing", EvidenceFile, func(d, f string) { os.Remove(filepath.Join(d, f)) }},
		{"grown", EvidenceFile, func(d, f string) { write(d, f, append(read(d, f), ' ')) }},
		{"missing", RecordFile, func(d, f string) { os.Remove(filepath.Join(d, f)) }},
	} {
		t.Run("no link mismatch for a "+tc.name+" "+tc.file, func(t *testing.T) {
			d := copyPack(t, dir)
			tc.tamper(d, tc.file)
			rep, err := VerifyPack(context.Background(), d)
			if !errors.Is(err, ErrPack) || rep.OK() {
				t.Fatalf("verified a tampered pack: %v", err)
			}
			for _, p := range rep.Problems {
				if p.Code == CodeLinkMismatch {
					t.Errorf("misleading %s at %s: %s (problems %v)", p.Code, p.Path, p.Detail, rep.Problems)
				}
			}
		})
	}
	t.Run("pack dir is a symlink", func(t *testing.T) {
		link := filepath.Join(t.TempDir(), "link")
		os.Symlink(dir, link)
		rep, err := VerifyPack(context.Background(), link)
		if err == nil || !hasProblem(rep, "", CodeSymlink) {
			t.Fatalf("err %v problems %v", err, rep.Problems)
		}
	})
	t.Run("missing dir", func(t *testing.T) {
		rep, err := VerifyPack(context.Background(), filepath.Join(t.TempDir(), "nope"))
		if err == nil || !hasProblem(rep, "", CodeMissingFile) {
			t.Fatalf("err %v problems %v", err, rep.Problems)
		}
	})
}

func sha256Of(b []byte) string { return canonjson.SumBytes(b) }

// TestPackLockForm: the pack lock has the bundle lock's form — canonical
// JSON bytes on disk with an algorithm member, the pack hash the sha256 of
// those bytes, sizes from 0 — and is read back only in that form.
func TestPackLockForm(t *testing.T) {
	dir, _, _, _ := sealed(t)
	raw, err := os.ReadFile(filepath.Join(dir, LockFile))
	if err != nil {
		t.Fatal(err)
	}
	canon, err := canonjson.Transform(raw)
	if err != nil || !bytes.Equal(canon, raw) {
		t.Fatalf("pack.lock.json is not canonical JSON: %s", raw)
	}
	lock, err := ParsePackLock(raw)
	if err != nil || lock.Algorithm != AlgorithmSHA256 {
		t.Fatalf("lock %+v, %v", lock, err)
	}
	if again, _ := lock.Marshal(); !bytes.Equal(again, raw) {
		t.Fatal("PackLock.Marshal does not reproduce the lock")
	}
	rep, err := VerifyPack(context.Background(), dir)
	if err != nil || rep.PackHash != canonjson.SumBytes(raw) {
		t.Fatalf("pack hash %s, want the sha256 of the lock's bytes (%v)", rep.PackHash, err)
	}

	with := func(edit func(l *PackLock)) []byte {
		l, _ := ParsePackLock(raw)
		edit(l)
		b, err := l.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	if _, err := ParsePackLock(with(func(l *PackLock) { l.Files[0].Size = 0 })); err != nil {
		t.Errorf("a lock naming an empty file: %v", err)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	bad := map[string]struct {
		raw  []byte
		path string
	}{
		"indented":          {indented.Bytes(), ""},
		"final newline":     {append(slices.Clone(raw), '\n'), ""},
		"no algorithm":      {bytes.Replace(raw, []byte(`"algorithm":"sha256",`), nil, 1), "algorithm"},
		"other algorithm":   {with(func(l *PackLock) { l.Algorithm = "sha512" }), "algorithm"},
		"negative size":     {with(func(l *PackLock) { l.Files[1].Size = -1 }), "files[1].size"},
		"size beyond limit": {with(func(l *PackLock) { l.Files[2].Size = MaxEvidenceBytes + 1 }), "files[2].size"},
	}
	for name, tt := range bad {
		_, err := ParsePackLock(tt.raw)
		var ve *ValidationError
		if !errors.As(err, &ve) || !slices.ContainsFunc(ve.Problems, func(p Problem) bool { return p.Path == tt.path }) {
			t.Errorf("%s: err = %v, want a problem at %q", name, err, tt.path)
		}
	}
	// VerifyPack refuses the indented form of a valid lock.
	if err := os.WriteFile(filepath.Join(dir, LockFile), indented.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if rep, err := VerifyPack(context.Background(), dir); err == nil || !hasProblem(rep, LockFile, CodeLock) {
		t.Fatalf("an indented lock verified: %v", err)
	}
}

// TestTransferApprovalIsNotAuthoringApproval covers both directions:
// approving a pack's transfer leaves its draft unapproved for authoring
// (and unpromotable without an authoring approval), and an authoring
// approval (a promoted capability) neither transfer-approves a pack nor
// can be sealed into one.
func TestTransferApprovalIsNotAuthoringApproval(t *testing.T) {
	dir, ev, rec, _ := sealed(t)
	before, _ := os.ReadFile(filepath.Join(dir, DraftFile))
	a, err := ApproveTransfer(context.Background(), dir, "Operator One", time.Date(2026, 3, 30, 10, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := VerifyPack(context.Background(), dir)
	if err != nil || !rep.TransferApproved || rep.TransferApproval.PackHash != rep.PackHash || a.PackHash != rep.PackHash {
		t.Fatalf("approved pack: %v %+v", err, rep)
	}
	// Transfer approval -> no authoring approval.
	after, _ := os.ReadFile(filepath.Join(dir, DraftFile))
	if !bytes.Equal(before, after) {
		t.Fatal("transfer approval changed the draft")
	}
	packed, err := capability.ParseBytes(after)
	if err != nil {
		t.Fatal(err)
	}
	if packed.State != capability.StateDraft || packed.Provenance.Review != nil {
		t.Fatalf("the packed draft carries an approval: %+v", packed.Provenance)
	}
	c := authored(t, packed)
	rv := approval(t, rec)
	rv.AuthoringApproved = false // only the transfer was approved
	var pe PromotionErrors
	if _, err := Promote(c, rec, rv); !errors.As(err, &pe) || !pe.Has(BoundaryReview) {
		t.Fatalf("a transfer-approved pack promoted without authoring approval: %v", err)
	}
	// A second approval never overwrites the first.
	if _, err := ApproveTransfer(context.Background(), dir, "Someone Else", time.Now()); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("second approval: %v", err)
	}

	// Authoring approval -> no transfer approval.
	promoted, err := Promote(c, rec, approval(t, rec))
	if err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(t.TempDir(), "pack2")
	draft2, _ := DraftFromRecord(rec, WithCapabilityID("invoices.export"))
	rep2, err := SealPack(context.Background(), fresh, ev, rec, draft2)
	if err != nil || rep2.TransferApproved || rep2.TransferApproval != nil {
		t.Fatalf("a fresh pack is transfer-approved: %v %+v", err, rep2)
	}
	if _, err := SealPack(context.Background(), filepath.Join(t.TempDir(), "pack3"), ev, rec, promoted); !errors.Is(err, ErrPack) {
		t.Fatalf("an authoring-approved capability was sealed into a pack: %v", err)
	}
	// An approval of another pack does not approve this one.
	other, _ := os.ReadFile(filepath.Join(dir, TransferApprovalFile))
	if err := os.WriteFile(filepath.Join(fresh, TransferApprovalFile), other, 0o600); err != nil {
		t.Fatal(err)
	}
	rep3, err := VerifyPack(context.Background(), fresh)
	if err == nil || rep3.TransferApproved || !hasProblem(rep3, TransferApprovalFile+":pack_hash", CodeApproval) {
		t.Fatalf("another pack's approval accepted: %v %+v", err, rep3.Problems)
	}
}

func TestVerifyPackContext(t *testing.T) {
	dir, _, _, _ := sealed(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := VerifyPack(ctx, dir); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}
