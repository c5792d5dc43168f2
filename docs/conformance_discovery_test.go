package docs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/discovery"
	"github.com/vera-run/vera/internal/canonjson"
)

// Discovery and developer pack cases (kinds discovery and pack, FORMAT.md
// 12.1, 6 and 8.9). Every document is the worked developer pack of 6.5
// (generateExamples: discovery.SealPack's bytes), tampered in one place by
// a byte edit, so the rest of the file stays Vera's output. A discovery
// case is one evidence or record file read strictly and validated as its
// case's schema says; a record case may name the evidence it is checked
// against (Record.CheckEvidence). A pack case is a folder verified by
// discovery.VerifyPack; a tamper that must reach a deeper rule is relocked
// (the pack lock recomputed from the files).

// The kinds of the discovery vectors.
const (
	kindDiscovery = "discovery"
	kindPack      = "pack"
)

// Paths of the valid discovery documents in the tree.
const (
	discEvidence = "discovery/valid/evidence.json"
	discRecord   = "discovery/valid/record.json"
)

// discFixedApproval is the transfer approval's fixed time.
var discFixedApproval = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)

// discReplace replaces the first old in raw by new; old must occur.
func discReplace(t *testing.T, raw []byte, old, new string) []byte {
	t.Helper()
	if !bytes.Contains(raw, []byte(old)) {
		t.Fatalf("tamper: %q not in the document", old)
	}
	return bytes.Replace(raw, []byte(old), []byte(new), 1)
}

// A discCase is one discovery document vector: the evidence or the record
// of the worked pack with one edit.
type discCase struct {
	id     string
	record bool // the record, else the evidence
	// checked: a record case checked against the worked evidence.
	checked bool
	edit    [][2]string // old, new byte edits in order
	codes   []string
	note    string
}

var discCases = []discCase{
	{id: "evidence-range", edit: [][2]string{{`"max_controls": 1000`, `"max_controls": 0`}}, codes: []string{"range"},
		note: "limits.max_controls 0, below its bound of 1"},
	{id: "evidence-format", edit: [][2]string{{`"run_id": "teller-lookup-demo"`, `"run_id": "Teller_Lookup"`}}, codes: []string{"format"},
		note: "a run id with capitals and an underscore"},
	{id: "evidence-unknown-value", edit: [][2]string{{`"mode": "guided"`, `"mode": "manual"`}}, codes: []string{"unknown_value"},
		note: "a mode outside guided, autonomous, hybrid"},
	{id: "evidence-required", edit: [][2]string{{`"origin": "http://127.0.0.1:4010",
      "url_path": "/members",
      "appeared"`, `"origin": "",
      "url_path": "/members",
      "appeared"`}}, codes: []string{"required"},
		note: "an in-scope observation (obs-2) without its origin"},
	{id: "evidence-duplicate", edit: [][2]string{{`"origins": [
      "http://127.0.0.1:4010"
    ]`, `"origins": [
      "http://127.0.0.1:4010",
      "http://127.0.0.1:4010"
    ]`}}, codes: []string{"duplicate"},
		note: "site.origins lists the origin twice"},
	{id: "evidence-order", edit: [][2]string{{`"ended_at": "2026-03-02T09:04:10Z"`, `"ended_at": "2026-03-02T08:59:59Z"`}}, codes: []string{"order"},
		note: "the session ends before it starts"},
	{id: "evidence-origin", edit: [][2]string{{`"allowed_origins": [
      "http://127.0.0.1:4010"
    ]`, `"allowed_origins": [
      "http://127.0.0.1:4011"
    ]`}}, codes: []string{"origin"},
		note: "observations on an origin outside site.allowed_origins"},
	{id: "evidence-reference", edit: [][2]string{{`"origins": [
      "http://127.0.0.1:4010"
    ],
    "allowed_origins": [
      "http://127.0.0.1:4010"
    ]`, `"origins": [
      "http://127.0.0.1:4011"
    ],
    "allowed_origins": [
      "http://127.0.0.1:4010"
    ]`}}, codes: []string{"reference"},
		note: "observations on an origin site.origins does not list"},
	{id: "evidence-identifier", edit: [][2]string{{`"name": "Member summary"`, `"name": "Member 4929123456789012"`}}, codes: []string{"identifier"},
		note: "a control name holding a card number that escaped redaction"},
	{id: "evidence-secret", edit: [][2]string{{`"name": "Member summary"`, `"name": "password=swordfish"`}}, codes: []string{"secret"},
		note: "a control name holding a credential assignment"},

	{id: "record-format", record: true, edit: [][2]string{{`"runtime": {
    "start": "/members"`, `"runtime": {
    "start": "members"`}}, codes: []string{"format"},
		note: "a start that is neither a path starting with / nor a URL"},
	{id: "record-duplicate", record: true, edit: [][2]string{{`"id": "read-member"`, `"id": "find-member"`}}, codes: []string{"duplicate"},
		note: "two milestones with one id"},
	{id: "record-reference", record: true, checked: true, edit: [][2]string{{`"obs-1",
        "obs-2"`, `"obs-1",
        "obs-2",
        "obs-9"`}}, codes: []string{"reference"},
		note: "a milestone naming an observation the evidence does not hold"},
	{id: "record-not-observed", record: true, checked: true, edit: [][2]string{{`"paths": [
        "/members"
      ]
    }
  ]`, `"paths": [
        "/accounts"
      ]
    }
  ]`}}, codes: []string{"not_observed"},
		note: "a milestone path never observed in its observations"},
	{id: "record-link-mismatch", record: true, checked: true, edit: [][2]string{{`"run_id": "teller-lookup-demo"`, `"run_id": "teller-other-demo"`}}, codes: []string{"link_mismatch"},
		note: "the record names another run id than its evidence"},
	{id: "record-unchecked", record: true, edit: [][2]string{{`"run_id": "teller-lookup-demo"`, `"run_id": "teller-other-demo"`}}, codes: []string{},
		note: "the same record read alone: valid, the link is a check against the evidence"},
}

