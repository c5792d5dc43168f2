package discovery

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/vera-run/vera/internal/redact"
)

type corpusCase struct{ in, want string }

// loadCorpus reads internal/redact/testdata/identifiers.tsv.
func loadCorpus(t *testing.T) []corpusCase {
	t.Helper()
	f, err := os.Open("../internal/redact/testdata/identifiers.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		in, want, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("bad corpus line %q", line)
		}
		out = append(out, corpusCase{in, want})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRedactionCorpus runs the identifier corpus (Italian and English UI
// text, near misses that must stay) through the discovery redaction path:
// every string as an accessible name, a label, a placeholder and a
// live-region text of an observed page, and as a test id.
func TestRedactionCorpus(t *testing.T) {
	corpus := loadCorpus(t)
	if len(corpus) < 40 {
		t.Fatalf("corpus has %d strings, want at least 40", len(corpus))
	}
	var controls []RawControl
	for _, c := range corpus {
		controls = append(controls,
			RawControl{Role: "button", Name: c.in, TestID: c.in, Visible: true},
			RawControl{Role: "textbox", Label: c.in, Placeholder: c.in, Visible: true},
			RawControl{Role: "status", Text: c.in, Visible: true},
		)
	}
	raw := &RawSnapshot{Origin: shell, Path: "/corpus", Frames: []RawFrame{topFrame(shell)}, Controls: controls}
	ev, err := Observe(tctx(t, 10*time.Second), &fakePage{script: snaps(raw)}, fastOpts(WithMaxSnapshots(1))...)
	if err != nil {
		t.Fatal(err)
	}
	got := ev.Observations[0].Controls
	if len(got) != 3*len(corpus) {
		t.Fatalf("recorded %d controls, want %d", len(got), 3*len(corpus))
	}
	kept, redacted, withheld := 0, 0, 0
	for i, c := range corpus {
		want := normSpace(c.want)
		btn, box, status := got[3*i], got[3*i+1], got[3*i+2]
		for field, v := range map[string]string{"name": btn.Name, "label": box.Label, "placeholder": box.Placeholder, "text": status.State.Text} {
			if v != want {
				t.Errorf("%s of %q = %q, want %q", field, c.in, v, want)
			}
		}
		if redact.ContainsIdentifier(c.in) {
			redacted++
			if btn.TestID != "" || !btn.TestIDWithheld {
				t.Errorf("test id %q was not withheld", c.in)
			}
			withheld++
		} else {
			kept++
			if btn.TestID != c.in || btn.TestIDWithheld {
				t.Errorf("near miss %q lost as a test id: %+v", c.in, btn.ControlRef)
			}
		}
	}
	if kept < 15 || redacted < 25 {
		t.Errorf("corpus: %d near misses kept, %d redacted; want both kinds well represented", kept, redacted)
	}
	if ev.Redactions.TestIDsWithheld != withheld {
		t.Errorf("test ids withheld = %d, want %d", ev.Redactions.TestIDsWithheld, withheld)
	}
	// Per kind: every corpus match counted four times (name, label,
	// placeholder, text).
	wantKinds := map[string]int{}
	for _, c := range corpus {
		s := c.in
		for {
			ms := redact.FindIdentifiers(s)
			if len(ms) == 0 {
				break
			}
			for _, m := range ms {
				wantKinds[m.Kind] += 4
			}
			s, _ = redact.Identifiers(s)
		}
	}
	for k, n := range wantKinds {
		if ev.Redactions.Identifiers[k] != n {
			t.Errorf("count of %s = %d, want %d", k, ev.Redactions.Identifiers[k], n)
		}
	}
	if len(ev.Redactions.Identifiers) < 8 {
		t.Errorf("only %d kinds exercised: %v", len(ev.Redactions.Identifiers), ev.Redactions.Identifiers)
	}
	// Nothing identifier-shaped anywhere in the encoded evidence.
	b, _ := json.Marshal(ev)
	var ps problems
	scanContent(b, &ps)
	if len(ps) > 0 {
		t.Fatalf("evidence content problems: %v", ps)
	}
}

func TestRedactTextFixedPointAndBounds(t *testing.T) {
	for _, c := range loadCorpus(t) {
		z := sanitizer{counts: &RedactionCounts{}}
		want, n := redact.Identifiers(c.in)
		if got := z.identifiers(c.in); got != want || z.counts.Total() < n {
			t.Errorf("discovery's replacement of %q = %q (%d), redact.Identifiers = %q (%d)", c.in, got, z.counts.Total(), want, n)
		}
		once := RedactText(c.in, 0, nil)
		if twice := RedactText(once, 0, nil); twice != once {
			t.Errorf("not a fixed point: %q -> %q -> %q", c.in, once, twice)
		}
		for _, n := range []int{16, 20, 33} {
			cut := RedactText(c.in, n, nil)
			if len([]rune(cut)) > n || redact.ContainsIdentifier(cut) {
				t.Errorf("RedactText(%q, %d) = %q", c.in, n, cut)
			}
			if strings.Contains(cut, "⟦") && strings.Count(cut, "⟦") != strings.Count(cut, Marker) {
				t.Errorf("a marker was cut in half: %q", cut)
			}
		}
	}
}

// TestRedactionAtThePageLimit: an identifier cut in half by the page's
// string limit never survives as a fragment.
func TestRedactionAtThePageLimit(t *testing.T) {
	const max = 40
	lim := rawStringLen(max)
	iban := "IT60 X054 2811 1010 0000 0123 456"
	for cut := 1; cut < len(iban); cut++ {
		s := strings.Repeat("x ", (lim-cut)/2) + iban
		s = string([]rune(s)[:lim]) // what the page sends
		got := RedactText(s, max, nil)
		if strings.Contains(got, "IT60") || strings.Contains(got, "X054") || redact.ContainsIdentifier(got) {
			t.Fatalf("cut %d: fragment survived: %q", cut, got)
		}
	}
}
