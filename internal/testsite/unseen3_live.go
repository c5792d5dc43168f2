package testsite

import (
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// The live search (on the Stress origin), a page in the manner of Phoenix
// LiveView or Blazor Server: its events go to the server over a
// WebSocket and the server's answer, on the same socket, is what the
// page renders. No fetch or XHR is involved.
//
//	GET /unseen3n/live        h1 "Customers": a form with textbox "Search
//	                          customers" and button "Search", an h2 and list
//	                          "Customers" (li.cust: span.name, span.city).
//	                          The page opens the socket and sends
//	                          {"type":"join"}; the server answers with the
//	                          recent customers (h2 "Recent customers").
//	                          Search sends {"type":"search","q"}; the
//	                          server answers after ?delay=<ms> (default 600)
//	                          with the query's customers; the page replaces
//	                          the list and the h2 reads "Results for
//	                          “<q>”". Until then the old list stays on
//	                          screen, unmarked. ?silent=1: the server never
//	                          answers a search (the old list stays)
//	                          ([Stress.Unseen3NavLiveSearches]: the queries
//	                          sent)
//	GET /unseen3n/live/socket the page's WebSocket

const unseen3nLiveBody = `<main id="root">
<h1>Customers</h1>
<form id="form"><p><label for="q">Search customers</label> <input id="q" type="text" autocomplete="off"> <button type="submit">Search</button></p></form>
<h2 id="heading"></h2>
<ul id="list" aria-label="Customers"></ul>
</main>`

const unseen3nLiveJS = `
var st = { heading: "", items: [] };
function render() {
  document.getElementById("heading").textContent = st.heading;
  var ul = document.getElementById("list"); ul.textContent = "";
  st.items.forEach(function (c) {
    ul.appendChild(el("li", { "class": "cust" }, [el("span", { "class": "name" }, c.name), " · ", el("span", { "class": "city" }, c.city)]));
  });
}
var ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/unseen3n/live/socket?delay=" + (query("delay") || "600") + "&silent=" + query("silent"));
ws.onopen = function () { ws.send(JSON.stringify({ type: "join" })); };
ws.onmessage = function (m) {
  var j = JSON.parse(m.data);
  if (j.type !== "results") return;
  st.items = j.items; st.heading = j.q ? "Results for “" + j.q + "”" : "Recent customers"; render();
};
document.getElementById("form").addEventListener("submit", function (e) {
  e.preventDefault();
  ws.send(JSON.stringify({ type: "search", q: document.getElementById("q").value.trim() }));
});
render();
`

// Unseen3NavLiveSearches returns every query the live search's socket
// was sent, in order, as it arrived (before the answer's delay).
func (st *Stress) Unseen3NavLiveSearches() []string {
	st.unseen3n.mu.Lock()
	defer st.unseen3n.mu.Unlock()
	return append([]string(nil), st.unseen3n.liveSearches...)
}

func (u *unseen3n) liveRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /unseen3n/live", func(w http.ResponseWriter, _ *http.Request) {
		unseen2Page(w, http.StatusOK, "Customers", unseen3nLiveBody, unseen3nLiveJS)
	})
	mux.HandleFunc("GET /unseen3n/live/socket", u.serveLive)
}

// serveLive answers the live page's messages until the client closes,
// at most a minute.
func (u *unseen3n) serveLive(w http.ResponseWriter, r *http.Request) {
	delay := navMS(r, "delay", 600*time.Millisecond)
	silent := r.URL.Query().Get("silent") == "1"
	c, ctx, done, ok := acceptSocket(w, r)
	if !ok {
		return
	}
	defer done()
	all := Unseen3NavCustomers()
	send := func(q string, items []Unseen3NavCustomer) error {
		b, _ := json.Marshal(map[string]any{"type": "results", "q": q, "items": items})
		return c.Write(ctx, websocket.MessageText, b)
	}
	for {
		_, msg, err := c.Read(ctx)
		if err != nil {
			return
		}
		var in struct {
			Type string `json:"type"`
			Q    string `json:"q"`
		}
		if json.Unmarshal(msg, &in) != nil {
			return
		}
		switch in.Type {
		case "join":
			if send("", all[:3]) != nil {
				return
			}
		case "search":
			q := strings.ToLower(strings.TrimSpace(in.Q))
			u.mu.Lock()
			u.liveSearches = append(u.liveSearches, q)
			u.mu.Unlock()
			if silent {
				continue
			}
			if !u.st.sleep(ctx, delay) {
				return
			}
			out := []Unseen3NavCustomer{}
			for _, cu := range all {
				if q != "" && strings.Contains(strings.ToLower(cu.Name), q) {
					out = append(out, cu)
				}
			}
			if send(in.Q, out) != nil {
				return
			}
		}
	}
}