// discoveryConfCases adds the discovery documents to the tree and
// returns their cases.
func discoveryConfCases(t *testing.T, b *confBase, add func(string, []byte)) []*confCase {
	t.Helper()
	ev, rec := b.pack[discovery.EvidenceFile], b.pack[discovery.RecordFile]
	add(discEvidence, ev)
	add(discRecord, rec)
	out := []*confCase{
		{ID: "discovery.valid-evidence", Kind: kindDiscovery, Path: discEvidence, Schema: discovery.EvidenceSchema,
			Note: "the evidence of the worked developer pack (6.5)"},
		{ID: "discovery.valid-record", Kind: kindDiscovery, Path: discRecord, Schema: discovery.RecordSchema, Evidence: discEvidence,
			Note: "the reviewed record of the worked developer pack, checked against its evidence"},
	}
	for _, dc := range discCases {
		raw, schema := ev, discovery.EvidenceSchema
		if dc.record {
			raw, schema = rec, discovery.RecordSchema
		}
		for _, e := range dc.edit {
			raw = discReplace(t, raw, e[0], e[1])
		}
		p := "discovery/invalid/" + dc.id + ".json"
		if len(dc.codes) == 0 {
			p = "discovery/valid/" + dc.id + ".json"
		}
		add(p, raw)
		cc := &confCase{ID: "discovery." + dc.id, Kind: kindDiscovery, Path: p, Schema: schema,
			Codes: sortedUnique(dc.codes), Note: dc.note}
		if dc.checked {
			cc.Evidence = discEvidence
		}
		out = append(out, cc)
	}
	return out
}

