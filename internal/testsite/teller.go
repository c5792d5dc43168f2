package testsite

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Teller console constants that tests and capabilities rely on.
const (
	// TellerSessionCookie is the HttpOnly session cookie set by POST /login.
	TellerSessionCookie = "teller_session"
	// DefaultSearchButtonName is the member-search button's default name.
	DefaultSearchButtonName = "Search"
)

// Teller is the teller console of the member-balance process: login, member
// search, member balances, session expiry, plus the origin-escape pages.
// See the package documentation for every page and control. All methods are
// safe for concurrent use.
type Teller struct {
	*Server

	mu         sync.Mutex
	sessions   map[string]bool // token -> true while active
	expired    map[string]bool // tokens invalidated by ExpireSessions
	latency    time.Duration
	searchName string
	outside    string
	logins     int

	transfers      int
	transferDelay  time.Duration
	transferBroken bool

	api     apiState
	compose composeState // compose.go
}

// StartTeller starts only the teller console on http://127.0.0.1:<random>.
func StartTeller(opts ...Option) (*Teller, error) {
	o := buildOptions(opts)
	t := &Teller{
		sessions:   make(map[string]bool),
		expired:    make(map[string]bool),
		searchName: DefaultSearchButtonName,
		outside:    strings.TrimRight(o.OutsideOrigin, "/"),

		transferDelay: DefaultTransferDelay,
	}
	mux, err := baseMux()
	if err != nil {
		return nil, err
	}
	mux.HandleFunc("GET /{$}", t.root)
	mux.HandleFunc("GET /login", t.loginPage)
	mux.HandleFunc("POST /login", t.login)
	mux.HandleFunc("GET /members", t.members)
	mux.HandleFunc("POST /members/search", t.search)
	mux.HandleFunc("GET /members/{id}", t.member)
	t.escapeRoutes(mux)
	t.picksRoutes(mux)
	t.shiftRoutes(mux)
	t.transferRoutes(mux)
	t.apiRoutes(mux)
	t.reactRoutes(mux)
	t.summaryRoutes(mux) // summary.go
	t.composeRoutes(mux) // compose.go
	srv, err := newServer("teller", "127.0.0.1", t.withLatency(mux), o.Logger)
	if err != nil {
		return nil, err
	}
	t.Server = srv
	return t, nil
}

// SetLatency delays every response (except /favicon.ico) by d; zero or
// negative removes the delay. A delayed handler returns early when the
// client goes away or the server closes.
func (t *Teller) SetLatency(d time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.latency = max(d, 0)
}

// RenameSearchButton changes the visible (and accessible) name of the
// member-search button, e.g. to "Find member"; "" restores "Search". The
// button keeps data-testid="member-search-submit".
func (t *Teller) RenameSearchButton(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if name == "" {
		name = DefaultSearchButtonName
	}
	t.searchName = name
}

// ExpireSessions invalidates every active session: any protected page then
// shows "Session expired" (HTTP 200) until the client signs in again.
func (t *Teller) ExpireSessions() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for tok := range t.sessions {
		t.expired[tok] = true
	}
	clear(t.sessions)
}

// ActiveSessions returns the number of sessions that are currently valid.
func (t *Teller) ActiveSessions() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.sessions)
}

// Logins returns how many successful sign-ins the console accepted.
func (t *Teller) Logins() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.logins
}

// SetOutsideOrigin points the escape pages at origin (for example
// [Outside.Origin]). Until it is set, escape pages answer 503.
func (t *Teller) SetOutsideOrigin(origin string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.outside = strings.TrimRight(origin, "/")
}

func (t *Teller) outsideOrigin() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.outside
}

func (t *Teller) withLatency(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/favicon.ico" {
			t.mu.Lock()
			d := t.latency
			t.mu.Unlock()
			if !t.sleep(r.Context(), d) {
				http.Error(w, "testsite: cancelled", http.StatusServiceUnavailable)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

type sessionState int

const (
	sessionNone sessionState = iota
	sessionActive
	sessionExpired
)

func (t *Teller) session(r *http.Request) sessionState {
	c, err := r.Cookie(TellerSessionCookie)
	if err != nil {
		return sessionNone
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.sessions[c.Value]:
		return sessionActive
	case t.expired[c.Value]:
		return sessionExpired
	}
	return sessionNone
}

// guard reports whether the request may see a protected page, answering it
// otherwise: no session -> 303 /login, expired -> "Session expired" (200).
func (t *Teller) guard(w http.ResponseWriter, r *http.Request) bool {
	switch t.session(r) {
	case sessionActive:
		return true
	case sessionExpired:
		render(w, http.StatusOK, "teller_expired.html", nil)
	default:
		http.Redirect(w, r, "/login", http.StatusSeeOther)
	}
	return false
}

func (t *Teller) root(w http.ResponseWriter, r *http.Request) {
	if t.session(r) == sessionActive {
		http.Redirect(w, r, "/members", http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, "/login", http.StatusSeeOther)
}

type loginData struct {
	Alert    string
	Username string
}

func (t *Teller) loginPage(w http.ResponseWriter, _ *http.Request) {
	render(w, http.StatusOK, "teller_login.html", loginData{})
}

func (t *Teller) login(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	user, pass := r.PostForm.Get("username"), r.PostForm.Get("password")
	if strings.TrimSpace(user) == "" || pass == "" {
		render(w, http.StatusOK, "teller_login.html",
			loginData{Alert: "Enter your username and password", Username: user})
		return
	}
	var b [16]byte
	_, _ = rand.Read(b[:])
	tok := hex.EncodeToString(b[:])
	t.mu.Lock()
	t.sessions[tok] = true
	t.logins++
	t.mu.Unlock()
	http.SetCookie(w, &http.Cookie{
		Name: TellerSessionCookie, Value: tok, Path: "/",
		HttpOnly: true, SameSite: http.SameSiteLaxMode,
	})
	http.Redirect(w, r, "/members", http.StatusSeeOther)
}

type searchData struct {
	ButtonName string
	Status     string
	Query      string
}

func (t *Teller) buttonName() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.searchName
}

func (t *Teller) members(w http.ResponseWriter, r *http.Request) {
	if !t.guard(w, r) {
		return
	}
	render(w, http.StatusOK, "teller_members.html", searchData{ButtonName: t.buttonName()})
}

func (t *Teller) search(w http.ResponseWriter, r *http.Request) {
	if !t.guard(w, r) {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	if err := r.ParseForm(); err != nil {
		http.Error(w, "bad form", http.StatusBadRequest)
		return
	}
	id := strings.TrimSpace(r.PostForm.Get("memberId"))
	if id == "" {
		http.Redirect(w, r, "/members", http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, "/members/"+url.PathEscape(id), http.StatusSeeOther)
}

func (t *Teller) member(w http.ResponseWriter, r *http.Request) {
	if !t.guard(w, r) {
		return
	}
	id := r.PathValue("id")
	m, ok := LookupMember(id)
	if !ok {
		render(w, http.StatusOK, "teller_members.html",
			searchData{ButtonName: t.buttonName(), Status: "No member found", Query: id})
		return
	}
	render(w, http.StatusOK, "teller_member.html", m)
}
