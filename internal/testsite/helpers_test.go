package testsite

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// client is a cookie-jar HTTP client that does not follow redirects, so
// tests can assert every 303.
type client struct {
	t  *testing.T
	hc *http.Client
}

func newClient(t *testing.T) *client {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return &client{t: t, hc: &http.Client{
		Jar:       jar,
		Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}}
}

type response struct {
	status int
	header http.Header
	body   string
	raw    []byte
}

func (c *client) do(req *http.Request) response {
	c.t.Helper()
	resp, err := c.hc.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatalf("%s %s: read body: %v", req.Method, req.URL, err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: string(b), raw: b}
}

func (c *client) get(u string) response {
	c.t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, u, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	return c.do(req)
}

func (c *client) postForm(u string, form url.Values) response {
	c.t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, u, strings.NewReader(form.Encode()))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return c.do(req)
}

func (c *client) post(u, contentType, body string) response {
	c.t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, u, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", contentType)
	return c.do(req)
}

// wantStatus fails unless r has the status.
func wantStatus(t *testing.T, r response, status int) {
	t.Helper()
	if r.status != status {
		t.Fatalf("status = %d, want %d; body:\n%s", r.status, status, r.body)
	}
}

// wantContains fails unless every fragment occurs in r's body.
func wantContains(t *testing.T, r response, fragments ...string) {
	t.Helper()
	for _, f := range fragments {
		if !strings.Contains(r.body, f) {
			t.Errorf("body lacks %q; body:\n%s", f, r.body)
		}
	}
}

func wantNotContains(t *testing.T, r response, fragments ...string) {
	t.Helper()
	for _, f := range fragments {
		if strings.Contains(r.body, f) {
			t.Errorf("body unexpectedly contains %q", f)
		}
	}
}

func wantRedirect(t *testing.T, r response, status int, location string) {
	t.Helper()
	wantStatus(t, r, status)
	if got := r.header.Get("Location"); got != location {
		t.Fatalf("Location = %q, want %q", got, location)
	}
}

func startTeller(t *testing.T, opts ...Option) *Teller {
	t.Helper()
	tl, err := StartTeller(opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tl.Close)
	return tl
}

// signIn signs c in and returns the session cookie value.
func signIn(t *testing.T, c *client, tl *Teller) {
	t.Helper()
	r := c.postForm(tl.URL()+"/login", url.Values{"username": {"teller"}, "password": {"secret"}})
	wantRedirect(t, r, http.StatusSeeOther, "/members")
}
