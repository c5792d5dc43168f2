package browser

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/go-rod/rod/lib/proto"
	"github.com/vera-run/vera/runtime"
)

var _ runtime.Seeder = (*Driver)(nil)

// seedPath is the path of the document a storage origin is seeded in. The
// request never leaves the browser: interception answers it with an empty
// page (seedPage) while Seed runs, so the site never sees it.
const seedPath = "/.well-known/vera-seed"

// seedPage is the document seeding runs in.
const seedPage = "<!doctype html><html><head><meta charset=\"utf-8\"><title>vera seed</title></head><body></body></html>"

// Seed implements [runtime.Seeder]: it sets the cookies and the local
// and session storage entries in the driver's own browser context before
// the run's first navigation, so the first document of every origin
// already sees them. Every origin must be inside the installed scope
// ([Driver.RestrictOrigins]); one outside it fails with
// [runtime.ErrOriginBlocked] (and a navigation violation) before anything
// is set.
//
// Cookies go through Storage.setCookies on the driver's browser context,
// each with url origin+path and no domain (a host-only cookie), and are
// read back with Storage.getCookies: a cookie the browser refused is an
// error, never a silent miss. Storage needs a document of its origin:
// for each storage origin the page navigates to origin+[seedPath], which
// interception answers itself with an empty page (the request never
// leaves the browser), the entries are set there with setItem, and at
// the end the page returns to about:blank and its history is reset, so
// the start navigation begins from the state of a fresh page. Session
// storage belongs to the tab and its origin and survives those
// navigations. No value is logged or returned in an error.
func (d *Driver) Seed(ctx context.Context, s runtime.SeedState) error {
	cctx, done, err := d.begin(ctx)
	if err != nil {
		return err
	}
	defer done()
	var origins []string // storage origins, in first-use order
	check := []string{}
	for _, c := range s.Cookies {
		check = append(check, c.Origin)
	}
	for _, e := range slices.Concat(s.LocalStorage, s.SessionStorage) {
		check = append(check, e.Origin)
		if !slices.Contains(origins, e.Origin) {
			origins = append(origins, e.Origin)
		}
	}
	d.mu.Lock()
	sc := d.origins
	for _, o := range check {
		n, governed := originOf(o + "/")
		if sc == nil || !governed || n != o || !sc.permits(o, true) {
			d.violations = append(d.violations, runtime.Violation{Kind: runtime.ViolationNavigation, Origin: n})
			d.mu.Unlock()
			return fmt.Errorf("%w: seed origin %s", runtime.ErrOriginBlocked, n)
		}
	}
	bc := d.browserCtxID
	d.mu.Unlock()
	if len(s.Cookies) > 0 {
		if err := d.seedCookies(cctx, bc, s.Cookies); err != nil {
			return err
		}
	}
	if len(origins) == 0 {
		return nil
	}
	defer func() {
		d.mu.Lock()
		d.seedURL = ""
		d.mu.Unlock()
	}()
	for _, o := range origins {
		if err := d.seedStorage(cctx, o, s); err != nil {
			return err
		}
	}
	d.mu.Lock()
	d.seedURL = ""
	d.mu.Unlock()
	if err := d.Navigate(cctx, "about:blank"); err != nil {
		return fmt.Errorf("seed: leaving the seed page: %w", err)
	}
	if err := d.call(cctx, d.pageSID, proto.PageResetNavigationHistory{}, nil); err != nil {
		return d.fail(cctx, "seed: reset history", err)
	}
	return nil
}

