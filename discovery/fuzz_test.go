package discovery

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// tinyDocs returns small valid evidence and record documents: the fuzz
// engine minimizes every new interesting input, which is slow for large
// seeds.
func tinyDocs(f *testing.F) (evRaw, recRaw []byte) {
	raw := &RawSnapshot{Origin: shell, Path: "/a", Frames: []RawFrame{topFrame(shell)},
		Controls: []RawControl{btn(0, "Go"), {Role: "status", Text: "Page 1", Visible: true}}}
	ev, err := Observe(context.Background(), &fakePage{script: snaps(raw)}, WithMinInterval(MinIntervalFloor), WithMaxSnapshots(1))
	if err != nil {
		f.Fatal(err)
	}
	rec, err := NewRecord(ev, RecordSpec{
		Site: RecordSite{Name: "S", AllowedOrigins: []string{shell}}, Process: Process{Name: "P", Goal: "G"},
		Runtime: RecordRuntime{Start: "/a"}, Authority: RecordAuthority{MaxEffect: "read_only"},
		Milestones: []MilestoneSpec{{ID: "m", Intent: "I", Observations: []string{"obs-1"}}},
	})
	if err != nil {
		f.Fatal(err)
	}
	rec, _ = rec.Reviewed("R", time.Unix(0, 0))
	evRaw, _ = json.Marshal(ev)
	recRaw, _ = json.Marshal(rec)
	return evRaw, recRaw
}

func FuzzLoadEvidence(f *testing.F) {
	raw, _ := tinyDocs(f)
	f.Add(raw)
	f.Add(bytes.Replace(raw, []byte(`"obs-2"`), []byte(`"obs-9"`), 1))
	f.Add([]byte(`{"schema":"browser-discovery-evidence/v1"}`))
	f.Add([]byte(`{"schema":"browser-discovery-evidence/v1","schema":"x"}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := LoadEvidence(data)
		if err != nil {
			return
		}
		// Whatever loads is valid, re-encodes, reloads and hashes the same.
		out, err := e.Marshal()
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		e2, err := LoadEvidence(out)
		if err != nil {
			t.Fatalf("reload: %v", err)
		}
		h1, _ := e.Hash()
		h2, _ := e2.Hash()
		if h1 != h2 {
			t.Fatal("hash changed on a round trip")
		}
		e.Replay(func(*ObservationStep, []Control, []FrameRecord) bool { return true })
	})
}

func FuzzLoadRecord(f *testing.F) {
	_, raw := tinyDocs(f)
	f.Add(raw)
	f.Add(bytes.Replace(raw, []byte(`"review"`), []byte(`"reviewx"`), 1))
	f.Add([]byte(`{"schema":"browser-discovery/v2","milestones":[]}`))
	f.Add([]byte(`{"schema":"browser-discovery/v2","site":{"name":"\ud800"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := LoadRecord(data)
		if err != nil {
			return
		}
		h1, err := r.Hash()
		if err != nil {
			t.Fatal(err)
		}
		out, _ := r.Marshal()
		h2, err := RecordHashBytes(out)
		if err != nil || h1 != h2 {
			t.Fatalf("hash %s vs %s (%v)", h1, h2, err)
		}
		if _, err := DraftFromRecord(r); err != nil {
			// A valid record always makes a draft, unless its milestone
			// ids or names break the capability rules the record does not
			// share (none today).
			t.Fatalf("DraftFromRecord of a valid record: %v", err)
		}
	})
}

func FuzzParsePackLock(f *testing.F) {
	f.Add([]byte(`{"algorithm":"sha256","documents":{},"files":[],"schema":"browser-developer-pack-lock/v1"}`))
	f.Add([]byte(`{"algorithm":"sha256","files":[{"path":"discovery.json","sha256":"sha256:00","size":0}],"schema":"browser-developer-pack-lock/v1"}`))
	f.Add([]byte(`{"schema":"browser-developer-pack-lock/v1","files":null,"documents":{"evidence_hash":1}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParsePackLock(data)
		if err != nil {
			return
		}
		if len(l.Files) != 3 || l.Algorithm != AlgorithmSHA256 {
			t.Fatalf("a lock with %d files and algorithm %q parsed", len(l.Files), l.Algorithm)
		}
		for i, name := range PackFiles() {
			if l.Files[i].Path != name || l.Files[i].Size < 0 {
				t.Fatalf("file %d = %+v", i, l.Files[i])
			}
		}
		if again, err := l.Marshal(); err != nil || !bytes.Equal(again, data) {
			t.Fatalf("accepted lock %q re-encodes to %q (%v)", data, again, err)
		}
	})
}

// FuzzVerifyPackLock replaces the lock of a sealed pack with arbitrary
// bytes: VerifyPack never panics, and accepts only the original lock's
// bytes (the lock is canonical JSON, so one lock has one byte form).
func FuzzVerifyPackLock(f *testing.F) {
	ev, rec, draft := reviewedLedger(f)
	src := filepath.Join(f.TempDir(), "pack")
	if _, err := SealPack(context.Background(), src, ev, rec, draft); err != nil {
		f.Fatal(err)
	}
	lock, err := os.ReadFile(filepath.Join(src, LockFile))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(lock)
	f.Add(bytes.Replace(lock, []byte(`"size":`), []byte(`"size":1`), 1))
	f.Add(bytes.Replace(lock, []byte(`sha256:`), []byte(`sha256:0`), 1))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := filepath.Join(t.TempDir(), "p")
		if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, LockFile), data, 0o600); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		rep, err := VerifyPack(ctx, dir)
		if rep == nil {
			t.Fatal("nil report")
		}
		if err != nil {
			return
		}
		// The lock is canonical JSON and pins everything, so only the
		// sealed bytes verify.
		if !bytes.Equal(data, lock) {
			t.Fatalf("verified with another lock: %q", data)
		}
	})
}
