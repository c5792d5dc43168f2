package testsite

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestTellerLoginPage(t *testing.T) {
	tl := startTeller(t)
	c := newClient(t)
	r := c.get(tl.URL() + "/login")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r,
		"<h1>Teller console</h1>",
		`<label for="username">Username</label>`,
		`<input id="username" name="username" type="text"`,
		`<label for="password">Password</label>`,
		`<input id="password" name="password" type="password"`,
		`<button type="submit">Sign in</button>`,
		`href="/assets/site.css"`,
	)
	wantNotContains(t, r, `role="alert"`, "http://", "https://")
	if got := r.header.Get("Content-Type"); got != "text/html; charset=utf-8" {
		t.Errorf("Content-Type = %q", got)
	}
}

func TestTellerLoginValidation(t *testing.T) {
	tl := startTeller(t)
	tests := []struct {
		name     string
		user, pw string
	}{
		{"both empty", "", ""},
		{"no password", "teller", ""},
		{"no username", "", "secret"},
		{"blank username", "   ", "secret"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(t)
			r := c.postForm(tl.URL()+"/login", url.Values{"username": {tc.user}, "password": {tc.pw}})
			wantStatus(t, r, http.StatusOK)
			wantContains(t, r, `<p role="alert" class="alert">Enter your username and password</p>`, "<h1>Teller console</h1>")
			if len(r.header.Values("Set-Cookie")) != 0 {
				t.Errorf("failed login set a cookie: %v", r.header.Values("Set-Cookie"))
			}
		})
	}
	if tl.ActiveSessions() != 0 || tl.Logins() != 0 {
		t.Errorf("sessions = %d, logins = %d, want 0", tl.ActiveSessions(), tl.Logins())
	}
}

func TestTellerSessionFlow(t *testing.T) {
	tl := startTeller(t)
	c := newClient(t)

	// Protected pages redirect to /login without a session.
	for _, p := range []string{"/members", "/members/100234", "/"} {
		wantRedirect(t, c.get(tl.URL()+p), http.StatusSeeOther, "/login")
	}
	r := c.postForm(tl.URL()+"/members/search", url.Values{"memberId": {"100234"}})
	wantRedirect(t, r, http.StatusSeeOther, "/login")

	r = c.postForm(tl.URL()+"/login", url.Values{"username": {"teller"}, "password": {"x"}})
	wantRedirect(t, r, http.StatusSeeOther, "/members")
	cookies := (&http.Response{Header: r.header}).Cookies()
	if len(cookies) != 1 {
		t.Fatalf("cookies = %v", cookies)
	}
	ck := cookies[0]
	if ck.Name != TellerSessionCookie || !ck.HttpOnly || ck.Path != "/" || len(ck.Value) != 32 {
		t.Errorf("cookie = %+v", ck)
	}
	if tl.ActiveSessions() != 1 || tl.Logins() != 1 {
		t.Errorf("sessions = %d, logins = %d", tl.ActiveSessions(), tl.Logins())
	}
	wantRedirect(t, c.get(tl.URL()+"/"), http.StatusSeeOther, "/members")

	r = c.get(tl.URL() + "/members")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r,
		"<h1>Member search</h1>",
		`<label for="member-id">Member ID</label>`,
		`placeholder="e.g. 100234"`,
		`name="memberId"`,
		`<button type="submit" data-testid="member-search-submit">Search</button>`,
		`action="/members/search"`,
	)
	wantNotContains(t, r, "No member found")

	r = c.postForm(tl.URL()+"/members/search", url.Values{"memberId": {" 100234 "}})
	wantRedirect(t, r, http.StatusSeeOther, "/members/100234")
	r = c.postForm(tl.URL()+"/members/search", url.Values{"memberId": {""}})
	wantRedirect(t, r, http.StatusSeeOther, "/members")
	r = c.postForm(tl.URL()+"/members/search", url.Values{"memberId": {"a/b?c"}})
	wantRedirect(t, r, http.StatusSeeOther, "/members/a%2Fb%3Fc")
}

func TestTellerMembers(t *testing.T) {
	tl := startTeller(t)
	c := newClient(t)
	signIn(t, c, tl)
	if len(TellerMembers) != 8 {
		t.Fatalf("TellerMembers has %d members", len(TellerMembers))
	}
	for _, m := range TellerMembers {
		t.Run(m.ID, func(t *testing.T) {
			r := c.get(tl.URL() + "/members/" + m.ID)
			wantStatus(t, r, http.StatusOK)
			wantContains(t, r,
				`<h1 data-testid="member-name">`+htmlText(m.Name)+`</h1>`,
				"<h2>Accounts</h2>",
				"<caption>Accounts</caption>",
				`<th scope="row">Savings</th><td data-testid="balance-savings">`+m.Savings+`</td>`,
				`<th scope="row">Checking</th><td data-testid="balance-checking">`+m.Checking+`</td>`,
				`<a href="/members">Back to search</a>`,
			)
		})
	}
	ada, ok := LookupMember("100234")
	if !ok || ada.Name != "Ada Lovelace" || ada.Savings != "$12,480.55" || ada.Checking != "$1,204.10" {
		t.Errorf("LookupMember(100234) = %+v, %v", ada, ok)
	}
	grace, _ := LookupMember("100235")
	if grace.Name != "Grace Hopper" || grace.Savings != "$3,050.00" || grace.Checking != "$88.19" {
		t.Errorf("LookupMember(100235) = %+v", grace)
	}

	for _, id := range []string{"999999", "abc", "100234x", "<script>"} {
		r := c.get(tl.URL() + "/members/" + url.PathEscape(id))
		wantStatus(t, r, http.StatusOK)
		wantContains(t, r, "<h1>Member search</h1>", `<p role="status" class="status">No member found</p>`,
			`data-testid="member-search-submit"`)
		wantNotContains(t, r, "<script>", "Accounts")
	}
}

