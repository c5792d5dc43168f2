package testsite

import (
	"crypto/rand"
	"encoding/hex"
	"html/template"
	"io"
	"net/http"
	"sync"
)

// Portal is a member portal that shows who is signed in (seed 002, secret
// references and seeded state). The session lives in the HttpOnly cookie
// "portal_session"; the workspace and tab labels live in the browser's
// local and session storage and are read by the page's own script while
// the page loads, so what the first load shows is what storage held
// before it.
//
//	GET  /login     sign-in form: textbox "Username", textbox "Password",
//	                button "Sign in"
//	POST /login     form username, password; a pair added with AddAccount
//	                signs in: sets "portal_session" (HttpOnly, SameSite=Lax,
//	                path /), 303 /home; anything else answers 200 with the
//	                form and alert "Wrong username or password"
//	GET  /home      with a known session: heading "Portal home",
//	                "Signed in as <user>" (#who), "Workspace: <label>"
//	                (#workspace, localStorage "portal.workspace" or "none"),
//	                "Tab: <label>" (#tab, sessionStorage "portal.tab" or
//	                "none"); without one 303 /login
//	GET  /portal.js the page script
//	GET  /          303 /home
//
// A session is minted by a password sign-in or by NewSession (a session a
// host obtained earlier, which a capability seeds as a cookie). Logins
// counts password sign-ins, so a test can prove none happened.
type Portal struct {
	*Server

	mu       sync.Mutex
	accounts map[string]string // user -> password
	sessions map[string]string // token -> user
	logins   int
}

// StartPortal starts the portal on http://127.0.0.1:<random>.
func StartPortal(opts ...Option) (*Portal, error) {
	o := buildOptions(opts)
	p := &Portal{accounts: map[string]string{}, sessions: map[string]string{}}
	mux, err := baseMux()
	if err != nil {
		return nil, err
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/home", http.StatusSeeOther)
	})
	mux.HandleFunc("GET /login", func(w http.ResponseWriter, _ *http.Request) { p.renderLogin(w, false) })
	mux.HandleFunc("POST /login", p.postLogin)
	mux.HandleFunc("GET /home", p.home)
	mux.HandleFunc("GET /portal.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = io.WriteString(w, portalJS)
	})
	srv, err := newServer("portal", "", mux, o.Logger)
	if err != nil {
		return nil, err
	}
	p.Server = srv
	return p, nil
}

// AddAccount lets user sign in with password.
func (p *Portal) AddAccount(user, password string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.accounts[user] = password
}

// NewSession mints a session for user, as a sign-in would, and returns
// its cookie value.
func (p *Portal) NewSession(user string) string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.newSessionLocked(user)
}

// Logins is the number of successful password sign-ins.
func (p *Portal) Logins() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.logins
}

func (p *Portal) newSessionLocked(user string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	tok := hex.EncodeToString(b[:])
	p.sessions[tok] = user
	return tok
}

func (p *Portal) postLogin(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		p.renderLogin(w, true)
		return
	}
	user, pass := r.PostForm.Get("username"), r.PostForm.Get("password")
	p.mu.Lock()
	want, ok := p.accounts[user]
	var tok string
	if ok && pass == want && pass != "" {
		p.logins++
		tok = p.newSessionLocked(user)
	}
	p.mu.Unlock()
	if tok == "" {
		p.renderLogin(w, true)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: "portal_session", Value: tok, Path: "/", HttpOnly: true, SameSite: http.SameSiteLaxMode})
	http.Redirect(w, r, "/home", http.StatusSeeOther)
}

func (p *Portal) user(r *http.Request) (string, bool) {
	c, err := r.Cookie("portal_session")
	if err != nil {
		return "", false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	u, ok := p.sessions[c.Value]
	return u, ok
}

func (p *Portal) home(w http.ResponseWriter, r *http.Request) {
	u, ok := p.user(r)
	if !ok {
		http.Redirect(w, r, "/login", http.StatusSeeOther)
		return
	}
	portalPage(w, http.StatusOK, portalHome, u)
}

func (p *Portal) renderLogin(w http.ResponseWriter, failed bool) {
	portalPage(w, http.StatusOK, portalLogin, failed)
}

func portalPage(w http.ResponseWriter, status int, t *template.Template, data any) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = t.Execute(w, data)
}

var portalLogin = template.Must(template.New("login").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Portal sign in</title></head>
<body><main>
<h1>Member portal</h1>
{{if .}}<p role="alert">Wrong username or password</p>{{end}}
<form method="post" action="/login">
<p><label for="username">Username</label> <input id="username" name="username" autocomplete="username"></p>
<p><label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password"></p>
<p><button type="submit">Sign in</button></p>
</form>
</main></body></html>
`))

var portalHome = template.Must(template.New("home").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Portal home</title></head>
<body><main>
<h1>Portal home</h1>
<p id="who" data-testid="who">Signed in as {{.}}</p>
<p id="workspace">Workspace: <span id="workspace-label" data-testid="workspace">…</span></p>
<p id="tab">Tab: <span id="tab-label" data-testid="tab">…</span></p>
</main>
<script src="/portal.js"></script>
</body></html>
`))

// portalJS reads the storage labels while the page loads (a synchronous
// script at the end of the body: before the load event).
const portalJS = `(function () {
  function read(store, key) {
    try { var v = store.getItem(key); return v === null ? "none" : v; } catch (e) { return "unavailable"; }
  }
  document.getElementById("workspace-label").textContent = read(window.localStorage, "portal.workspace");
  document.getElementById("tab-label").textContent = read(window.sessionStorage, "portal.tab");
})();
`