// discoveryCodes reads the document at p strictly as schema and returns
// its validation codes; a record with an evidence file ev is then checked
// against it. A document that does not parse is an error of the case
// table: every discovery case parses.
func discoveryCodes(p, schema, ev string) ([]string, error) {
	raw, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	var verr error
	switch schema {
	case discovery.EvidenceSchema:
		_, verr = discovery.LoadEvidence(raw)
	case discovery.RecordSchema:
		var rec *discovery.Record
		rec, verr = discovery.LoadRecord(raw)
		if verr == nil && ev != "" {
			evRaw, err := os.ReadFile(ev)
			if err != nil {
				return nil, err
			}
			e, err := discovery.LoadEvidence(evRaw)
			if err != nil {
				return nil, fmt.Errorf("evidence %s: %v", ev, err)
			}
			verr = rec.CheckEvidence(e)
		}
	default:
		return nil, fmt.Errorf("unknown discovery schema %q", schema)
	}
	var ve *discovery.ValidationError
	if verr != nil && !errors.As(verr, &ve) {
		return nil, fmt.Errorf("not a validation error: %v", verr)
	}
	var out []string
	if ve != nil {
		for _, pr := range ve.Problems {
			out = append(out, string(pr.Code))
		}
	}
	return sortedUnique(out), nil
}

// packCodes verifies the developer pack folder dir.
func packCodes(dir string) ([]string, error) {
	rep, err := discovery.VerifyPack(context.Background(), dir)
	var pe *discovery.PackError
	if err != nil && !errors.As(err, &pe) {
		return nil, err
	}
	var out []string
	for _, pr := range rep.Problems {
		out = append(out, string(pr.Code))
	}
	return sortedUnique(out), nil
}

// A packCase is one developer pack vector.
type packCase struct {
	id string
	// edit changes the pack's files (by name); relock recomputes the lock
	// from the edited documents afterwards.
	edit   func(t *testing.T, b *confBase, files map[string][]byte)
	relock bool
	absent bool
	codes  []string
	note   string
}

// relockPack recomputes pack.lock.json from the documents: sizes, file
// digests and the three document hashes.
func relockPack(t *testing.T, files map[string][]byte) {
	t.Helper()
	l := &discovery.PackLock{Schema: discovery.PackLockSchema, Algorithm: "sha256"}
	for _, n := range discovery.PackFiles() {
		l.Files = append(l.Files, discovery.LockedFile{Path: n, Size: int64(len(files[n])), SHA256: canonjson.SumBytes(files[n])})
	}
	var err error
	if l.Documents.EvidenceHash, err = canonjson.DigestBytes(files[discovery.EvidenceFile]); err != nil {
		t.Fatal(err)
	}
	if l.Documents.RecordHash, err = discovery.RecordHashBytes(files[discovery.RecordFile]); err != nil {
		t.Fatal(err)
	}
	if l.Documents.DraftHash, err = canonjson.DigestBytes(files[discovery.DraftFile]); err != nil {
		t.Fatal(err)
	}
	b, err := l.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	files[discovery.LockFile] = b
}

func editFile(name, old, new string) func(t *testing.T, b *confBase, files map[string][]byte) {
	return func(t *testing.T, b *confBase, files map[string][]byte) {
		files[name] = discReplace(t, files[name], old, new)
	}
}

func withApproval(t *testing.T, b *confBase, files map[string][]byte) {
	files[discovery.TransferApprovalFile] = slices.Clone(b.packApproval)
}

