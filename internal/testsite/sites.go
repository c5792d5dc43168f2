package testsite

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"sync"
)

//go:embed web
var webFS embed.FS

// templates parses every embedded page template once.
var templates = sync.OnceValues(func() (*template.Template, error) {
	return template.ParseFS(webFS, "web/*.html")
})

// assets is the embedded static tree served under /assets/ by every app.
func assetsHandler() (http.Handler, error) {
	sub, err := fs.Sub(webFS, "web/assets")
	if err != nil {
		return nil, err
	}
	fsrv := http.StripPrefix("/assets/", http.FileServerFS(sub))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		fsrv.ServeHTTP(w, r)
	}), nil
}

// baseMux returns a mux with the routes every app shares: GET /favicon.ico
// (204, empty) and GET /assets/ (embedded CSS and JS).
func baseMux() (*http.ServeMux, error) {
	a, err := assetsHandler()
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	})
	mux.Handle("GET /assets/", a)
	return mux, nil
}

// render executes the named template with status code and no-store caching.
func render(w http.ResponseWriter, status int, name string, data any) {
	t, err := templates()
	if err != nil {
		http.Error(w, "testsite: templates: "+err.Error(), http.StatusInternalServerError)
		return
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, name, data); err != nil {
		http.Error(w, "testsite: render "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}

// Sites is the set of synthetic apps started by [Start]. Every field is
// non-nil after a successful Start.
type Sites struct {
	// Teller is the teller console (login, member search, balances) plus the
	// origin-escape pages pointing at Outside.
	Teller *Teller
	// Mail is the hash-routed mail client single-page app.
	Mail *Mail
	// Invoicing is the billing shell (origin A) with the nested cross-origin
	// invoice workspace and ledger (origin B).
	Invoicing *Invoicing
	// Outside is the origin that origin-escape tests must never contact.
	Outside *Outside
	// Stress serves the large, never-settling and probe pages.
	Stress *Stress
}

// Start starts every app on its own loopback origin with a random port and
// wires the Teller escape pages to the Outside origin (overriding
// [WithOutsideOrigin]). On error, servers already started are closed.
func Start(opts ...Option) (*Sites, error) {
	s := &Sites{}
	var err error
	if s.Outside, err = StartOutside(opts...); err != nil {
		return nil, err
	}
	opts = append(append([]Option(nil), opts...), WithOutsideOrigin(s.Outside.Origin()))
	if s.Teller, err = StartTeller(opts...); err == nil {
		if s.Mail, err = StartMail(opts...); err == nil {
			if s.Invoicing, err = StartInvoicing(opts...); err == nil {
				s.Stress, err = StartStress(opts...)
			}
		}
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Close closes every started app. It is safe on a partially started Sites
// and idempotent.
func (s *Sites) Close() {
	if s == nil {
		return
	}
	if s.Teller != nil {
		s.Teller.Close()
	}
	if s.Mail != nil {
		s.Mail.Close()
	}
	if s.Invoicing != nil {
		s.Invoicing.Close()
	}
	if s.Stress != nil {
		s.Stress.Close()
	}
	if s.Outside != nil {
		s.Outside.Close()
	}
}
