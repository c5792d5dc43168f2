package runtimetest

import (
	"fmt"
	"net"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// Origins returns every origin the site names, sorted: those of its page
// keys and of the absolute URLs in frames, links and navigate effects.
func (s *Site) Origins() []string {
	seen := map[string]bool{}
	add := func(u string) {
		if o, err := originOf(u); err == nil && strings.Contains(u, "://") {
			seen[o] = true
		}
	}
	if s == nil {
		return nil
	}
	for key, p := range s.Pages {
		add(key)
		if p == nil {
			continue
		}
		visit := func(n *Node) {
			if n.Frame != nil {
				add(n.Frame.URL)
			}
			if h, ok := n.Attributes["href"]; ok {
				add(h)
			}
		}
		walkNodes(p.Body, visit)
		for _, r := range p.Rules {
			for _, e := range r.Effects {
				if e.Navigate != "" {
					add(templatePattern.ReplaceAllString(e.Navigate, "x"))
				}
				if e.Add != nil {
					walkNodes(e.Add.Nodes, visit)
				}
			}
		}
	}
	out := make([]string, 0, len(seen))
	for o := range seen {
		out = append(out, o)
	}
	slices.Sort(out)
	return out
}

// Rebase returns a deep copy of the site with origins rewritten by m (old
// origin to new origin): page keys, Page.Origin, and the absolute URLs of
// frames, href attributes and navigate effects. URLs of other origins and
// relative references are unchanged.
func (s *Site) Rebase(m map[string]string) *Site {
	c := s.Clone()
	if c == nil {
		return nil
	}
	norm := make(map[string]string, len(m))
	for k, v := range m {
		norm[normOrigin(k)] = strings.TrimSuffix(v, "/")
	}
	rw := func(u string) string {
		if !strings.Contains(u, "://") {
			return u
		}
		o, err := originOf(templatePattern.ReplaceAllString(u, "x"))
		if err != nil {
			return u
		}
		n, ok := norm[o]
		if !ok {
			return u
		}
		// the origin is the URL's prefix up to the first '/', '?' or '#'
		// after the scheme
		rest := u[strings.Index(u, "://")+3:]
		end := strings.IndexAny(rest, "/?#")
		if end < 0 {
			return n
		}
		return n + rest[end:]
	}
	visit := func(n *Node) {
		if n.Frame != nil {
			n.Frame.URL = rw(n.Frame.URL)
		}
		if h, ok := n.Attributes["href"]; ok {
			n.Attributes["href"] = rw(h)
		}
	}
	pages := make(map[string]*Page, len(c.Pages))
	for key, p := range c.Pages {
		nk := rw(key)
		if p != nil {
			if p.Origin != "" {
				p.Origin = rw(p.Origin)
			}
			walkNodes(p.Body, visit)
			for i := range p.Rules {
				for j := range p.Rules[i].Effects {
					e := &p.Rules[i].Effects[j]
					if e.Navigate != "" {
						e.Navigate = rw(e.Navigate)
					}
					if e.Add != nil {
						walkNodes(e.Add.Nodes, visit)
					}
				}
			}
		}
		pages[nk] = p
	}
	c.Pages = pages
	return c
}

// Serve serves site over loopback HTTP for a browser-driven test: one
// httptest server per origin the site names (see [Site.Origins]), each on
// 127.0.0.1 with a free port. An origin whose host is "localhost" is
// served as http://localhost:PORT and every other as
// http://127.0.0.1:PORT, so a fixture's same-host and cross-host origins
// stay distinct; https origins are served as plain http. It returns the
// site rebased onto the served origins and closes the servers in
// t.Cleanup. It fails the test when a port cannot be opened.
func Serve(t testing.TB, site *Site) *Site {
	t.Helper()
	rebased, _ := serve(t, site)
	return rebased
}

// serve is Serve returning also the origin mapping.
func serve(t testing.TB, site *Site) (*Site, map[string]string) {
	t.Helper()
	if site == nil {
		t.Fatal("runtimetest: Serve: nil site")
		return nil, nil
	}
	origins := site.Origins()
	m := make(map[string]string, len(origins))
	lns := make(map[string]net.Listener, len(origins))
	for _, o := range origins {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			for _, l := range lns {
				l.Close()
			}
			t.Fatalf("runtimetest: listen for %s: %v", o, err)
			return nil, nil
		}
		port := ln.Addr().(*net.TCPAddr).Port
		host := "127.0.0.1"
		if u, err := url.Parse(o); err == nil && u.Hostname() == "localhost" {
			host = "localhost"
		}
		n := fmt.Sprintf("http://%s:%d", host, port)
		m[o] = n
		lns[n] = ln
	}
	rebased := site.Rebase(m)
	for n, ln := range lns {
		srv := httptest.NewUnstartedServer(rebased.Handler(n))
		srv.Listener.Close()
		srv.Listener = ln
		srv.Start()
		t.Cleanup(srv.Close)
	}
	return rebased, m
}