var packCases = []packCase{
	{id: "valid", note: "the worked developer pack of 6.5, as discovery.SealPack wrote it"},
	{id: "valid-transfer-approved", edit: withApproval,
		note: "the worked pack with the transfer approval discovery.ApproveTransfer wrote for it"},
	{id: "missing-file", edit: func(t *testing.T, b *confBase, files map[string][]byte) { delete(files, discovery.DraftFile) },
		codes: []string{"missing_file"}, note: "draft.capability.json, listed in the lock, is absent"},
	{id: "missing-pack", absent: true, codes: []string{"missing_file"}, note: "the pack folder does not exist"},
	{id: "unlisted-file", edit: func(t *testing.T, b *confBase, files map[string][]byte) {
		files["notes.txt"] = []byte("call the teller\n")
	},
		codes: []string{"unlisted_file"}, note: "a file the pack may not hold"},
	{id: "not-regular", edit: func(t *testing.T, b *confBase, files map[string][]byte) {
		files["notes/todo.txt"] = []byte("call the teller\n")
	},
		codes: []string{"not_regular"}, note: "a directory in the pack"},
	{id: "too-large", edit: func(t *testing.T, b *confBase, files map[string][]byte) {
		a := bytes.TrimRight(b.packApproval, "\n")
		files[discovery.TransferApprovalFile] = append(append(a, bytes.Repeat([]byte(" "), discovery.MaxApprovalBytes-len(a))...), '\n')
	}, codes: []string{"too_large"}, note: "the valid transfer approval padded with spaces to one byte over 16 KiB"},
	{id: "hash-mismatch", edit: editFile(discovery.DraftFile, `"draft"`, `"Draft"`),
		codes: []string{"hash_mismatch"}, note: "one byte of the draft changed, same length, not relocked"},
	{id: "size-mismatch", edit: func(t *testing.T, b *confBase, files map[string][]byte) {
		files[discovery.DraftFile] = append(files[discovery.DraftFile], '\n')
	}, codes: []string{"size_mismatch"}, note: "a byte appended to the draft, not relocked"},
	{id: "lock-invalid", edit: func(t *testing.T, b *confBase, files map[string][]byte) {
		files[discovery.LockFile] = append(files[discovery.LockFile], '\n')
	}, codes: []string{"lock_invalid"}, note: "the lock with a final newline: not its canonical form"},
	{id: "document-invalid", edit: editFile(discovery.DraftFile, `"state": "draft"`, `"state": "draft", "colour": "blue"`), relock: true,
		codes: []string{"document_invalid"}, note: "the draft with an unknown member, relocked"},
	{id: "not-a-draft", edit: editFile(discovery.DraftFile, `"state": "draft"`, `"state": "discovered"`), relock: true,
		codes: []string{"not_a_draft"}, note: "the draft in state discovered, relocked"},
	{id: "record-unreviewed", edit: func(t *testing.T, b *confBase, files map[string][]byte) {
		files[discovery.RecordFile] = discReplace(t, files[discovery.RecordFile], `,
  "review": {
    "reviewer": "teller supervisor",
    "reviewed_at": "2026-03-02T09:30:00Z"
  }`, "")
	}, relock: true, codes: []string{"record_unreviewed"}, note: "the record without its review, relocked (the record hash excludes the review, so the links hold)"},
	{id: "transfer-approval-invalid", edit: func(t *testing.T, b *confBase, files map[string][]byte) {
		withApproval(t, b, files)
		files[discovery.TransferApprovalFile] = discReplace(t, files[discovery.TransferApprovalFile],
			canonjson.SumBytes(files[discovery.LockFile]), "sha256:"+strings.Repeat("0", 64))
	}, codes: []string{"transfer_approval_invalid"}, note: "an approval naming another pack hash"},
	{id: "link-mismatch", edit: func(t *testing.T, b *confBase, files map[string][]byte) {
		h, err := discovery.RecordHashBytes(files[discovery.RecordFile])
		if err != nil {
			t.Fatal(err)
		}
		files[discovery.LockFile] = discReplace(t, files[discovery.LockFile], h, "sha256:"+strings.Repeat("0", 64))
	}, codes: []string{"link_mismatch"}, note: "the lock names another record hash; the files are unchanged"},
	{id: "document-problem", edit: editFile(discovery.EvidenceFile, `"name": "Member summary"`, `"name": "Member 4929123456789012"`), relock: true,
		codes: []string{"identifier", "link_mismatch"}, note: "the evidence with a card number, relocked: its validation problem, and the record names the evidence's former hash"},
}

