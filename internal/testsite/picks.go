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

// ShiftPath is a page on the Teller origin whose layout moves under the
// pointer: the first mousemove inserts a "Delete everything" button right
// above "Save", the same size, so that Delete takes the place Save had
// when it was measured and Save moves down. The status reads "Saved" or
// "Deleted" after a click (the last one wins) and counts both in its
// data-saves and data-deletes attributes.
const ShiftPath = "/shift"

const shiftPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shift</title>
<style>button { display: block; width: 200px; height: 40px; margin: 0; }</style></head>
<body><main>
<h1>Shift</h1>
<div id="slot"></div>
<button type="button" id="save">Save</button>
<p id="status" role="status" data-saves="0" data-deletes="0">Nothing done</p>
<script>
const status = document.getElementById("status");
function done(kind, attr) {
  status.dataset[attr] = String(Number(status.dataset[attr]) + 1);
  status.textContent = kind;
}
document.getElementById("save").addEventListener("click", () => done("Saved", "saves"));
document.addEventListener("mousemove", () => {
  const del = document.createElement("button");
  del.type = "button";
  del.textContent = "Delete everything";
  del.addEventListener("click", () => done("Deleted", "deletes"));
  document.getElementById("slot").append(del);
}, {once: true});
</script>
</main></body></html>`

func (t *Teller) shiftRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET "+ShiftPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(shiftPage))
	})
}