// seedCookies sets and reads back the cookies.
func (d *Driver) seedCookies(ctx context.Context, bc proto.BrowserBrowserContextID, cs []runtime.SeedCookie) error {
	params := make([]*proto.NetworkCookieParam, len(cs))
	for i, c := range cs {
		ss := proto.NetworkCookieSameSiteLax
		if c.SameSite == "Strict" {
			ss = proto.NetworkCookieSameSiteStrict
		}
		params[i] = &proto.NetworkCookieParam{Name: c.Name, Value: c.Value, URL: c.Origin + c.Path, Path: c.Path,
			Secure: c.Secure, HTTPOnly: c.HTTPOnly, SameSite: ss}
	}
	if err := d.call(ctx, "", proto.StorageSetCookies{Cookies: params, BrowserContextID: bc}, nil); err != nil {
		return d.fail(ctx, "seed: set cookies", err)
	}
	var got proto.StorageGetCookiesResult
	if err := d.call(ctx, "", proto.StorageGetCookies{BrowserContextID: bc}, &got); err != nil {
		return d.fail(ctx, "seed: read cookies back", err)
	}
	for _, c := range cs {
		host := c.Origin[len("http://"):]
		if c.Secure {
			host = c.Origin[len("https://"):]
		}
		found := false
		for _, g := range got.Cookies {
			if g.Name == c.Name && g.Path == c.Path && (g.Domain == hostOnly(host)) && g.Value == c.Value {
				found = true
				break
			}
		}
		if !found {
			return fmt.Errorf("%w: seed: the browser did not keep cookie %q of %s", runtime.ErrUnsupported, c.Name, c.Origin)
		}
	}
	return nil
}

// hostOnly strips the port of a host[:port] (cookies have no port).
func hostOnly(hostport string) string {
	if hostport != "" && hostport[0] == '[' {
		for i := range len(hostport) {
			if hostport[i] == ']' {
				return hostport[:i+1]
			}
		}
		return hostport
	}
	for i := len(hostport) - 1; i >= 0; i-- {
		if hostport[i] == ':' {
			return hostport[:i]
		}
	}
	return hostport
}

// seedStorage opens the seed page of origin o and sets its entries.
func (d *Driver) seedStorage(ctx context.Context, o string, s runtime.SeedState) error {
	pairs := func(es []runtime.SeedStorage) [][2]string {
		out := [][2]string{}
		for _, e := range es {
			if e.Origin == o {
				out = append(out, [2]string{e.Key, e.Value})
			}
		}
		return out
	}
	local, session := pairs(s.LocalStorage), pairs(s.SessionStorage)
	u := o + seedPath
	d.mu.Lock()
	d.seedURL = u
	d.mu.Unlock()
	if err := d.Navigate(ctx, u); err != nil {
		return fmt.Errorf("seed: opening %s: %w", o, err)
	}
	lj, err := json.Marshal(local)
	if err != nil {
		return err
	}
	sj, err := json.Marshal(session)
	if err != nil {
		return err
	}
	expr := `(() => { const L = ` + string(lj) + `, S = ` + string(sj) + `;
  if (location.origin !== ` + jsString(o) + `) throw new Error("seed page on the wrong origin");
  for (const [k, v] of L) localStorage.setItem(k, v);
  for (const [k, v] of S) sessionStorage.setItem(k, v);
  let n = 0;
  for (const [k, v] of L) if (localStorage.getItem(k) === v) n++;
  for (const [k, v] of S) if (sessionStorage.getItem(k) === v) n++;
  return n; })()`
	n, err := d.evalNumber(ctx, d.pageSID, expr)
	if err != nil {
		// The error text of a failed setItem (a quota) names no value.
		return d.fail(ctx, "seed: storage of "+o, err)
	}
	if n != len(local)+len(session) {
		return fmt.Errorf("%w: seed: %d of %d storage entries of %s kept", runtime.ErrUnsupported, n, len(local)+len(session), o)
	}
	return nil
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// seedReply answers a paused request for the seed page (onRequest calls
// it with d.mu held): it reports whether e is that request.
func (d *Driver) seedRequestLocked(sid proto.TargetSessionID, e *proto.FetchRequestPaused) bool {
	return d.seedURL != "" && sid == d.pageSID && e.ResourceType == proto.NetworkResourceTypeDocument && e.Request.URL == d.seedURL
}

// fulfillSeed answers the seed page request from the browser itself.
func (d *Driver) fulfillSeed(sid proto.TargetSessionID, id proto.FetchRequestID) error {
	return d.call(d.lifeCtx, sid, proto.FetchFulfillRequest{
		RequestID:    id,
		ResponseCode: 200,
		ResponseHeaders: []*proto.FetchHeaderEntry{
			{Name: "Content-Type", Value: "text/html; charset=utf-8"},
			{Name: "Cache-Control", Value: "no-store"},
		},
		Body: []byte(seedPage),
	}, nil)
}
