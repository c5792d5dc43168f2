package testsite

import (
	"net/http"
	"sync"
)

// Mail is the hash-routed mail client single-page app at GET /mail. See the
// package documentation for its views and controls. All methods are safe for
// concurrent use.
type Mail struct {
	*Server

	mu    sync.Mutex
	stuck bool
}

// StartMail starts only the mail client on http://127.0.0.1:<random>.
func StartMail(opts ...Option) (*Mail, error) {
	o := buildOptions(opts)
	m := &Mail{}
	mux, err := baseMux()
	if err != nil {
		return nil, err
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/mail", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /mail", m.page)
	srv, err := newServer("mail", "127.0.0.1", mux, o.Logger)
	if err != nil {
		return nil, err
	}
	m.Server = srv
	return m, nil
}

// SetStuckSearch makes the Search button and Enter do nothing, so the route
// stays #inbox (a failing-postcondition fixture). It applies to pages loaded
// after the call.
func (m *Mail) SetStuckSearch(stuck bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stuck = stuck
}

type mailData struct {
	Stuck    bool
	Messages []Message
}

func (m *Mail) page(w http.ResponseWriter, _ *http.Request) {
	m.mu.Lock()
	stuck := m.stuck
	m.mu.Unlock()
	render(w, http.StatusOK, "mail.html", mailData{Stuck: stuck, Messages: mailMessages})
}