// packConfCases adds the pack folders to the tree and returns their cases.
func packConfCases(t *testing.T, b *confBase, add func(string, []byte)) []*confCase {
	t.Helper()
	var out []*confCase
	for _, pc := range packCases {
		files := map[string][]byte{}
		for n, raw := range b.pack {
			files[n] = slices.Clone(raw)
		}
		if pc.edit != nil {
			pc.edit(t, b, files)
		}
		if pc.relock {
			relockPack(t, files)
		}
		dir := slashJoin("packs", pc.id)
		if !pc.absent {
			for n, raw := range files {
				add(slashJoin(dir, n), raw)
			}
		}
		out = append(out, &confCase{ID: "pack." + pc.id, Kind: kindPack, Path: dir, Codes: sortedUnique(pc.codes), Note: pc.note})
	}
	return out
}

// loadPackBase reads the worked pack from the generated examples and
// approves its transfer with discovery.ApproveTransfer at a fixed time.
func loadPackBase(t *testing.T, ex map[string][]byte) (pack map[string][]byte, approval []byte) {
	t.Helper()
	pack = map[string][]byte{}
	dir := filepath.Join(t.TempDir(), "pack")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, n := range append(discovery.PackFiles(), discovery.LockFile) {
		raw, ok := ex["pack/"+n]
		if !ok {
			t.Fatalf("the examples have no pack/%s", n)
		}
		pack[n] = raw
		if err := os.WriteFile(filepath.Join(dir, n), raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := discovery.ApproveTransfer(context.Background(), dir, "teller supervisor", discFixedApproval); err != nil {
		t.Fatal(err)
	}
	approval, err := os.ReadFile(filepath.Join(dir, discovery.TransferApprovalFile))
	if err != nil {
		t.Fatal(err)
	}
	return pack, approval
}

// discoveryCodeLists returns the validation and the developer pack codes
// FORMAT.md 8.9 lists.
func discoveryCodeLists(t *testing.T, page string) (validation, pack []string) {
	t.Helper()
	start := strings.Index(page, "\n### 8.9 ")
	if start < 0 {
		t.Fatal("FORMAT.md has no section 8.9")
	}
	body := page[start:]
	v := strings.Index(body, "Validation problem codes")
	p := strings.Index(body, "Developer pack codes")
	e := strings.Index(body, "Discovery modes")
	if v < 0 || p < v || e < p {
		t.Fatal("FORMAT.md 8.9 no longer lists the validation and developer pack codes in that order")
	}
	validation, pack = backticked(body[v:p]), backticked(body[p:e])
	if len(validation) < 10 || len(pack) < 10 {
		t.Fatalf("FORMAT.md 8.9 lists %d validation and %d pack codes", len(validation), len(pack))
	}
	return validation, pack
}

// backticked returns the code spans of s that are codes (lowercase
// letters and underscores), not API names.
func backticked(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			return out
		}
		s = s[i+1:]
		j := strings.IndexByte(s, '`')
		if j < 0 {
			return out
		}
		if code := s[:j]; strings.Trim(code, "abcdefghijklmnopqrstuvwxyz_") == "" {
			out = append(out, code)
		}
		s = s[j+1:]
	}
}

// exemptDiscoveryCodes are the 8.9 codes no vector can reach, with the
// reason.
var exemptDiscoveryCodes = map[string]string{
	"schema": "strict reading refuses a missing or other schema before validation (a parse error, not a problem), so the validation code is reached only by a document built in memory",
}

// exemptPackCodes are the pack codes of 8.9 no vector can reach.
var exemptPackCodes = map[string]string{
	"symlink": "the tree is symlink-free (a checkout on some systems cannot hold a symbolic link, and readTree refuses one)",
}

