package discovery

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/vera-run/vera/capability"
)

func TestNewRecord(t *testing.T) {
	ev := observeLedger(t)
	rec, err := NewRecord(ev, ledgerSpec())
	if err != nil {
		t.Fatal(err)
	}
	h, _ := ev.Hash()
	if rec.EvidenceHash != h || rec.Discovery.RunID != ev.RunID || rec.Discovery.Mode != ModeGuided || rec.Discovery.Model != "host-model-1" {
		t.Fatalf("links = %+v %+v", rec.EvidenceHash, rec.Discovery)
	}
	if !slices.Equal(rec.Site.AllowedOrigins, []string{shell, work}) {
		t.Fatalf("origins not sorted: %v", rec.Site.AllowedOrigins)
	}
	open, _ := rec.Milestone("open-ledger")
	if len(open.Controls) != 8 || !slices.Equal(open.Paths, []string{"/billing"}) {
		t.Fatalf("open-ledger controls %d paths %v", len(open.Controls), open.Paths)
	}
	pg, _ := rec.Milestone("paginate")
	names := []string{}
	for _, c := range pg.Controls {
		names = append(names, c.Role+":"+c.Name)
	}
	// obs-1 (the baseline before the click) lists every control; obs-2
	// (page 2) adds Previous page, which appeared.
	if len(names) != 9 || names[8] != "button:Previous page" || !slices.Contains(names, "button:Next page") {
		t.Fatalf("paginate controls = %v", names)
	}
	if err := rec.CheckEvidence(ev); err != nil {
		t.Fatal(err)
	}
}

func TestRecordHashExcludesReview(t *testing.T) {
	_, rec, _ := reviewedLedger(t)
	h1, _ := rec.Hash()
	un := rec.Clone()
	un.Review = nil
	h2, _ := un.Hash()
	if h1 != h2 {
		t.Fatal("the review changed the record hash")
	}
	raw, _ := rec.Marshal()
	h3, err := RecordHashBytes(raw)
	if err != nil || h3 != h1 {
		t.Fatalf("RecordHashBytes = %s, %v; want %s", h3, err, h1)
	}
	un.Process.Goal = "Something broader."
	if h4, _ := un.Hash(); h4 == h1 {
		t.Fatal("the goal does not change the hash")
	}
}

func TestRecordCheckEvidence(t *testing.T) {
	ev := observeLedger(t)
	good, err := NewRecord(ev, ledgerSpec())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		mutate func(r *Record)
		path   string
		code   Code
	}{
		{"evidence hash", func(r *Record) { r.EvidenceHash = "sha256:" + strings.Repeat("0", 64) }, "evidence_hash", CodeLinkMismatch},
		{"run id", func(r *Record) { r.Discovery.RunID = "run-other-abcd" }, "discovery.run_id", CodeLinkMismatch},
		{"mode", func(r *Record) { r.Discovery.Mode = ModeHybrid }, "discovery.mode", CodeLinkMismatch},
		{"unobserved origin", func(r *Record) { r.Site.AllowedOrigins = append(r.Site.AllowedOrigins, "https://z.example") }, "site.allowed_origins[2]", CodeNotObserved},
		{"unobserved start", func(r *Record) { r.Runtime.Start = "/admin" }, "runtime.start", CodeNotObserved},
		{"unobserved frame", func(r *Record) { r.Runtime.FrameSelectors = []string{"iframe#x"} }, "runtime.frame_selectors", CodeNotObserved},
		{"missing observation", func(r *Record) { r.Milestones[0].Observations = []string{"obs-99"} }, "milestones[0].observations[0]", CodeReference},
		{"unobserved control", func(r *Record) {
			r.Milestones[1].Controls = append(r.Milestones[1].Controls, ControlRef{Frame: ledger, Role: "button", Name: "Delete all"})
		}, "milestones[1].controls[9]", CodeNotObserved},
		{"unobserved path", func(r *Record) { r.Milestones[1].Paths = []string{"/secret-admin"} }, "milestones[1].paths[0]", CodeNotObserved},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := good.Clone()
			tt.mutate(r)
			err := r.CheckEvidence(ev)
			var ve *ValidationError
			if !errors.As(err, &ve) || !errors.Is(err, ErrInvalid) {
				t.Fatalf("err = %v", err)
			}
			if !slices.ContainsFunc(ve.Problems, func(p Problem) bool { return p.Path == tt.path && p.Code == tt.code }) {
				t.Fatalf("problems = %v, want %s at %s", ve.Problems, tt.code, tt.path)
			}
		})
	}
}

