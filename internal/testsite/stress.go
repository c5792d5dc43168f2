package testsite

import (
	"bufio"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Stress page limits: larger path parameters answer 400.
const (
	MaxStressNodes    = 200_000
	MaxStressControls = 50_000
	MaxStressSlow     = 60_000 // milliseconds
	// MaxStressComponents bounds the light-DOM buttons of
	// /stress/components/{n}.
	MaxStressComponents = 50_000
	// MaxStressWidgets bounds the ARIA widgets of /stress/widgets/{n}.
	MaxStressWidgets = 50_000
	// MaxStressRows bounds the rows of /stress/table/{n}.
	MaxStressRows = 20_000
)

// Stress serves large pages, a page that never settles, slow responses and
// the observation probe. See the package documentation. All methods are safe
// for concurrent use.
type Stress struct {
	*Server
	unseen  *unseen
	unseen2 *unseen2
	unseen3 *unseen3
	// unseen3n: the navigation pages (unseen3_nav.go)
	unseen3n *unseen3n
}

// StartStress starts only the stress pages on http://127.0.0.1:<random>.
func StartStress(opts ...Option) (*Stress, error) {
	o := buildOptions(opts)
	st := &Stress{}
	st.unseen = &unseen{st: st}
	st.unseen2 = &unseen2{st: st}
	st.unseen3n = &unseen3n{st: st}
	st.unseen3 = &unseen3{st: st}
	mux, err := baseMux()
	if err != nil {
		return nil, err
	}
	mux.HandleFunc("GET /stress/nodes/{n}", st.nodes)
	mux.HandleFunc("GET /stress/controls/{n}", st.controls)
	mux.HandleFunc("GET /stress/components/{n}", st.components)
	mux.HandleFunc("GET /stress/widgets/{n}", st.widgets)
	mux.HandleFunc("GET /stress/table/{n}", st.table)
	mux.HandleFunc("GET /stress/roles", roleCorpus)
	mux.HandleFunc("GET /stress/never-settles", func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "never.html", nil)
	})
	mux.HandleFunc("GET /stress/hang", st.hang)
	mux.HandleFunc("GET /stress/slow/{ms}", st.slow)
	mux.HandleFunc("GET /stress/probe", func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "probe.html", nil)
	})
	mux.HandleFunc("GET /stress/fold", func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "fold.html", nil)
	})
	mux.HandleFunc("GET /stress/fold/modal", func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "fold.html", nil)
	})
	mux.HandleFunc("GET /stress/fold/busy", func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "fold.html", nil)
	})
	mux.HandleFunc("GET /stress/fold/frame", func(w http.ResponseWriter, _ *http.Request) {
		render(w, http.StatusOK, "fold_frame.html", nil)
	})
	(&webcheck{st: st}).routes(mux)
	st.unseen.routes(mux)
	st.unseen2.routes(mux)
	st.unseen3n.routes(mux)
	st.unseen3.routes(mux)
	(&fields{}).routes(mux)
	(&skeleton{st: st}).routes(mux)
	srv, err := newServer("stress", "127.0.0.1", mux, o.Logger)
	if err != nil {
		return nil, err
	}
	st.Server = srv
	return st, nil
}

// pathCount parses a strictly decimal path parameter in [lo, hi].
func pathCount(s string, lo, hi int) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < lo || n > hi {
		return 0, false
	}
	return n, true
}

// pathParam is pathCount of the path parameter name; out of range it
// answers 400 naming the range, and reports false.
func pathParam(w http.ResponseWriter, r *http.Request, name string, lo, hi int) (int, bool) {
	n, ok := pathCount(r.PathValue(name), lo, hi)
	if !ok {
		http.Error(w, fmt.Sprintf("%s must be an integer in [%d, %d]", name, lo, hi), http.StatusBadRequest)
	}
	return n, ok
}

func pageStart(w http.ResponseWriter, title string) *bufio.Writer {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>%s</title>\n<link rel=\"stylesheet\" href=\"/assets/site.css\">\n</head>\n<body>\n<main>\n", title)
	return bw
}