// TestConformanceDiscoveryCoverage fails when a code of FORMAT.md 8.9
// has no vector: each validation code in a discovery or pack case, each
// developer pack code in a pack case; and when a schema or the pack kind
// lacks a valid or an invalid case.
func TestConformanceDiscoveryCoverage(t *testing.T) {
	m := readManifest(t)
	page, err := os.ReadFile(formatFile)
	if err != nil {
		t.Fatal(err)
	}
	validation, pack := discoveryCodeLists(t, string(page))
	have := map[string]map[string]bool{kindDiscovery: {}, kindPack: {}}
	verdicts := map[string]map[string]bool{}
	for _, cc := range m.Cases {
		if cc.Kind != kindDiscovery && cc.Kind != kindPack {
			continue
		}
		k := cc.Kind
		if k == kindDiscovery {
			k = cc.Schema
		}
		if verdicts[k] == nil {
			verdicts[k] = map[string]bool{}
		}
		verdicts[k][cc.Verdict] = true
		for _, c := range cc.Codes {
			have[cc.Kind][c] = true
		}
	}
	for _, k := range []string{discovery.EvidenceSchema, discovery.RecordSchema, kindPack} {
		if !verdicts[k][verdictValid] || !verdicts[k][verdictInvalid] {
			t.Errorf("%s lacks a valid or an invalid case", k)
		}
	}
	check := func(list []string, ok func(string) bool, exempt map[string]string) {
		for _, c := range list {
			_, ex := exempt[c]
			switch {
			case ok(c) && ex:
				t.Errorf("8.9 code %s is exempt but has a vector: drop the exemption", c)
			case !ok(c) && !ex:
				t.Errorf("8.9 code %s has no conformance vector", c)
			}
		}
	}
	got, want := sortedUnique(append(slices.Clone(validation), pack...)), sortedUnique(constValues(t, "../discovery", func(name, typ string) bool {
		return typ == "Code" && !strings.HasPrefix(name, "Promotion") // Promote's codes, 6.2
	}))
	if !slices.Equal(got, want) {
		t.Errorf("the codes of FORMAT.md 8.9 differ from package discovery's Code constants:\n page %q\n Go   %q", got, want)
	}
	check(validation, func(c string) bool { return have[kindDiscovery][c] || have[kindPack][c] }, exemptDiscoveryCodes)
	check(pack, func(c string) bool { return have[kindPack][c] }, exemptPackCodes)
}

// writeDiscoveryAudit writes AUDIT.md's tables of the 8.9 codes: the
// discovery and pack cases that pin each, or why none can.
func writeDiscoveryAudit(buf *bytes.Buffer, page string, vectors map[string]map[string][]string) {
	p := func(format string, args ...any) { fmt.Fprintf(buf, format, args...) }
	start := strings.Index(page, "\n### 8.9 ")
	body := page[start:]
	v, pk, e := strings.Index(body, "Validation problem codes"), strings.Index(body, "Developer pack codes"), strings.Index(body, "Discovery modes")
	if start < 0 || v < 0 || pk < v || e < pk {
		p("### Discovery codes (8.9)\n\nFORMAT.md 8.9 does not list its codes.\n\n")
		return
	}
	for _, s := range []struct {
		title  string
		codes  []string
		kinds  []string
		exempt map[string]string
	}{
		{"Discovery validation codes (8.9)", backticked(body[v:pk]), []string{kindDiscovery, kindPack}, exemptDiscoveryCodes},
		{"Developer pack codes (8.9)", backticked(body[pk:e]), []string{kindPack}, exemptPackCodes},
	} {
		p("### %s\n\n| code | FORMAT.md | cases | vectors |\n|---|---|---|---|\n", s.title)
		for _, c := range s.codes {
			var ids []string
			for _, k := range s.kinds {
				ids = append(ids, vectors[k][c]...)
			}
			sl := codeList(ids, 5)
			if why := s.exempt[c]; why != "" && len(ids) == 0 {
				sl = "exempt: " + cell(why)
			}
			p("| `%s` | §8.9 | %d | %s |\n", c, len(ids), sl)
		}
		p("\n")
	}
}
