package testsite

import (
	"bytes"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"os/exec"
	"path"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestStartWiresEverything(t *testing.T) {
	var logs bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(&lockedWriter{w: &logs, mu: &mu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	s, err := Start(WithLogger(logger), WithOutsideOrigin("http://ignored.invalid"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	origins := map[string]bool{}
	for _, o := range []string{s.Teller.URL(), s.Mail.URL(), s.Invoicing.URL(), s.Invoicing.WorkspaceOrigin(), s.Outside.URL(), s.Stress.URL()} {
		u, err := url.Parse(o)
		if err != nil || u.Scheme != "http" || u.Port() == "" || u.Path != "" || o != strings.TrimSuffix(o, "/") {
			t.Errorf("bad origin %q", o)
		}
		if origins[o] {
			t.Errorf("duplicate origin %q", o)
		}
		origins[o] = true
	}
	if s.Teller.Origin() != s.Teller.URL() {
		t.Error("Origin != URL")
	}
	if s.Teller.outsideOrigin() != s.Outside.Origin() {
		t.Errorf("teller outside = %q, want %q", s.Teller.outsideOrigin(), s.Outside.Origin())
	}

	c := newClient(t)
	wantStatus(t, c.get(s.Mail.URL()+"/mail"), http.StatusOK)
	mu.Lock()
	out := logs.String()
	mu.Unlock()
	if !strings.Contains(out, "testsite server started") || !strings.Contains(out, "path=/mail") {
		t.Errorf("logs lack start or request records:\n%s", out)
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestCloseIsIdempotent(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s.Close()
	var nilSites *Sites
	nilSites.Close()
	(&Sites{}).Close()
	if _, err := http.Get(s.Teller.URL() + "/login"); err == nil {
		t.Error("teller still answers after Close")
	}
}

func TestFaviconEverywhere(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := newClient(t)
	for _, o := range []string{s.Teller.URL(), s.Mail.URL(), s.Invoicing.URL(), s.Invoicing.WorkspaceOrigin(), s.Stress.URL()} {
		r := c.get(o + "/favicon.ico")
		wantStatus(t, r, http.StatusNoContent)
		if len(r.raw) != 0 {
			t.Errorf("%s favicon has a body", o)
		}
	}
}

var urlAttrRE = regexp.MustCompile(`(?i)(?:src|href|action)\s*=\s*"([^"]*)"`)

// TestNoExternalResources loads every non-escape page and asserts each
// src/href/action is same-origin (relative or the app's own origins).
func TestNoExternalResources(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := newClient(t)
	signIn(t, c, s.Teller)
	ws := s.Invoicing.WorkspaceOrigin()
	pages := []string{
		s.Teller.URL() + "/login", s.Teller.URL() + "/members", s.Teller.URL() + "/members/100234",
		s.Teller.URL() + "/members/1",
		s.Mail.URL() + "/mail",
		s.Invoicing.URL() + "/billing", ws + "/workspace", ws + "/ledger",
		s.Stress.URL() + "/stress/nodes/50", s.Stress.URL() + "/stress/controls/50",
		s.Stress.URL() + "/stress/never-settles", s.Stress.URL() + "/stress/slow/0", s.Stress.URL() + "/stress/probe",
	}
	for _, p := range pages {
		r := c.get(p)
		wantStatus(t, r, http.StatusOK)
		for _, m := range urlAttrRE.FindAllStringSubmatch(r.body, -1) {
			ref := m[1]
			if strings.HasPrefix(ref, "/") && !strings.HasPrefix(ref, "//") || strings.HasPrefix(ref, "#") {
				continue
			}
			if p == s.Invoicing.URL()+"/billing" && strings.HasPrefix(ref, ws+"/") {
				continue
			}
			t.Errorf("%s references %q", p, ref)
		}
		if strings.Contains(r.body, "@import") || strings.Contains(r.body, "url(") {
			t.Errorf("%s loads CSS resources", p)
		}
	}
	s.Teller.ExpireSessions()
	wantContains(t, c.get(s.Teller.URL()+"/members"), "Session expired")
}

// TestAssetsJavaScriptParses runs node --check on every embedded script
// when node is installed.
func TestAssetsJavaScriptParses(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not installed; skipping JavaScript syntax check")
	}
	err = fs.WalkDir(webFS, "web/assets", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Ext(p) != ".js" {
			return err
		}
		src, err := fs.ReadFile(webFS, p)
		if err != nil {
			return err
		}
		cmd := exec.Command(node, "--check", "--input-type=commonjs", "-")
		cmd.Stdin = bytes.NewReader(src)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", p, err, out)
		}
		if bytes.Contains(src, []byte("http://")) || bytes.Contains(src, []byte("https://")) {
			t.Errorf("%s hard-codes an absolute URL", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestTemplatesParse(t *testing.T) {
	tpl, err := templates()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"teller_login.html", "teller_members.html", "teller_member.html",
		"teller_expired.html", "escape.html", "mail.html", "billing.html", "workspace.html",
		"ledger.html", "never.html", "probe.html"} {
		if tpl.Lookup(name) == nil {
			t.Errorf("template %s missing", name)
		}
	}
}

// TestConcurrentUse hammers every app while knobs flip; run with -race.
func TestConcurrentUse(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tr := &http.Transport{MaxIdleConnsPerHost: 16}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	urls := []string{
		s.Teller.URL() + "/login", s.Teller.URL() + "/members",
		s.Mail.URL() + "/mail", s.Invoicing.URL() + "/billing",
		s.Invoicing.WorkspaceOrigin() + "/ledger", s.Invoicing.WorkspaceOrigin() + ExportPath,
		s.Outside.URL() + "/page", s.Stress.URL() + "/stress/nodes/20",
	}
	const workers, perWorker = 8, 25
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range perWorker {
				u := urls[(w+i)%len(urls)]
				resp, err := hc.Get(u)
				if err != nil {
					t.Errorf("GET %s: %v", u, err)
					return
				}
				resp.Body.Close()
				if resp.StatusCode >= 400 {
					t.Errorf("GET %s: %d", u, resp.StatusCode)
				}
			}
		})
	}
	wg.Go(func() {
		for i := range 50 {
			s.Teller.RenameSearchButton([]string{"Find member", ""}[i%2])
			s.Teller.SetLatency(time.Duration(i%2) * time.Microsecond)
			s.Teller.ExpireSessions()
			s.Mail.SetStuckSearch(i%2 == 0)
			s.Invoicing.ShowSurvey(i%2 == 0)
			s.Invoicing.ShowNativeDialog(i%3 == 0)
			s.Invoicing.SetExportFilename([]string{"a.csv", ""}[i%2])
			s.Invoicing.SetExportSize(i * 100)
			_ = s.Invoicing.ExportCSV()
			_ = s.Outside.Requests()
			_ = s.Teller.Hits("/login")
		}
	})
	wg.Wait()
	total := s.Teller.TotalHits() + s.Mail.TotalHits() + s.Invoicing.TotalHits() +
		s.Invoicing.Workspace.TotalHits() + s.Outside.TotalHits() + s.Stress.TotalHits()
	if total != workers*perWorker {
		t.Errorf("total hits = %d, want %d", total, workers*perWorker)
	}
	if s.Outside.Hits("/page") == 0 {
		t.Error("outside /page not counted")
	}
}

func TestRequestLogIsBounded(t *testing.T) {
	o, err := StartOutside()
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	for i := range MaxRecordedRequests + 5 {
		o.record(&http.Request{Method: "GET", URL: &url.URL{Path: "/p" + strings.Repeat("x", i%3)}})
	}
	reqs := o.Requests()
	if len(reqs) != MaxRecordedRequests || o.TotalHits() != MaxRecordedRequests+5 {
		t.Errorf("len %d total %d", len(reqs), o.TotalHits())
	}
}