func htmlText(s string) string { return strings.ReplaceAll(s, "&", "&amp;") }

func TestTellerExpireSessions(t *testing.T) {
	tl := startTeller(t)
	c := newClient(t)
	signIn(t, c, tl)
	wantStatus(t, c.get(tl.URL()+"/members"), http.StatusOK)

	tl.ExpireSessions()
	if tl.ActiveSessions() != 0 {
		t.Fatalf("ActiveSessions = %d after expiry", tl.ActiveSessions())
	}
	for _, p := range []string{"/members", "/members/100234"} {
		r := c.get(tl.URL() + p)
		wantStatus(t, r, http.StatusOK)
		wantContains(t, r, "<h1>Session expired</h1>", "<p>Session expired. Please sign in again.</p>",
			`<a href="/login">Sign in again</a>`)
		wantNotContains(t, r, "Ada Lovelace")
	}
	r := c.postForm(tl.URL()+"/members/search", url.Values{"memberId": {"100234"}})
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, "<h1>Session expired</h1>")

	// A fresh client with no cookie is still sent to /login.
	wantRedirect(t, newClient(t).get(tl.URL()+"/members"), http.StatusSeeOther, "/login")

	// Signing in again restores access.
	signIn(t, c, tl)
	r = c.get(tl.URL() + "/members/100235")
	wantStatus(t, r, http.StatusOK)
	wantContains(t, r, "Grace Hopper")
}

func TestTellerRenameSearchButton(t *testing.T) {
	tl := startTeller(t)
	c := newClient(t)
	signIn(t, c, tl)
	tests := []struct{ set, want string }{
		{"Find member", "Find member"},
		{"Look up <member>", "Look up &lt;member&gt;"},
		{"", "Search"},
	}
	for _, tc := range tests {
		tl.RenameSearchButton(tc.set)
		for _, p := range []string{"/members", "/members/1"} {
			r := c.get(tl.URL() + p)
			wantContains(t, r, `<button type="submit" data-testid="member-search-submit">`+tc.want+`</button>`)
		}
	}
}

func TestTellerLatency(t *testing.T) {
	tl := startTeller(t)
	c := newClient(t)
	tl.SetLatency(time.Hour)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, tl.URL()+"/login", nil)
	_, err := c.hc.Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("request under 1h latency: err = %v, want deadline exceeded", err)
	}
	// The favicon is never delayed.
	wantStatus(t, c.get(tl.URL()+"/favicon.ico"), http.StatusNoContent)

	tl.SetLatency(0)
	wantStatus(t, c.get(tl.URL()+"/login"), http.StatusOK)
	tl.SetLatency(-time.Second)
	wantStatus(t, c.get(tl.URL()+"/login"), http.StatusOK)
}

// TestTellerCloseDuringLatency proves Close does not wait for a delayed
// handler.
func TestTellerCloseDuringLatency(t *testing.T) {
	tl, err := StartTeller()
	if err != nil {
		t.Fatal(err)
	}
	tl.SetLatency(time.Hour)
	c := newClient(t)
	errc := make(chan error, 1)
	go func() {
		resp, err := c.hc.Get(tl.URL() + "/login")
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	for tl.TotalHits() == 0 {
		time.Sleep(time.Millisecond)
	}
	tl.Close()
	tl.Close() // idempotent
	<-errc     // either an error or a 503; it must simply return
}

func TestTellerHits(t *testing.T) {
	tl := startTeller(t)
	c := newClient(t)
	c.get(tl.URL() + "/login")
	c.get(tl.URL() + "/login?x=1")
	signIn(t, c, tl)
	c.get(tl.URL() + "/members/100234")
	if got := tl.Hits("/login"); got != 3 {
		t.Errorf("Hits(/login) = %d, want 3", got)
	}
	if got := tl.Hits("/members/100234"); got != 1 {
		t.Errorf("Hits(/members/100234) = %d, want 1", got)
	}
	if got := tl.TotalHits(); got != 4 {
		t.Errorf("TotalHits = %d, want 4", got)
	}
	reqs := tl.Requests()
	if len(reqs) != 4 || reqs[1].RawQuery != "x=1" || reqs[2].Method != http.MethodPost {
		t.Errorf("Requests = %+v", reqs)
	}
	tl.ResetHits()
	if tl.TotalHits() != 0 || tl.Hits("/login") != 0 || len(tl.Requests()) != 0 {
		t.Error("ResetHits left counts")
	}
}

func TestTellerMethodsAndUnknownPaths(t *testing.T) {
	tl := startTeller(t)
	c := newClient(t)
	wantStatus(t, c.get(tl.URL()+"/nope"), http.StatusNotFound)
	wantStatus(t, c.get(tl.URL()+"/favicon.ico"), http.StatusNoContent)
	r := c.post(tl.URL()+"/members", "text/plain", "")
	wantStatus(t, r, http.StatusMethodNotAllowed)
	r = c.get(tl.URL() + "/assets/site.css")
	wantStatus(t, r, http.StatusOK)
	if !strings.HasPrefix(r.header.Get("Content-Type"), "text/css") {
		t.Errorf("site.css Content-Type = %q", r.header.Get("Content-Type"))
	}
	if strings.Contains(r.body, "url(") || strings.Contains(r.body, "@import") {
		t.Error("site.css references an external resource")
	}
}
