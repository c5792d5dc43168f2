package testsite

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// The skeleton page (on the Stress origin), for the blank-text tests of
// runtime/browser (blanktext_test.go): a balance the page shows blank
// until its data arrives, as a skeleton loader does.
//
//	GET /skeleton/balance      h1 "Account balance"; dl with dt "Balance" and dd
//	                           data-testid="balance" (aria-busy, drawn as a grey
//	                           6em by 1em bar, so visible even when empty) holding
//	                           the skeleton text: nothing, or with ?blank=zw a zero
//	                           width space and a word joiner, or with ?blank=space
//	                           white space. With ?fill=<ms> (0 to MaxStressSlow) a
//	                           timer of <ms> then fetches /skeleton/api/balance and
//	                           replaces the dd with a new one (same test id, no
//	                           aria-busy) reading SkeletonBalance; without fill it
//	                           stays blank
//	GET /skeleton/api/balance  ?delay=<ms>: waits, then JSON {"balance": SkeletonBalance}
type skeleton struct{ st *Stress }

// SkeletonBalance is the balance /skeleton/balance fills in.
const SkeletonBalance = "€ 1.234,50"

func (sk *skeleton) routes(mux *http.ServeMux) {
	mux.HandleFunc("GET /skeleton/balance", sk.page)
	mux.HandleFunc("GET /skeleton/api/balance", sk.api)
}

// skeletonBlank is the skeleton text of each ?blank value.
var skeletonBlank = map[string]string{"": "", "zw": "&#x200b;&#x2060;", "space": " &#xa0;\n "}

func (sk *skeleton) page(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	blank, ok := skeletonBlank[q.Get("blank")]
	if !ok {
		http.Error(w, "blank must be zw, space or absent", http.StatusBadRequest)
		return
	}
	fill := -1
	if v := q.Get("fill"); v != "" {
		if fill, ok = pathCount(v, 0, MaxStressSlow); !ok {
			http.Error(w, fmt.Sprintf("fill must be an integer in [0, %d]", MaxStressSlow), http.StatusBadRequest)
			return
		}
	}
	bw := pageStart(w, "Account balance")
	fmt.Fprintf(bw, "<h1>Account balance</h1>\n<dl><dt>Balance</dt><dd data-testid=\"balance\" aria-busy=\"true\" style=\"display:inline-block;min-width:6em;min-height:1em;background:#ddd\">%s</dd></dl>\n", blank)
	if fill >= 0 {
		fmt.Fprintf(bw, `<script>
setTimeout(() => fetch("/skeleton/api/balance?delay=0").then(r => r.json()).then(d => {
  const old = document.querySelector('[data-testid="balance"]');
  const dd = document.createElement("dd");
  dd.dataset.testid = "balance";
  dd.textContent = d.balance;
  old.replaceWith(dd);
}), %d);
</script>
`, fill)
	}
	pageEnd(bw)
}

func (sk *skeleton) api(w http.ResponseWriter, r *http.Request) {
	ms, ok := pathCount(r.URL.Query().Get("delay"), 0, MaxStressSlow)
	if !ok {
		http.Error(w, fmt.Sprintf("delay must be an integer in [0, %d]", MaxStressSlow), http.StatusBadRequest)
		return
	}
	if !sk.st.sleep(r.Context(), time.Duration(ms)*time.Millisecond) {
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]string{"balance": SkeletonBalance})
}