func pageEnd(bw *bufio.Writer) {
	bw.WriteString("</main>\n</body>\n</html>\n")
	_ = bw.Flush()
}

// nodes renders GET /stress/nodes/{n}: h1 "Stress nodes", then exactly n
// generated elements in div.chunk groups of 100. Elements 1..n-1 cycle
// div "Node k", button "Button k", h3 "Heading k", span "Text k" (each
// kind numbered from 1); element n is the button "Target button".
func (st *Stress) nodes(w http.ResponseWriter, r *http.Request) {
	n, ok := pathParam(w, r, "n", 1, MaxStressNodes)
	if !ok {
		return
	}
	bw := pageStart(w, "Stress nodes")
	bw.WriteString("<h1>Stress nodes</h1>\n<div id=\"nodes\">\n")
	var count [4]int
	for i := 1; i <= n; i++ {
		if i%100 == 1 {
			bw.WriteString("<div class=\"chunk\">")
		}
		if i == n {
			bw.WriteString(`<button type="button" id="target">Target button</button>`)
		} else {
			k := (i - 1) % 4
			count[k]++
			switch k {
			case 0:
				fmt.Fprintf(bw, "<div>Node %d</div>", count[k])
			case 1:
				fmt.Fprintf(bw, "<button type=\"button\">Button %d</button>", count[k])
			case 2:
				fmt.Fprintf(bw, "<h3>Heading %d</h3>", count[k])
			case 3:
				fmt.Fprintf(bw, "<span>Text %d</span>", count[k])
			}
		}
		if i%100 == 0 || i == n {
			bw.WriteString("</div>\n")
		}
	}
	bw.WriteString("</div>\n")
	pageEnd(bw)
}

// control is one generated control of /stress/controls/{n}.
type control struct {
	kind  int    // 0 input, 1 button, 2 link, 3 select, 4 checkbox
	label string // label text or accessible name
	ident bool   // label is identifier-shaped (email or IBAN)
}

func stressControl(i int) control {
	k := i/5 + 1 // per-kind number, from 1
	switch i % 5 {
	case 0:
		switch k % 10 {
		case 3:
			return control{0, fmt.Sprintf("member%d@example.com", k), true}
		case 7:
			return control{0, italianIBAN(k), true}
		}
		return control{0, fmt.Sprintf("Field %d", k), false}
	case 1:
		return control{1, fmt.Sprintf("Action %d", k), false}
	case 2:
		return control{2, fmt.Sprintf("Link %d", k), false}
	case 3:
		return control{3, fmt.Sprintf("Choice %d", k), false}
	default:
		return control{4, fmt.Sprintf("Option %d", k), false}
	}
}

// StressIdentifierLabels returns, in page order, the identifier-shaped
// labels (e-mail addresses and Italian IBANs with valid check digits) that
// GET /stress/controls/{n} renders; discovery redaction tests assert that
// none of them leaves the page unredacted. It returns nil when n is out of
// [1, MaxStressControls].
func StressIdentifierLabels(n int) []string {
	if n < 1 || n > MaxStressControls {
		return nil
	}
	var out []string
	for i := range n {
		if c := stressControl(i); c.ident {
			out = append(out, c.label)
		}
	}
	return out
}

// italianIBAN returns a valid IBAN "IT<check>X0542811101<12-digit k>".
func italianIBAN(k int) string {
	bban := fmt.Sprintf("X0542811101%012d", k)
	return "IT" + ibanCheck("IT", bban) + bban
}

