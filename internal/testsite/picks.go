package testsite

import (
	"html/template"
	"net/http"
)

// PicksPath is a page on the Teller origin with three buttons told apart
// only by their data-pick attribute: `plain`, `a"b` (a quote inside the
// value) and `admin`. Clicking one shows "Picked: <value>" in a status
// paragraph. Tests use it to show that an input substituted into a CSS
// candidate is data: `button[data-pick="{{pick}}"]` with the input
// `x"], button[data-pick="admin` must not click admin.
const PicksPath = "/picks"

var picksPage = template.Must(template.New("picks").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Picks</title></head>
<body><main>
<h1>Picks</h1>
{{range .}}<button type="button" data-pick="{{.}}">Pick</button>
{{end}}<p id="picked" role="status">Nothing picked</p>
<script>
for (const b of document.querySelectorAll("button[data-pick]")) {
  b.addEventListener("click", () => {
    document.getElementById("picked").textContent = "Picked: " + b.dataset.pick;
  });
}
</script>
</main></body></html>`))

func (t *Teller) picksRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET "+PicksPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_ = picksPage.Execute(w, []string{"plain", `a"b`, "admin"})
	})
}