func TestRecordValidate(t *testing.T) {
	_, good, _ := reviewedLedger(t)
	tests := []struct {
		name   string
		mutate func(r *Record)
		path   string
		code   Code
	}{
		{"schema", func(r *Record) { r.Schema = "browser-discovery/v1" }, "schema", CodeSchema},
		{"http origin", func(r *Record) { r.Site.AllowedOrigins = []string{"http://example.com"} }, "site.allowed_origins[0]", CodeOrigin},
		{"unsorted", func(r *Record) { r.Site.AllowedOrigins = []string{work, shell} }, "site.allowed_origins[1]", CodeOrder},
		{"no origins", func(r *Record) { r.Site.AllowedOrigins = nil }, "site.allowed_origins", CodeRange},
		{"blank name", func(r *Record) { r.Process.Name = " " }, "process.name", CodeRequired},
		{"marker in goal", func(r *Record) { r.Process.Goal = "Export " + Marker }, "process.goal", CodeFormat},
		{"identifier in intent", func(r *Record) { r.Milestones[0].Intent = "Open member 100234" }, "milestones[0].intent", CodeIdentifier},
		{"secret", func(r *Record) { r.Milestones[0].Intent = "use password=hunter22" }, "milestones[0].intent", CodeSecret},
		{"start query", func(r *Record) { r.Runtime.Start = "/billing?x=1" }, "runtime.start", CodeFormat},
		{"start elsewhere", func(r *Record) { r.Runtime.Start = "https://evil.example/billing" }, "runtime.start", CodeFormat},
		{"frames", func(r *Record) { r.Runtime.FrameSelectors = slices.Repeat([]string{"iframe"}, 6) }, "runtime.frame_selectors", CodeRange},
		{"effect", func(r *Record) { r.Authority.MaxEffect = "destructive" }, "authority.max_effect", CodeUnknown},
		{"data class", func(r *Record) { r.Privacy.DataClasses = []string{"Invoices"} }, "privacy.data_classes[0]", CodeFormat},
		{"milestone id", func(r *Record) { r.Milestones[0].ID = "completed" }, "milestones[0].id", CodeFormat},
		{"duplicate milestone", func(r *Record) { r.Milestones[1].ID = r.Milestones[0].ID }, "milestones[1].id", CodeDuplicate},
		{"obs id", func(r *Record) { r.Milestones[0].Observations = []string{"obs-01"} }, "milestones[0].observations[0]", CodeFormat},
		{"evidence hash", func(r *Record) { r.EvidenceHash = "sha256:ABC" }, "evidence_hash", CodeFormat},
		{"review time", func(r *Record) { r.Review.ReviewedAt = "yesterday" }, "review.reviewed_at", CodeFormat},
		{"run id", func(r *Record) { r.Discovery.RunID = "run-1234567" }, "discovery.run_id", CodeFormat},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := good.Clone()
			tt.mutate(r)
			var ve *ValidationError
			if err := r.Validate(); !errors.As(err, &ve) {
				t.Fatalf("err = %v", err)
			}
			if !slices.ContainsFunc(ve.Problems, func(p Problem) bool { return p.Path == tt.path && p.Code == tt.code }) {
				t.Fatalf("problems = %v, want %s at %s", ve.Problems, tt.code, tt.path)
			}
			for _, p := range ve.Problems {
				if strings.Contains(p.Detail, "100234") || strings.Contains(p.Detail, "hunter22") || strings.Contains(p.Path, "hunter22") {
					t.Fatalf("a problem echoes the value: %v", p)
				}
			}
		})
	}
}