// ibanCheck computes the ISO 13616 check digits (mod 97-10).
func ibanCheck(country, bban string) string {
	rem := 0
	for _, c := range bban + country + "00" {
		switch {
		case c >= '0' && c <= '9':
			rem = (rem*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			v := int(c-'A') + 10
			rem = (rem*100 + v) % 97
		}
	}
	return fmt.Sprintf("%02d", 98-rem)
}

// controls renders GET /stress/controls/{n}: h1 "Stress controls" and n
// controls cycling labelled text input, button, link, labelled select and
// labelled checkbox.
func (st *Stress) controls(w http.ResponseWriter, r *http.Request) {
	n, ok := pathParam(w, r, "n", 1, MaxStressControls)
	if !ok {
		return
	}
	bw := pageStart(w, "Stress controls")
	bw.WriteString("<h1>Stress controls</h1>\n<form id=\"controls\" action=\"#\" onsubmit=\"return false\">\n")
	for i := range n {
		c := stressControl(i)
		if i%100 == 0 {
			bw.WriteString("<div class=\"chunk\">")
		}
		id := "ctl-" + strconv.Itoa(i+1)
		switch c.kind {
		case 0:
			fmt.Fprintf(bw, "<span class=\"field\"><label for=\"%s\">%s</label><input id=\"%s\" name=\"%s\" type=\"text\"></span>", id, c.label, id, id)
		case 1:
			fmt.Fprintf(bw, "<button type=\"button\" id=\"%s\">%s</button>", id, c.label)
		case 2:
			fmt.Fprintf(bw, "<a id=\"%s\" href=\"#%s\">%s</a>", id, id, c.label)
		case 3:
			fmt.Fprintf(bw, "<span class=\"field\"><label for=\"%s\">%s</label><select id=\"%s\" name=\"%s\"><option>One</option><option>Two</option></select></span>", id, c.label, id, id)
		case 4:
			fmt.Fprintf(bw, "<span class=\"field\"><input id=\"%s\" name=\"%s\" type=\"checkbox\"><label for=\"%s\">%s</label></span>", id, id, id, c.label)
		}
		if i%100 == 99 || i == n-1 {
			bw.WriteString("</div>\n")
		}
	}
	bw.WriteString("</form>\n")
	pageEnd(bw)
}

// components renders GET /stress/components/{n}: n light-DOM buttons
// "Voce 1".."Voce n" in div.chunk groups of 100, then the web components
// of /assets/components.js and two declarative shadow roots (see the
// package documentation).
func (st *Stress) components(w http.ResponseWriter, r *http.Request) {
	n, ok := pathParam(w, r, "n", 0, MaxStressComponents)
	if !ok {
		return
	}
	bw := pageStart(w, "Componenti")
	bw.WriteString("<h1>Componenti</h1>\n<div id=\"items\">\n")
	for i := 1; i <= n; i++ {
		if i%100 == 1 {
			bw.WriteString("<div class=\"chunk\">")
		}
		fmt.Fprintf(bw, "<button type=\"button\">Voce %d</button>", i)
		if i%100 == 0 || i == n {
			bw.WriteString("</div>\n")
		}
	}
	bw.WriteString("</div>\n")
	bw.WriteString(componentsHTML)
	bw.WriteString("<script src=\"/assets/components.js\"></script>\n")
	pageEnd(bw)
}

// componentsHTML is the component part of /stress/components/{n}.
const componentsHTML = `<sync-panel id="panel"></sync-panel>
<p><icon-button id="refresh" label="Aggiorna"></icon-button></p>
<form-field id="customer" name="customer"><span slot="label">Codice cliente</span></form-field>
<form-field id="email" name="email" data-placeholder="nome@esempio.it"><span slot="label">Email di recapito</span></form-field>
<action-bar id="actions"><button type="button" id="cancel">Annulla</button><button type="button" id="confirm">Conferma</button></action-bar>
<greeting-card id="greeting"><template shadowrootmode="open"><style>:host { display: block; }</style><p class="greet"><slot></slot>!</p><div class="note"><label>Note <textarea name="note"></textarea></label> <span id="ref-label">Riferimento</span> <input type="text" name="ref" aria-labelledby="ref-label"></div></template>Benvenuto, <b>Mario</b></greeting-card>
<opt-in id="optin"><template shadowrootmode="open"><label><slot></slot> Ricevi notifiche</label></template><input type="checkbox" name="optin"></opt-in>
<closed-widget id="closed-host"></closed-widget>
`

// hang never answers: it returns only when the client goes away or the
// server closes. /stress/never-settles keeps one such fetch pending.
func (st *Stress) hang(w http.ResponseWriter, r *http.Request) {
	st.sleep(r.Context(), 24*time.Hour)
}

func (st *Stress) slow(w http.ResponseWriter, r *http.Request) {
	ms, ok := pathParam(w, r, "ms", 0, MaxStressSlow)
	if !ok {
		return
	}
	if !st.sleep(r.Context(), time.Duration(ms)*time.Millisecond) {
		return
	}
	bw := pageStart(w, "Slow page")
	fmt.Fprintf(bw, "<h1>Slow page</h1>\n<p>Loaded after %d ms</p>\n", ms)
	pageEnd(bw)
}

// widgets renders GET /stress/widgets/{n}: h1 "Stress widgets" and n ARIA
// widgets as a script-built app renders them (divs with roles, no native
// controls), in groups of 100 of one kind, cycling by group: a tablist of
// tabs "Tab k", a menu of menuitems "Command k", a listbox of options
// "Choice k", a toolbar of icon buttons named by aria-label "Remove row
// k" (an svg inside), a group of switches "Setting k" (each kind
// numbered from 1 across its groups).
func (st *Stress) widgets(w http.ResponseWriter, r *http.Request) {
	n, ok := pathParam(w, r, "n", 1, MaxStressWidgets)
	if !ok {
		return
	}
	bw := pageStart(w, "Stress widgets")
	bw.WriteString("<h1>Stress widgets</h1>\n<div id=\"widgets\">\n")
	var count [5]int
	for i := range n {
		kind := (i / 100) % 5
		if i%100 == 0 {
			bw.WriteString([...]string{`<div role="tablist" aria-label="Tabs">`, `<div role="menu" aria-label="Commands">`,
				`<div role="listbox" aria-label="Choices">`, `<div role="toolbar" aria-label="Rows">`,
				`<div role="group" aria-label="Settings">`}[kind])
		}
		count[kind]++
		k := count[kind]
		switch kind {
		case 0:
			fmt.Fprintf(bw, `<div role="tab" aria-selected="false" tabindex="-1">Tab %d</div>`, k)
		case 1:
			fmt.Fprintf(bw, `<div role="menuitem" tabindex="-1">Command %d</div>`, k)
		case 2:
			fmt.Fprintf(bw, `<div role="option" aria-selected="false">Choice %d</div>`, k)
		case 3:
			fmt.Fprintf(bw, `<div role="button" tabindex="0" aria-label="Remove row %d"><svg width="8" height="8" aria-hidden="true"><path d="M0 0h8v8z"/></svg></div>`, k)
		case 4:
			fmt.Fprintf(bw, `<span role="switch" aria-checked="false" tabindex="0">Setting %d</span>`, k)
		}
		if i%100 == 99 || i == n-1 {
			bw.WriteString("</div>\n")
		}
	}
	bw.WriteString("</div>\n")
	pageEnd(bw)
}

// table renders GET /stress/table/{n}: h1 "Stress table" and a data table
// (caption "Invoices", a header row of th Invoice, Customer, Amount,
// Status) of n rows: td "INV-k", "Customer k", "k.00 EUR", "Paid" (k
// even) or "Open" (k odd), k from 1. Five elements a row: 2,000 rows make
// a 10,000-element document.
func (st *Stress) table(w http.ResponseWriter, r *http.Request) {
	n, ok := pathParam(w, r, "n", 1, MaxStressRows)
	if !ok {
		return
	}
	bw := pageStart(w, "Stress table")
	bw.WriteString("<h1>Stress table</h1>\n<table id=\"invoices\"><caption>Invoices</caption>\n" +
		"<thead><tr><th>Invoice</th><th>Customer</th><th>Amount</th><th>Status</th></tr></thead>\n<tbody>\n")
	for k := 1; k <= n; k++ {
		status := "Open"
		if k%2 == 0 {
			status = "Paid"
		}
		fmt.Fprintf(bw, "<tr><td>INV-%d</td><td>Customer %d</td><td>%d.00 EUR</td><td>%s</td></tr>\n", k, k, k, status)
	}
	bw.WriteString("</tbody></table>\n")
	pageEnd(bw)
}
