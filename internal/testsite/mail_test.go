package testsite

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"testing"
)

func startMail(t *testing.T) *Mail {
	t.Helper()
	m, err := StartMail()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	return m
}

var mailDataRE = regexp.MustCompile(`(?s)<script type="application/json" id="mail-data">(.*?)</script>`)

func TestMailPage(t *testing.T) {
	m := startMail(t)
	c := newClient(t)
	wantRedirect(t, c.get(m.URL()+"/"), http.StatusSeeOther, "/mail")
	r := c.get(m.URL() + "/mail")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r,
		`data-stuck-search="false"`,
		`<form id="search-form" role="search"`,
		`<input id="search-input" type="search" aria-label="Search mail" placeholder="Search mail">`,
		`<button id="search-button" type="submit">Search</button>`,
		`<section id="inbox-view" data-view="inbox">`,
		"<h1>Inbox</h1>",
		`aria-label="Messages"`,
		`<section id="search-view" data-view="search" hidden>`,
		"<h1>Search results</h1>",
		`aria-label="Search results"`,
		`<p role="status" class="status" id="search-empty" hidden>No messages matched your search</p>`,
		`<script src="/assets/mail.js"></script>`,
	)
	match := mailDataRE.FindStringSubmatch(r.body)
	if match == nil {
		t.Fatal("no mail-data script")
	}
	var got []Message
	if err := json.Unmarshal([]byte(match[1]), &got); err != nil {
		t.Fatalf("mail-data: %v\n%s", err, match[1])
	}
	if !slices.Equal(got, MailMessages) || len(got) != 8 {
		t.Errorf("mail-data = %+v", got)
	}
	for _, msg := range got {
		if !regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`).MatchString(msg.Date) {
			t.Errorf("date %q is not ISO", msg.Date)
		}
	}

	js := c.get(m.URL() + "/assets/mail.js")
	wantStatus(t, js, http.StatusOK)
	wantContains(t, js, "'#search/' + encodeURIComponent(q)", "data-testid", "hashchange", ".hidden =")
	wantNotContains(t, js, ".remove(", "removeChild")
}

func TestMailStuckSearch(t *testing.T) {
	m := startMail(t)
	c := newClient(t)
	m.SetStuckSearch(true)
	wantContains(t, c.get(m.URL()+"/mail"), `data-stuck-search="true"`)
	m.SetStuckSearch(false)
	wantContains(t, c.get(m.URL()+"/mail"), `data-stuck-search="false"`)
}

func TestSearchMail(t *testing.T) {
	subjects := func(ms []Message) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.Subject)
		}
		return out
	}
	tests := []struct {
		query string
		want  []string
	}{
		{"fattura marzo", []string{"Fattura marzo 2026"}},
		{"FATTURA", []string{"Fattura marzo 2026", "Fattura febbraio 2026"}},
		{"café", []string{"Prenotazione confermata", "Lunch at the café?"}},
		{"CAFÉ", []string{"Prenotazione confermata", "Lunch at the café?"}},
		{"studio rossi", []string{"Fattura marzo 2026", "Fattura febbraio 2026"}},
		{"  grace   compiler ", []string{"Compiler meeting moved to Friday"}},
		{"INV-2041", []string{"Your invoice INV-2041 is ready"}},
		{"zzz", nil},
		{"", nil},
		{"   ", nil},
	}
	for _, tc := range tests {
		if got := subjects(SearchMail(tc.query)); !slices.Equal(got, tc.want) {
			t.Errorf("SearchMail(%q) = %q, want %q", tc.query, got, tc.want)
		}
	}
}

func FuzzSearchMail(f *testing.F) {
	for _, s := range []string{"", "café", "fattura marzo", "\xff", "a b c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		got := SearchMail(q)
		if len(got) > len(mailMessages) {
			t.Fatalf("%d results", len(got))
		}
		// Results keep inbox order and come from the inbox.
		last := -1
		for _, m := range got {
			i := slices.Index(mailMessages, m)
			if i <= last {
				t.Fatalf("result %+v out of order or not in inbox", m)
			}
			last = i
		}
	})
}
