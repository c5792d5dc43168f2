package testsite

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestPortalSignInAndSessions(t *testing.T) {
	p, err := StartPortal()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.AddAccount("operator", "right-password")
	c := newClient(t)

	r := c.get(p.URL() + "/home")
	wantStatus(t, r, http.StatusSeeOther)
	if loc := r.header.Get("Location"); loc != "/login" {
		t.Errorf("without a session /home goes to %q", loc)
	}
	r = c.postForm(p.URL()+"/login", url.Values{"username": {"operator"}, "password": {"wrong"}})
	wantStatus(t, r, http.StatusOK)
	if !strings.Contains(r.body, "Wrong username or password") || p.Logins() != 0 {
		t.Errorf("a wrong password signed in (logins %d)", p.Logins())
	}
	r = c.postForm(p.URL()+"/login", url.Values{"username": {"operator"}, "password": {"right-password"}})
	wantStatus(t, r, http.StatusSeeOther)
	ck := r.header.Get("Set-Cookie")
	if !strings.HasPrefix(ck, "portal_session=") || !strings.Contains(ck, "HttpOnly") || p.Logins() != 1 {
		t.Errorf("Set-Cookie %q, logins %d", ck, p.Logins())
	}
	r = c.get(p.URL() + "/home")
	wantStatus(t, r, http.StatusOK)
	if !strings.Contains(r.body, "Signed in as operator") || !strings.Contains(r.body, `src="/portal.js"`) {
		t.Errorf("home page:\n%s", r.body)
	}

	// A minted session works without a password sign-in.
	tok := p.NewSession("auditor")
	c2 := newClient(t)
	req, _ := http.NewRequest(http.MethodGet, p.URL()+"/home", nil)
	req.AddCookie(&http.Cookie{Name: "portal_session", Value: tok})
	r = c2.do(req)
	wantStatus(t, r, http.StatusOK)
	if !strings.Contains(r.body, "Signed in as auditor") || p.Logins() != 1 {
		t.Errorf("minted session: logins %d, body:\n%s", p.Logins(), r.body)
	}
	// An unknown session is no session.
	req, _ = http.NewRequest(http.MethodGet, p.URL()+"/home", nil)
	req.AddCookie(&http.Cookie{Name: "portal_session", Value: "0000"})
	wantStatus(t, newClient(t).do(req), http.StatusSeeOther)
	r = c.get(p.URL() + "/portal.js")
	wantStatus(t, r, http.StatusOK)
	if !strings.Contains(r.body, `"portal.workspace"`) || !strings.Contains(r.body, `"portal.tab"`) {
		t.Errorf("portal.js:\n%s", r.body)
	}
}