func TestLoadStrict(t *testing.T) {
	ev, rec, _ := reviewedLedger(t)
	evRaw, _ := ev.Marshal()
	recRaw, _ := rec.Marshal()
	if _, err := LoadEvidence(evRaw); err != nil {
		t.Fatalf("LoadEvidence: %v", err)
	}
	back, err := LoadRecord(recRaw)
	if err != nil {
		t.Fatalf("LoadRecord: %v", err)
	}
	if h1, _ := back.Hash(); h1 != mustHash(t, rec) {
		t.Fatal("a round trip changed the record hash")
	}
	bad := map[string][]byte{
		"duplicate key": bytes.Replace(recRaw, []byte(`"schema": "browser-discovery/v2",`), []byte(`"schema": "browser-discovery/v2", "schema": "browser-discovery/v2",`), 1),
		"unknown field": bytes.Replace(recRaw, []byte(`"schema": "browser-discovery/v2",`), []byte(`"schema": "browser-discovery/v2", "extra": 1,`), 1),
		"wrong schema":  bytes.Replace(recRaw, []byte(`browser-discovery/v2`), []byte(`browser-discovery/v1`), 1),
		"trailing":      append(slices.Clone(recRaw), []byte(`{}`)...),
		"invalid utf-8": bytes.Replace(recRaw, []byte(`Invoicing`), []byte("Invo\xffcing"), 1),
		"not json":      []byte(`nope`),
	}
	for name, raw := range bad {
		if _, err := LoadRecord(raw); !errors.Is(err, ErrParse) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	if _, err := LoadEvidence(bytes.Repeat([]byte(" "), MaxEvidenceBytes+1)); !errors.Is(err, ErrParse) {
		t.Errorf("oversize evidence: %v", err)
	}
	tampered := bytes.Replace(evRaw, []byte(`"Next page"`), []byte(`"Next page 4111 1111 1111 1111"`), 1)
	if _, err := LoadEvidence(tampered); !errors.Is(err, ErrInvalid) {
		t.Errorf("identifier in evidence: %v", err)
	}
}

func mustHash(t *testing.T, r *Record) string {
	t.Helper()
	h, err := r.Hash()
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestEvidenceValidate(t *testing.T) {
	good := observeLedger(t)
	tests := []struct {
		name   string
		mutate func(e *Evidence)
		path   string
		code   Code
	}{
		{"schema", func(e *Evidence) { e.Schema = "x" }, "schema", CodeSchema},
		{"mode", func(e *Evidence) { e.Mode = "x" }, "mode", CodeUnknown},
		{"times", func(e *Evidence) { e.EndedAt = "2000-01-01T00:00:00Z" }, "ended_at", CodeOrder},
		{"end", func(e *Evidence) { e.EndReason = "x" }, "end_reason", CodeUnknown},
		{"ids", func(e *Evidence) { e.Observations[1].ID = "obs-7" }, "observations[1].id", CodeOrder},
		{"baseline first", func(e *Evidence) { e.Observations[0].Kind = KindChange }, "observations[0].kind", CodeOrder},
		{"query", func(e *Evidence) { e.Observations[0].URLPath = "/billing?id=1" }, "observations[0].url_path", CodeFormat},
		{"unlisted origin", func(e *Evidence) { e.Site.Origins = e.Site.Origins[:1] }, "observations[0].frames[1].origins[1]", CodeReference},
		{"role", func(e *Evidence) { e.Observations[0].Controls[0].Role = "row" }, "observations[0].controls[0].role", CodeUnknown},
		{"text on a button", func(e *Evidence) { e.Observations[0].Controls[3].State.Text = "x" }, "observations[0].controls[3].state.text", CodeFormat},
		{"identifier", func(e *Evidence) { e.Observations[0].Controls[3].Name = "Pay 4111 1111 1111 1111" }, "observations[0].controls[3].name", CodeIdentifier},
		{"withheld test id", func(e *Evidence) {
			e.Observations[0].Controls[3].TestIDWithheld = true
			e.Observations[0].Controls[3].TestID = "x"
		}, "observations[0].controls[3].test_id", CodeFormat},
		{"kinds", func(e *Evidence) { e.Redactions.Identifiers = map[string]int{"ssn": 1} }, "redactions.identifiers", CodeUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, _ := good.Marshal()
			var e Evidence
			if err := strictDecode(raw, EvidenceSchema, MaxEvidenceBytes, &e); err != nil {
				t.Fatal(err)
			}
			tt.mutate(&e)
			var ve *ValidationError
			if err := e.Validate(); !errors.As(err, &ve) {
				t.Fatalf("err = %v", err)
			}
			if !slices.ContainsFunc(ve.Problems, func(p Problem) bool { return p.Path == tt.path && p.Code == tt.code }) {
				t.Fatalf("problems = %v, want %s at %s", ve.Problems, tt.code, tt.path)
			}
		})
	}
}

func TestDraftFromRecord(t *testing.T) {
	_, rec, draft := reviewedLedger(t)
	h := mustHash(t, rec)
	if draft.State != capability.StateDraft || draft.Provenance.DiscoveryHash != h || draft.Provenance.Review != nil {
		t.Fatalf("draft provenance = %+v", draft.Provenance)
	}
	if draft.ID != "draft.export-invoices" || draft.Version != DraftVersion || draft.Name != rec.Process.Name {
		t.Fatalf("identity = %s %s %s", draft.ID, draft.Version, draft.Name)
	}
	if !slices.Equal(draft.Runtime.FrameSelectors, ledger) || draft.Authority.MaxEffect != capability.EffectReadOnly {
		t.Fatalf("boundaries = %+v %+v", draft.Runtime, draft.Authority)
	}
	// capability.Validate: nothing but one empty_milestone per milestone.
	errs := draft.Validate()
	if len(errs) != len(rec.Milestones) {
		t.Fatalf("Validate = %v", errs)
	}
	for _, e := range errs {
		if e.Code != capability.CodeEmptyMilestone {
			t.Fatalf("unexpected problem %v", e)
		}
	}
	if err := ValidateDraft(draft); err != nil {
		t.Fatal(err)
	}
	// A draft is never executable.
	if !draft.ValidateForExecution().Has(capability.CodeStateNotExecutable) {
		t.Fatal("a draft is executable")
	}
	// Unreviewed records make drafts too, with the same hash.
	un := rec.Clone()
	un.Review = nil
	d2, err := DraftFromRecord(un, WithCapabilityID("invoices.export"), WithVersion("0.2.0"))
	if err != nil || d2.Provenance.DiscoveryHash != h || d2.ID != "invoices.export" {
		t.Fatalf("unreviewed draft: %v %+v", err, d2)
	}
	withReview, _ := draft.Clone()
	withReview.Provenance.Review = &capability.Review{Reviewer: "x", ReviewedAt: "2026-01-01T00:00:00Z", RecordHash: h, AuthoringApproved: true}
	if err := ValidateDraft(withReview); !errors.Is(err, capability.ErrInvalid) {
		t.Fatalf("a draft with a review: %v", err)
	}
}

func TestDefaultCapabilityID(t *testing.T) {
	for in, want := range map[string]string{
		"Export invoices":       "draft.export-invoices",
		"Scarica l'estratto!":   "draft.scarica-l-estratto",
		"2026 closing":          "draft.2026-closing",
		"€€€":                   "draft.process",
		strings.Repeat("a", 80): "draft.process",
	} {
		if got := defaultCapabilityID(in); got != want {
			t.Errorf("%q -> %q, want %q", in, got, want)
		}
	}
}
