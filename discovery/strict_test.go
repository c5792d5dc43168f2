package discovery

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vera-run/vera/internal/strictjson"
)

// TestLoadersRejectCaseMismatchedNames: every discovery reader matches
// member names exactly, as capability.ParseBytes does; encoding/json alone
// would accept "SCHEMA" for "schema" and "Evidence_Hash" for
// "evidence_hash".
func TestLoadersRejectCaseMismatchedNames(t *testing.T) {
	dir, _, _, _ := sealed(t)
	if _, err := ApproveTransfer(tctx(t, 10*time.Second), dir, "Operator One", time.Date(2026, 3, 30, 10, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	loaders := map[string]func([]byte) error{
		EvidenceFile:         func(b []byte) error { _, err := LoadEvidence(b); return err },
		RecordFile:           func(b []byte) error { _, err := LoadRecord(b); return err },
		LockFile:             func(b []byte) error { _, err := ParsePackLock(b); return err },
		TransferApprovalFile: func(b []byte) error { _, err := LoadTransferApproval(b); return err },
	}
	for name, load := range loaders {
		if err := load(read(name)); err != nil {
			t.Fatalf("%s as written: %v", name, err)
		}
	}
	tests := []struct {
		file     string
		from, to string // a member name and its replacement (first occurrence)
		path     string // the path of the unknown member; "" when the schema is then missing
		add      bool   // keep the original and add the variant before it
	}{
		{file: EvidenceFile, from: "schema", to: "SCHEMA"},
		{file: EvidenceFile, from: "schema", to: "Schema", path: "Schema", add: true},
		{file: EvidenceFile, from: "observations", to: "Observations", path: "Observations"},
		{file: EvidenceFile, from: "role", to: "Role", path: "observations[0].controls[0].Role"},
		{file: EvidenceFile, from: "end_reason", to: "End_Reason", path: "End_Reason"},
		{file: RecordFile, from: "schema", to: "SCHEMA"},
		{file: RecordFile, from: "schema", to: "SCHEMA", path: "SCHEMA", add: true},
		{file: RecordFile, from: "evidence_hash", to: "Evidence_Hash", path: "Evidence_Hash"},
		{file: RecordFile, from: "evidence_hash", to: "EVIDENCE_HASH", path: "EVIDENCE_HASH", add: true},
		{file: RecordFile, from: "reviewer", to: "Reviewer", path: "review.Reviewer"},
		{file: LockFile, from: "schema", to: "SCHEMA"},
		{file: LockFile, from: "documents", to: "Documents", path: "Documents"},
		{file: LockFile, from: "evidence_hash", to: "Evidence_Hash", path: "documents.Evidence_Hash"},
		{file: LockFile, from: "sha256", to: "SHA256", path: "files[0].SHA256"},
		{file: TransferApprovalFile, from: "schema", to: "SCHEMA"},
		{file: TransferApprovalFile, from: "pack_hash", to: "Pack_Hash", path: "Pack_Hash"},
		{file: TransferApprovalFile, from: "approver", to: "APPROVER", path: "APPROVER"},
	}
	for _, tt := range tests {
		t.Run(tt.file+"/"+tt.to, func(t *testing.T) {
			raw := read(tt.file)
			from := []byte(`"` + tt.from + `":`)
			if !bytes.Contains(raw, from) {
				t.Fatalf("%s has no member %s", tt.file, tt.from)
			}
			to := []byte(`"` + tt.to + `":`)
			var bad []byte
			if tt.add {
				// "X": <the value of x>, "x": ... — both names present.
				i := bytes.Index(raw, from)
				end := i + bytes.IndexAny(raw[i:], ",}")
				bad = append(append(append(append([]byte{}, raw[:i]...), to...), raw[i+len(from):end]...), ',')
				bad = append(bad, raw[i:]...)
			} else {
				bad = bytes.Replace(raw, from, to, 1)
			}
			err := loaders[tt.file](bad)
			if !errors.Is(err, ErrParse) {
				t.Fatalf("accepted %s with %q: %v", tt.file, tt.to, err)
			}
			if tt.path == "" {
				// The only schema member is misnamed: no schema at all.
				if !errors.Is(err, errSchema) {
					t.Fatalf("err = %v, want a missing schema", err)
				}
				return
			}
			var se *strictjson.Error
			if !errors.As(err, &se) || se.Kind != strictjson.KindUnknownMember || se.Path != tt.path {
				t.Fatalf("err = %v, want an unknown member at %s", err, tt.path)
			}
		})
	}
}
